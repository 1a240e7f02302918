// Parses the text of a DataHub `file` source file (MCEs with snapshots and MCPs) into aspect upserts,
// record by record as read-records.ts hands them on. Pure: no file I/O and no output; bad records are
// returned as rejections, only an unreadable file throws.

import { badRequest, MinihubError, shown } from '../errors.ts';
import { isJsonObject } from '../aspects/json.ts';
import type { JsonObject, JsonValue } from '../aspects/json.ts';
import { checkedEntityType } from '../urn.ts';
import { aspectNameOf, normaliseTypeName } from './aspect-names.ts';
import { readRecords, type RawRecord, type TextPieces } from './read-records.ts';

/** One aspect to upsert, its value in Pegasus JSON form (the form MCPs use). */
export interface IngestedAspect {
  urn: string;
  entityType: string;
  aspect: string;
  value: JsonValue;
}

/** A record that was skipped. `record` is 1-based: the array index + 1, or the line number for JSON lines. */
export interface RejectedRecord {
  record: number;
  reason: string;
}

export interface ParsedFile {
  /** How many records the file holds, rejected ones included. */
  records: number;
  /** In file order; a later upsert of the same aspect wins. */
  aspects: IngestedAspect[];
  rejected: RejectedRecord[];
}

const EXPECTED_RECORD =
  'expected a MetadataChangeEvent ({"proposedSnapshot": …}) or a MetadataChangeProposal ' +
  '({"entityUrn", "aspectName", "aspect": {"value" | "json"}})';

// The type names Avro's JSON encoding uses to tag a union branch holding a plain value.
// Each is paired with a check of the value, so a record that merely has one field named "map" is left alone.
const AVRO_PRIMITIVES = new Map<string, (value: JsonValue) => boolean>([
  ['string', (v) => typeof v === 'string'],
  ['bytes', (v) => typeof v === 'string'],
  ['int', (v) => typeof v === 'number'],
  ['long', (v) => typeof v === 'number'],
  ['float', (v) => typeof v === 'number'],
  ['double', (v) => typeof v === 'number'],
  ['boolean', (v) => typeof v === 'boolean'],
  ['array', (v) => Array.isArray(v)],
  ['map', (v) => isJsonObject(v)],
]);

// Maps whose keys are user data: a property called "string" must not be mistaken for a union tag.
const USER_KEYED_MAPS = new Set(['customProperties']);

/**
 * Parses a DataHub file's text. `source` names the file in messages. Throws BAD_REQUEST only when the text is not
 * JSON, a JSON array, or JSON lines at all; a bad record is reported in `rejected` and the rest are kept.
 */
export function parseDataHubFile(text: string, source: string): ParsedFile {
  // Editors on Windows like to prepend a byte-order mark, which JSON.parse refuses.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return parseDataHubPieces(() => [body], source);
}

/**
 * As parseDataHubFile, over text read in pieces (see read-records.ts), one record at a time: only the
 * records' aspects are kept, never the text, so a file of any size can be parsed.
 */
export function parseDataHubPieces(pieces: TextPieces, source: string): ParsedFile {
  let result: ParsedFile = { records: 0, aspects: [], rejected: [] };
  const onRecord = (raw: RawRecord) => {
    result.records++;
    const read = readRecord(raw);
    if ('reason' in read) result.rejected.push(read);
    else for (const aspect of read) result.aspects.push(aspect);
  };
  readRecords(pieces, source, onRecord, () => (result = { records: 0, aspects: [], rejected: [] }));
  return result;
}

/**
 * One record's aspects, or why it is rejected. With `built` false the values are left as the record has
 * them (Avro's unions not unwrapped, type names not shortened): the same aspects, in the same order, and
 * the same rejections, for a reader that needs only what is upserted where.
 */
export function readRecord({ record, value, error }: RawRecord, built = true): IngestedAspect[] | RejectedRecord {
  if (error !== undefined) return { record, reason: error };
  try {
    return recordAspects(value, built);
  } catch (err) {
    // Only expected failures become rejections; anything else is a bug and should surface as one.
    if (!(err instanceof MinihubError)) throw err;
    return { record, reason: err.message };
  }
}

function recordAspects(record: JsonValue, built: boolean): IngestedAspect[] {
  if (!isJsonObject(record)) {
    throw badRequest(`the record is ${describe(record)}; ${EXPECTED_RECORD}`);
  }
  if ('proposedSnapshot' in record) return snapshotAspects(record.proposedSnapshot ?? null, built);
  if ('aspect' in record || 'aspectName' in record) return [mcpAspect(record, ['UPSERT'], built)];
  if ('bucket' in record) {
    throw badRequest(
      'usage records (with "bucket") are not supported; expected MetadataChangeEvents or MetadataChangeProposals',
    );
  }
  throw badRequest(`the record is ${describe(record)}; ${EXPECTED_RECORD}`);
}

/**
 * The aspects of an MCE's snapshot union (`{"com.linkedin[.pegasus2avro].metadata.snapshot.<Entity>Snapshot":
 * {urn, aspects}}`), checked as a file's are. Throws BAD_REQUEST naming what is wrong.
 */
export function snapshotAspects(snapshotUnion: JsonValue, built = true): IngestedAspect[] {
  const expected =
    'expected {"com.linkedin.pegasus2avro.metadata.snapshot.<Entity>Snapshot": {"urn", "aspects": [...]}}';
  const entries = isJsonObject(snapshotUnion) ? Object.entries(snapshotUnion) : [];
  const [entry] = entries;
  if (entries.length !== 1 || entry === undefined || !isJsonObject(entry[1])) {
    throw badRequest(`proposedSnapshot is ${describe(snapshotUnion)}; ${expected}`);
  }
  const [snapshotType, snapshot] = entry as [string, JsonObject];
  const { urn, aspects } = snapshot;
  if (typeof urn !== 'string') {
    throw badRequest(`the ${shown(shortName(snapshotType))} has no string "urn"; ${expected}`);
  }
  // Only a URN the API can read back is stored: the checks the mutations make (a dataset's down to its
  // platform and origin), else every later read of the entity would fail.
  const entityType = checkedEntityType(urn);
  const snapshotEntity = shortName(snapshotType).replace(/Snapshot$/, '');
  // DataHub refuses a snapshot whose type disagrees with its URN; names differ only in case (CorpUser/corpuser).
  if (snapshotEntity.toLowerCase() !== entityType.toLowerCase()) {
    throw badRequest(
      `${shown(urn)}: a ${shown(shortName(snapshotType))} cannot hold a "${entityType}" urn; expected a ${entityType} snapshot`,
    );
  }
  if (!Array.isArray(aspects)) {
    throw badRequest(
      `${shown(urn)}: "aspects" is ${describe(aspects ?? null)}; expected an array of {"<aspect type>": {...}}`,
    );
  }

  return aspects.map((item, i) => {
    const pairs = isJsonObject(item) ? Object.entries(item) : [];
    const [pair] = pairs;
    if (pairs.length !== 1 || pair === undefined || !isJsonObject(pair[1])) {
      throw badRequest(
        `${shown(urn)}: aspect ${i + 1} is ${describe(item)}; expected {"com.linkedin.pegasus2avro.<pkg>.<AspectType>": {...}}`,
      );
    }
    const aspect = aspectNameOf(pair[0]);
    if (aspect === undefined) {
      throw badRequest(
        `${shown(urn)}: aspect ${i + 1} has type "${shown(pair[0])}"; expected a fully qualified type such as ` +
          '"com.linkedin.pegasus2avro.dataset.DatasetProperties"',
      );
    }
    return { urn, entityType, aspect, value: built ? fromAvro(pair[1]) : pair[1] };
  });
}

/**
 * One MCP's aspect, checked: its URN as the mutations check it, its entity type, aspect name and value.
 * `changeTypes` are those the caller writes (a file: UPSERT, or none given). Throws BAD_REQUEST naming the fault.
 */
export function mcpAspect(
  record: JsonObject,
  changeTypes: readonly string[] = ['UPSERT'],
  built = true,
): IngestedAspect {
  const { changeType } = record;
  if (changeType !== undefined && changeType !== null && !changeTypes.includes(changeType as string)) {
    const expected = changeTypes.map((type) => `"${type}"`).join(' or ');
    throw badRequest(`changeType ${quoted(changeType)} is not supported; expected ${expected}`);
  }
  const { urn, entityType, aspect: aspectName, where } = proposalTarget(record);
  const { aspect } = record;
  if (!isJsonObject(aspect)) {
    throw badRequest(
      `${where}: "aspect" is ${describe(aspect ?? null)}; expected {"value": "<JSON string>"} or {"json": {...}}`,
    );
  }

  let value: JsonValue;
  if (aspect.json !== undefined) {
    value = aspect.json;
  } else if (typeof aspect.value === 'string') {
    const { contentType } = aspect;
    if (contentType !== undefined && contentType !== null && contentType !== 'application/json') {
      throw badRequest(`${where}: contentType ${quoted(contentType)} is not supported; expected "application/json"`);
    }
    try {
      value = JSON.parse(aspect.value) as JsonValue;
    } catch (err) {
      throw badRequest(
        `${where}: aspect.value is not valid JSON (${errorText(err)}); expected a JSON object in a string`,
      );
    }
  } else {
    throw badRequest(
      `${where}: "aspect" has neither a "value" string nor a "json" object; expected {"value": "<JSON string>"} or {"json": {...}}`,
    );
  }
  if (!isJsonObject(value)) {
    throw badRequest(`${where}: the aspect is ${describe(value)}; expected a JSON object`);
  }
  return { urn, entityType, aspect: aspectName, value: built ? normaliseKeys(value) : value };
}

/** DataHub's aspect names: camelCase words (datasetProperties, dataHubIngestionSourceInfo). */
const ASPECT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,127}$/;

/** What an MCP names, checked: its URN (as the mutations check it), the entity type it declares, its aspect name. */
export function proposalTarget(record: JsonObject): { urn: string; entityType: string; aspect: string; where: string } {
  const { entityUrn, entityType: declared, aspectName } = record;
  if (typeof entityUrn !== 'string') {
    throw badRequest(`the proposal's "entityUrn" is ${describe(entityUrn ?? null)}; expected a urn string`);
  }
  // As for snapshots: only a URN the API can read back, checked as the mutations check it.
  const entityType = checkedEntityType(entityUrn);
  if (declared !== undefined && declared !== null && declared !== entityType) {
    throw badRequest(
      `${shown(entityUrn)}: entityType ${quoted(declared)} does not match the urn; expected "${entityType}"`,
    );
  }
  if (typeof aspectName !== 'string' || !ASPECT_NAME.test(aspectName)) {
    throw badRequest(
      `${shown(entityUrn)}: "aspectName" is ${typeof aspectName === 'string' ? quoted(aspectName) : describe(aspectName ?? null)}; expected an aspect name such as "datasetProperties" (a letter, then up to 127 letters, digits or _)`,
    );
  }
  return { urn: entityUrn, entityType, aspect: aspectName, where: `${shown(entityUrn)} ${shown(aspectName)}` };
}

/**
 * Turns Avro JSON into Pegasus JSON: `{"string": "x"}` becomes "x", and record-union keys move from
 * `com.linkedin.pegasus2avro.` to `com.linkedin.`. Nulls stay, so an explicit "no value" survives.
 */
function fromAvro(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(fromAvro);
  if (!isJsonObject(value)) return value;
  const entries = Object.entries(value);
  const [only] = entries;
  if (entries.length === 1 && only !== undefined && AVRO_PRIMITIVES.get(only[0])?.(only[1]) === true) {
    return fromAvro(only[1]);
  }
  // fromEntries, not assignment, so a "__proto__" key in the data stays an ordinary key.
  return Object.fromEntries(
    entries.map(([key, v]) => [normaliseTypeName(key), USER_KEYED_MAPS.has(key) ? userMap(v, true) : fromAvro(v)]),
  ) as JsonObject;
}

// MCP payloads are Pegasus JSON already; only Avro-style type names need rewriting.
function normaliseKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(normaliseKeys);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      normaliseTypeName(key),
      USER_KEYED_MAPS.has(key) ? userMap(v, false) : normaliseKeys(v),
    ]),
  ) as JsonObject;
}

/**
 * A user-keyed map is copied as it is. In Avro form an optional map may arrive as {"map": {...}}; that
 * can only be the union tag, because the map's own values are strings, never objects.
 */
function userMap(value: JsonValue, avro: boolean): JsonValue {
  if (avro && isJsonObject(value)) {
    const entries = Object.entries(value);
    const [only] = entries;
    if (entries.length === 1 && only !== undefined && only[0] === 'map' && isJsonObject(only[1])) return only[1];
  }
  return value;
}

function shortName(typeName: string): string {
  return typeName.slice(typeName.lastIndexOf('.') + 1);
}

function describe(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.slice(0, 8).map(shown).join(', ')}`;
  }
  return `the ${typeof value} ${JSON.stringify(value).slice(0, 60)}`;
}

/** A value a record gave, as a message quotes it: a string in quotes, shortened; anything else described. */
function quoted(value: JsonValue): string {
  return typeof value === 'string' ? JSON.stringify(shown(value)) : describe(value);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
