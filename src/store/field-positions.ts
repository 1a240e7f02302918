// Where each column's entry sits in a stored list of column entries (a schema's `fields`, an
// editableSchemaMetadata's `editableSchemaFieldInfo`), remembered per list, so a column edit reads one entry
// instead of walking them all. Pure. Relies on what the catalogue promises: a stored list is never changed in place.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';

/**
 * fieldPath -> index of its entry. Shared by a list and every copy made from it by replacing or appending
 * an entry, and only added to: a position may name an entry a list does not have (one appended to a copy
 * only), so every answer is checked against the entry it names.
 */
type Positions = Map<string, number>;

// Kept on the list itself, under a symbol: JSON.stringify, slice and spreads never see it, and reading it
// is one property load where a WeakMap of every stored list cost more than the walk it saved.
const POSITIONS = Symbol('positions');
type Remembering = readonly JsonValue[] & { [POSITIONS]?: Positions | null };

function remembered(list: readonly JsonValue[]): Positions | null | undefined {
  return (list as Remembering)[POSITIONS];
}

function remember(list: readonly JsonValue[], positions: Positions | null): void {
  // A frozen list (one shared by many values) is walked each time instead.
  if (Object.isExtensible(list)) (list as Remembering)[POSITIONS] = positions;
}

// Shorter lists are walked: a map for them costs more than the walk it saves.
const MIN_ENTRIES = 8;

/**
 * The index of the first entry of `list` whose fieldPath is `fieldPath`, or -1; undefined where the list
 * has an entry that is not an object with a string fieldPath, or a column twice (the caller walks it itself).
 */
export function entryIndex(list: readonly JsonValue[], fieldPath: string): number | undefined {
  if (list.length < MIN_ENTRIES) return walk(list, fieldPath);
  let positions = remembered(list);
  if (positions === undefined) {
    positions = positionsOf(list);
    remember(list, positions);
  }
  if (positions === null) return undefined;
  const index = positions.get(fieldPath);
  if (index === undefined) return -1;
  const entry = list[index];
  // Checked all the same (it costs one read): a list reordered in place is walked instead.
  return isJsonObject(entry) && entry.fieldPath === fieldPath ? index : walk(list, fieldPath);
}

/** Whether `list` holds an object whose fieldPath is `fieldPath`; entries of any other shape are passed over. */
export function hasEntry(list: readonly JsonValue[], fieldPath: string): boolean {
  const index = entryIndex(list, fieldPath);
  if (index !== undefined) return index >= 0;
  return list.some((entry) => isJsonObject(entry) && entry.fieldPath === fieldPath);
}

/**
 * Tells the positions of `list` to `copy`, a copy of it with the entry at `index` replaced by one of the
 * same fieldPath, or (index === list.length) with one entry of a new fieldPath appended.
 */
export function carryPositions(list: readonly JsonValue[], copy: readonly JsonValue[], index: number): void {
  const positions = remembered(list);
  if (positions === undefined || positions === null) return;
  if (index < list.length) {
    remember(copy, positions);
    return;
  }
  const entry = copy[index];
  if (!isJsonObject(entry) || typeof entry.fieldPath !== 'string') return;
  // Added to the same map rather than a copy of it (a copy cost a column edit about 0.5 µs on a wide
  // table): `list`, asked for this column, finds no entry at that index and walks itself.
  remember(copy, positions.set(entry.fieldPath, index));
}

// Positions only for a list of column entries each of its own column: a list holding a column twice is walked.
function positionsOf(list: readonly JsonValue[]): Positions | null {
  const positions = new Map<string, number>();
  for (let index = 0; index < list.length; index++) {
    const entry = list[index];
    if (!isJsonObject(entry) || typeof entry.fieldPath !== 'string' || positions.has(entry.fieldPath)) return null;
    positions.set(entry.fieldPath, index);
  }
  return positions;
}

// The index, -1, or undefined as entryIndex answers them, by reading every entry.
function walk(list: readonly JsonValue[], fieldPath: string): number | undefined {
  let found = -1;
  for (let index = 0; index < list.length; index++) {
    const entry = list[index];
    if (!isJsonObject(entry) || typeof entry.fieldPath !== 'string') return undefined;
    if (found === -1 && entry.fieldPath === fieldPath) found = index;
  }
  return found;
}
