// DataHub URN parsing and validation: splits `urn:li:<entityType>:<key>` into its parts and checks the
// rules DataHub always enforces. Pure: no I/O, no logging, and no decoding (DataHub keeps URN text as-is).

import { didYouMean } from './urn-suggestion.ts';
import { badRequest, shown } from './errors.ts';

/** A URN split into its entity type and key parts. */
export interface ParsedUrn {
  urn: string;
  entityType: string;
  /** The key: one part for a plain key, or the tuple's parts, nested URNs kept whole. */
  parts: string[];
}

/** The key of a dataset URN, named as DataHub's `datasetKey` aspect names it. */
export interface DatasetKey {
  /** The platform URN, e.g. `urn:li:dataPlatform:hive`. */
  platform: string;
  /** The platform id, e.g. `hive`. */
  platformName: string;
  name: string;
  /** A FabricType value. */
  origin: string;
}

/** DataHub's GraphQL FabricType enum, in DataHub's order; schema.graphql's FabricType must match (tested). */
export const FABRIC_TYPES: readonly string[] = [
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'PROD',
  'CORP',
  'RVW',
  'SANDBOX',
];

const PREFIX = 'urn:li:';
const SCHEMA_FIELD_PREFIX = `${PREFIX}schemaField:`;
const EXPECTED = 'expected urn:li:<entityType>:<key>';
const ENTITY_TYPE = /^[a-z][A-Za-z0-9_]*$/;
// DataHub's UrnValidationUtil limit; schemaField URNs embed a dataset URN and a field path, so DataHub exempts them.
const MAX_ENCODED_BYTES = 512;
// minihub still caps schemaField URNs, so that no URN is unbounded: a dataset URN (at most 512 bytes) and
// a field path. Nested v2 field paths ("[version=2.0].[type=struct]…") run to a few hundred characters and
// encode to about twice that; 16 KiB is room for paths dozens of levels deep, and still microseconds to check.
const MAX_SCHEMA_FIELD_ENCODED_BYTES = 16 * 1024;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// U+241F is DataHub's internal delimiter, so it can never appear inside a URN.
const DELIMITER = '\u241F';

/**
 * Parses and validates a URN. Throws BAD_REQUEST naming the URN and what is wrong with it.
 * Entity types minihub does not know are accepted: DataHub files carry many.
 */
export function parseUrn(urn: string): ParsedUrn {
  if (typeof urn !== 'string') {
    throw badRequest(`Invalid urn ${shown(String(urn))}: not a string; ${EXPECTED}`);
  }
  checkLength(urn);
  if (urn !== urn.trim()) fail(urn, 'it has leading or trailing whitespace');
  if (!urn.startsWith(PREFIX)) fail(urn, 'it does not start with "urn:li:"');
  if (urn.includes(DELIMITER)) fail(urn, 'it contains the reserved character "\u241F" (U+241F)');

  const rest = urn.slice(PREFIX.length);
  const colon = rest.indexOf(':');
  const entityType = colon === -1 ? rest : rest.slice(0, colon);
  if (!ENTITY_TYPE.test(entityType)) {
    const what =
      entityType === ''
        ? 'the entity type is empty'
        : `the entity type "${shown(entityType)}" must start with a-z and contain only letters, digits and _`;
    fail(urn, what + didYouMean(entityType));
  }
  const key = colon === -1 ? '' : rest.slice(colon + 1);
  if (key === '') fail(urn, 'the key is empty');

  const limit = lengthLimit(urn);
  if (encodedLength(urn, limit) > limit) fail(urn, `it is longer than ${limit} bytes when URL-encoded`);
  return { urn, entityType, parts: parseKey(urn, key) };
}

/** Parses a dataset URN into its platform, name and origin (FabricType). */
export function parseDatasetUrn(urn: string): DatasetKey {
  const parsed = parseUrn(urn);
  const expected = 'expected urn:li:dataset:(urn:li:dataPlatform:<platform>,<name>,<FABRIC>)';
  if (parsed.entityType !== 'dataset') {
    throw badRequest(
      `Invalid dataset urn "${shown(urn)}": its entity type is "${shown(parsed.entityType)}", not "dataset"` +
        `${didYouMean(parsed.entityType)}; ${expected}`,
    );
  }
  if (parsed.parts.length !== 3) {
    throw badRequest(
      `Invalid dataset urn "${shown(urn)}": its key has ${parsed.parts.length} part(s), not 3; ${expected}`,
    );
  }
  const [platform, name, origin] = parsed.parts as [string, string, string];
  let platformName: string | undefined;
  if (platform.startsWith(`${PREFIX}dataPlatform:`)) {
    const inner = parseUrn(platform);
    if (inner.parts.length === 1) platformName = inner.parts[0];
  }
  if (platformName === undefined) {
    throw badRequest(
      `Invalid dataset urn "${shown(urn)}": its platform "${shown(platform)}" is not a urn:li:dataPlatform:<platform> urn; ${expected}`,
    );
  }
  if (!FABRIC_TYPES.includes(origin)) {
    const upper = origin.toUpperCase();
    const hint = FABRIC_TYPES.includes(upper) ? ` (did you mean "${upper}"? urns are case-sensitive)` : '';
    throw badRequest(
      `Invalid dataset urn "${shown(urn)}": its origin "${shown(origin)}" is not a FabricType${hint}; ` +
        `expected one of ${FABRIC_TYPES.join(', ')}`,
    );
  }
  return { platform, platformName, name, origin };
}

/** Validates a URN whole (a dataset URN down to its platform and origin) and returns its entity type. */
export function checkedEntityType(urn: string): string {
  // Every write checks its target this way, mostly of the same datasets again: a URN found valid once is
  // remembered, which costs one lookup where the parse of a dataset URN and its platform URN cost about 1 µs.
  const known = CHECKED_TYPES.get(urn);
  if (known !== undefined) return known;
  let entityType = entityTypeOf(urn);
  if (entityType === 'dataset') parseDatasetUrn(urn);
  else entityType = parseUrn(urn).entityType;
  if (urn.length > MAX_CHECKED_URN_LENGTH) return entityType;
  if (CHECKED_TYPES.size >= MAX_CHECKED_URNS) CHECKED_TYPES.clear();
  CHECKED_TYPES.set(urn, entityType);
  return entityType;
}

// URNs checkedEntityType found valid, and their entity types: at most 16 Ki URNs of up to 256 characters
// (a few MB at worst), cleared whole when full, as USER_URNS is. Longer URNs are checked every time.
const CHECKED_TYPES = new Map<string, string>();
const MAX_CHECKED_URNS = 16 * 1024;
const MAX_CHECKED_URN_LENGTH = 256;

/**
 * The entity type of a URN. Cheap on well-formed URNs; anything else goes through
 * parseUrn so the caller still gets a proper error rather than a wrong answer.
 */
export function entityTypeOf(urn: string): string {
  checkLength(urn);
  if (urn.startsWith(PREFIX)) {
    const colon = urn.indexOf(':', PREFIX.length);
    if (colon > PREFIX.length) return urn.slice(PREFIX.length, colon);
  }
  return parseUrn(urn).entityType;
}

/** `urn:li:corpuser:<username>`, with reserved characters percent-encoded as DataHub's SDK does. */
export function corpUserUrn(username: string): string {
  // Asked for on every write (the actor, its role, its ownership), always of the same few users;
  // building one validates it, which costs more than remembering it.
  checkIdLength(username, 'username');
  let urn = USER_URNS.get(username);
  if (urn === undefined) {
    urn = buildUrn('corpuser', username, 'username');
    if (USER_URNS.size >= MAX_REMEMBERED_USERS) USER_URNS.clear();
    USER_URNS.set(username, urn);
  }
  return urn;
}

const USER_URNS = new Map<string, string>();
const MAX_REMEMBERED_USERS = 1024;

/** `urn:li:tag:<id>`, with reserved characters percent-encoded as DataHub's SDK does. */
export function tagUrn(id: string): string {
  return buildUrn('tag', id, 'tag id');
}

/**
 * `urn:li:tag:<id>` with the id as given, as DataHub's createTag resolver builds it (its SDK would
 * percent-encode). Throws BAD_REQUEST for an id that is empty, padded with whitespace or too long.
 */
export function givenTagUrn(id: string): string {
  checkIdLength(id, 'tag id');
  if (id === '' || id.trim() !== id) {
    throw badRequest(
      `tag id ${JSON.stringify(shown(id))} is not usable: expected a non-empty id without leading or trailing whitespace`,
    );
  }
  return parseUrn(`${PREFIX}tag:${id}`).urn;
}

function buildUrn(entityType: string, id: string, what: string): string {
  if (typeof id !== 'string') throw badRequest(`Invalid ${what} ${shown(String(id))}: expected a non-empty string`);
  checkIdLength(id, what);
  if (id.trim() === '') throw badRequest(`Invalid ${what} ${JSON.stringify(shown(id))}: expected a non-empty string`);
  return parseUrn(`${PREFIX}${entityType}:${encodeComponent(id)}`).urn;
}

/** An id too long for any URN built from it is refused before it is looked up, trimmed or encoded. */
function checkIdLength(id: string, what: string): void {
  if (typeof id === 'string' && id.length > MAX_ENCODED_BYTES) {
    throw badRequest(
      `Invalid ${what} "${shown(id)}": it is ${id.length} characters long; a urn holds at most ${MAX_ENCODED_BYTES} bytes`,
    );
  }
}

/**
 * The first check on any URN, before it is searched, trimmed or compared: a URL-encoded byte comes from
 * at least one UTF-16 unit, so a URN with more units than its limit allows bytes is refused unread.
 */
function checkLength(urn: string): void {
  const limit = lengthLimit(urn);
  if (urn.length > limit) {
    const which = limit === MAX_ENCODED_BYTES ? '' : ' for a schemaField urn';
    fail(urn, `it is ${urn.length} characters long; the limit${which} is ${limit} bytes when URL-encoded`);
  }
}

function lengthLimit(urn: string): number {
  return urn.startsWith(SCHEMA_FIELD_PREFIX) ? MAX_SCHEMA_FIELD_ENCODED_BYTES : MAX_ENCODED_BYTES;
}

// Mirrors metadata-ingestion's UrnEncoder: only the characters that would change the URN's structure.
// encodeURIComponent leaves parentheses alone, so the escapes are spelt out.
const RESERVED_ESCAPES = new Map([
  [',', '%2C'],
  ['(', '%28'],
  [')', '%29'],
  ['\u241F', '%E2%90%9F'],
]);

function encodeComponent(value: string): string {
  return value.replace(/[,()\u241F]/g, (c) => RESERVED_ESCAPES.get(c) ?? c);
}

function parseKey(urn: string, key: string): string[] {
  if (!key.startsWith('(')) {
    // A plain key may contain balanced parentheses (DataHub only logs those), but never stray ones.
    if (!balanced(key)) fail(urn, 'its parentheses are mismatched');
    return [key];
  }
  if (!key.endsWith(')'))
    fail(urn, 'its parentheses are mismatched: the key starts with "(" but does not end with ")"');

  const parts: string[] = [];
  let depth = 0;
  let start = 1;
  for (let i = 1; i < key.length - 1; i++) {
    const c = key[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) fail(urn, 'its parentheses are mismatched');
    } else if (c === ',' && depth === 0) {
      parts.push(key.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) fail(urn, 'its parentheses are mismatched');
  parts.push(key.slice(start, key.length - 1));
  const empty = parts.indexOf('');
  if (empty !== -1) fail(urn, `part ${empty + 1} of its key is empty`);
  return parts;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function encodedLength(urn: string, limit: number): number {
  // Printable ASCII encodes to at most 3 bytes a character: short ones need no encoding pass.
  if (urn.length * 3 <= limit && PRINTABLE_ASCII.test(urn)) return urn.length * 3;
  try {
    return encodeURIComponent(urn).length;
  } catch {
    // encodeURIComponent throws only on lone surrogates, which no valid URN contains.
    fail(urn, 'it contains an unpaired UTF-16 surrogate');
  }
}

function fail(urn: string, what: string): never {
  throw badRequest(`Invalid urn "${shown(urn)}": ${what}; ${EXPECTED}`);
}
