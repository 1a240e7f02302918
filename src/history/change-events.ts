// Turns one tracked aspect's value before and after a change into DataHub's change events (documentation
// and tags of a dataset and its columns, links). Pure: no store, no log, no GraphQL.

import { isJsonObject, type JsonObject, type JsonValue } from '../aspects/json.ts';
import { obj, objects, str } from '../aspects/read.ts';

export type ChangeCategory = 'DOCUMENTATION' | 'TAG';
export type ChangeOperation = 'ADD' | 'MODIFY' | 'REMOVE';
/** How much a change moves the entity's computed semantic version (DataHub's SemanticChangeType). */
export type SemVerChange = 'MINOR' | 'PATCH';

export interface ChangeEvent {
  /** The entity changed: the dataset, or its column as a schemaField URN. */
  urn: string;
  category: ChangeCategory;
  operation: ChangeOperation;
  modifier: string | null;
  parameters: [key: string, value: string][] | null;
  description: string;
  semVer: SemVerChange;
}

/** The dataset aspects whose changes the history keeps. */
export const TRACKED_ASPECTS: ReadonlySet<string> = new Set([
  'editableDatasetProperties',
  'editableSchemaMetadata',
  'institutionalMemory',
  'globalTags',
]);

/** Whether a change of `aspect` on `urn` is one the history keeps. */
export function isTracked(urn: string, aspect: string): boolean {
  return TRACKED_ASPECTS.has(aspect) && urn.startsWith('urn:li:dataset:');
}

/** The change events of `aspect` of dataset `urn` going from `before` to `after` (undefined/null: absent). */
export function changeEvents(
  urn: string,
  aspect: string,
  before: JsonValue | undefined,
  after: JsonValue,
): ChangeEvent[] {
  const from = isJsonObject(before) ? before : null;
  const to = isJsonObject(after) ? after : null;
  switch (aspect) {
    case 'editableDatasetProperties':
      return descriptionEvents(urn, null, urn, str(from, 'description'), str(to, 'description'), 'MINOR');
    case 'globalTags':
      return tagEvents(urn, null, urn, from, to);
    case 'institutionalMemory':
      return linkEvents(urn, from, to);
    case 'editableSchemaMetadata':
      return columnEvents(urn, from, to);
    default:
      return [];
  }
}

/** DataHub's URN of a dataset's column. */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  return `urn:li:schemaField:(${datasetUrn},${fieldPath})`;
}

/**
 * A description set, cleared or changed: of `urn`, which is the dataset or (`fieldPath` given) its column;
 * `dataset` is the dataset's URN either way, for the wording.
 */
function descriptionEvents(
  urn: string,
  fieldPath: string | null,
  dataset: string,
  before: string | null,
  after: string | null,
  modifyWeight: SemVerChange,
): ChangeEvent[] {
  if (before === after) return [];
  const operation: ChangeOperation = before === null ? 'ADD' : after === null ? 'REMOVE' : 'MODIFY';
  const text = (after ?? before) as string;
  const what =
    fieldPath === null ? `the description of ${dataset}` : `the description of column ${fieldPath} of ${dataset}`;
  const description =
    operation === 'ADD'
      ? `Set ${what} to '${text}'.`
      : operation === 'REMOVE'
        ? `Removed ${what} (it was '${text}').`
        : `Changed ${what} from '${before}' to '${after}'.`;
  return [
    {
      urn,
      category: 'DOCUMENTATION',
      operation,
      modifier: fieldPath,
      parameters: [['description', text]],
      description,
      semVer: operation === 'MODIFY' ? modifyWeight : 'MINOR',
    },
  ];
}

/** Tags added and removed, in tag URN order (DataHub compares the two lists sorted by URN). */
function tagEvents(
  urn: string,
  fieldPath: string | null,
  dataset: string,
  before: JsonObject | null,
  after: JsonObject | null,
): ChangeEvent[] {
  const had = tagUrns(before);
  const has = tagUrns(after);
  const all = [...new Set([...had, ...has])].sort();
  const events: ChangeEvent[] = [];
  for (const tag of all) {
    if (had.has(tag) === has.has(tag)) continue;
    const operation: ChangeOperation = has.has(tag) ? 'ADD' : 'REMOVE';
    const target = fieldPath === null ? dataset : `column ${fieldPath} of ${dataset}`;
    events.push({
      urn,
      category: 'TAG',
      operation,
      modifier: tag,
      // A column's tag names the column twice (fieldPath and parentUrn), as DataHub's does.
      parameters:
        fieldPath === null
          ? [
              ['tagUrn', tag],
              ['context', '{}'],
              ['sourceDetails', '{}'],
            ]
          : [
              ['fieldPath', fieldPath],
              ['parentUrn', urn],
              ['tagUrn', tag],
            ],
      description: operation === 'ADD' ? `Added tag ${tag} to ${target}.` : `Removed tag ${tag} from ${target}.`,
      semVer: 'MINOR',
    });
  }
  return events;
}

function tagUrns(globalTags: JsonObject | null): Set<string> {
  const urns = new Set<string>();
  for (const association of objects(globalTags, 'tags')) {
    const tag = str(association, 'tag');
    if (tag !== null) urns.add(tag);
  }
  return urns;
}

/** Links added, removed, or relabelled, in URL order. */
function linkEvents(urn: string, before: JsonObject | null, after: JsonObject | null): ChangeEvent[] {
  const had = linksByUrl(before);
  const has = linksByUrl(after);
  const events: ChangeEvent[] = [];
  for (const url of [...new Set([...had.keys(), ...has.keys()])].sort()) {
    const old = had.get(url);
    const now = has.get(url);
    if (old === now) continue;
    const operation: ChangeOperation = old === undefined ? 'ADD' : now === undefined ? 'REMOVE' : 'MODIFY';
    const description =
      operation === 'ADD'
        ? `Added link ${url} ('${now}') to ${urn}.`
        : operation === 'REMOVE'
          ? `Removed link ${url} ('${old}') from ${urn}.`
          : `Changed the label of link ${url} of ${urn} from '${old}' to '${now}'.`;
    events.push({
      urn,
      category: 'DOCUMENTATION',
      operation,
      modifier: url,
      // DataHub gives link events no parameters.
      parameters: null,
      description,
      semVer: operation === 'MODIFY' ? 'PATCH' : 'MINOR',
    });
  }
  return events;
}

function linksByUrl(memory: JsonObject | null): Map<string, string> {
  const links = new Map<string, string>();
  for (const element of objects(memory, 'elements')) {
    const url = str(element, 'url');
    if (url !== null && !links.has(url)) links.set(url, str(element, 'description') ?? '');
  }
  return links;
}

/** Column descriptions and column tags, column by column in fieldPath order. */
function columnEvents(urn: string, before: JsonObject | null, after: JsonObject | null): ChangeEvent[] {
  const had = columnsByPath(before);
  const has = columnsByPath(after);
  // Diffed in any order and only the changed columns sorted: a wide table's edit usually changes one.
  const changed: [fieldPath: string, events: ChangeEvent[]][] = [];
  for (const fieldPath of new Set([...had.keys(), ...has.keys()])) {
    const old = had.get(fieldPath) ?? null;
    const now = has.get(fieldPath) ?? null;
    const [oldText, newText] = [str(old, 'description'), str(now, 'description')];
    const [oldTags, newTags] = [obj(old, 'globalTags'), obj(now, 'globalTags')];
    // The common case, a column left as it was, costs two reads and no events built.
    if (oldText === newText && sameJson(oldTags, newTags)) continue;
    const column = schemaFieldUrn(urn, fieldPath);
    const events = [
      ...descriptionEvents(column, fieldPath, urn, oldText, newText, 'PATCH'),
      ...tagEvents(column, fieldPath, urn, oldTags, newTags),
    ];
    if (events.length > 0) changed.push([fieldPath, events]);
  }
  changed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return changed.flatMap(([, events]) => events);
}

function columnsByPath(editable: JsonObject | null): Map<string, JsonObject> {
  const columns = new Map<string, JsonObject>();
  for (const info of objects(editable, 'editableSchemaFieldInfo')) {
    const fieldPath = str(info, 'fieldPath');
    if (fieldPath !== null && !columns.has(fieldPath)) columns.set(fieldPath, info);
  }
  return columns;
}

/**
 * Whether two JSON values are equal: a change that writes the same value again is no change. A loop over
 * pairs still to compare, not recursion: any depth the log can hold compares without exhausting the stack.
 */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const pending: [JsonValue | undefined, JsonValue | undefined][] = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (x === undefined || y === undefined || x === null || y === null) {
      if ((x ?? null) !== (y ?? null)) return false;
      continue;
    }
    if (typeof x !== 'object' || typeof y !== 'object') return false;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let index = 0; index < x.length; index++) pending.push([x[index], y[index]]);
      continue;
    }
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pending.push([x[key], y[key]]);
    }
  }
  return true;
}
