// The tracked aspects' values as compaction's history pass follows them through the log, with a logged
// column edit applied to its aspect in place and kept as the edit: no copy of a wide aspect, its text or a
// diff per edit. It gives what historyFields writes, the same as TrackedState's steps would; it writes nothing.

import { isJsonObject, type JsonObject, type JsonValue } from '../aspects/json.ts';
import { loggedValue } from '../store/column-edit.ts';
import {
  aspectKey,
  COLUMN_EDIT_ASPECT,
  isColumnEdit,
  type ColumnEdit,
  type LoggedChange,
} from '../store/log-record.ts';
import { isTracked, sameJson } from './change-events.ts';
import { PATCH_AROUND_DESCRIPTION } from './column-step.ts';
import { isPatched, patchedValue, type EditStep, type HistoryStepChange, type IsStateValue } from './value-patch.ts';

interface Tracked {
  value: JsonValue;
  // Whether this pass made the value's object and its editableSchemaFieldInfo array and never handed them
  // out: then an edit may change them in place (entries are replaced, never changed, as withColumnDescription does).
  owned: boolean;
  // Its JSON text's length, once known (kept up to date by the edits applied in place).
  length: number | undefined;
}

// JSON.stringify's characters around a column entry's key `description` added to it, and around a new entry.
const ADDED_DESCRIPTION = ',"description":'.length;
const NEW_ENTRY = '{"fieldPath":,"description":}'.length;
// Besides its path and description, a column edit's entry in `patches` takes these characters more than a
// patch's; a patch of one column's entry takes PATCH_AROUND_DESCRIPTION besides the description. Where the
// edit is the longer, historyFields works out whether a patch is shorter (see columnEditBetween).
const EDIT_AROUND = '{"fieldPath":,"description":}'.length + 5;

export class CompactionState {
  readonly #values = new Map<string, Tracked>();
  readonly #isStateValue: IsStateValue;

  constructor(isStateValue: IsStateValue) {
    this.#isStateValue = isStateValue;
  }

  /** The changes of one record (see allChanges) that change a tracked value, in order; then applies them. */
  step(changes: readonly LoggedChange[]): HistoryStepChange[] {
    const tracked = changes.filter(({ urn, aspect }) => isTracked(urn, aspect));
    // A record that changes an aspect twice keeps its steps as whole values or patches (historyFields
    // keeps a step whole when a later one of the same aspect is): only once-changed aspects take the edit path.
    const twice = tracked.length < 2 ? undefined : repeatedKeys(tracked);
    const found: HistoryStepChange[] = [];
    for (const change of tracked) {
      const key = aspectKey(change.urn, change.aspect);
      const entry = this.#values.get(key);
      if (isColumnEdit(change) && entry !== undefined && twice?.has(key) !== true) {
        const applied = this.#edit(entry, change.urn, change.columnEdit);
        if (applied === 'unchanged') continue;
        if (applied !== 'other') {
          found.push(applied);
          continue;
        }
      }
      const before = entry === undefined ? undefined : handedOut(entry);
      const value = isPatched(change) ? patchedValue(change, before) : loggedValue(change, () => before);
      if (sameJson(before, value)) continue;
      found.push({ urn: change.urn, aspect: change.aspect, value, before: before ?? undefined });
      this.#values.set(key, { value, owned: false, length: undefined });
    }
    return found;
  }

  /**
   * Applies `edit` to `entry` in place and gives its step, as withColumnDescription and historyFields would
   * make it; 'other' where this cannot (an aspect not as an edit leaves it, or a step a patch could keep shorter).
   */
  #edit(entry: Tracked, urn: string, edit: ColumnEdit): EditStep | 'unchanged' | 'other' {
    const { fieldPath, description } = edit;
    const list = entry.owned
      ? ((entry.value as JsonObject).editableSchemaFieldInfo as JsonObject[])
      : cleanList(entry.value);
    if (list === undefined) return 'other';
    const index = list.findIndex((info) => info.fieldPath === fieldPath);
    const info = list[index];
    if (info !== undefined && Object.hasOwn(info, 'description') && info.description === description)
      return 'unchanged';
    const descriptionLength = JSON.stringify(description).length;
    const pathLength = JSON.stringify(fieldPath).length;
    if (EDIT_AROUND + pathLength + descriptionLength > descriptionLength + PATCH_AROUND_DESCRIPTION) return 'other';
    let length = entry.length ?? JSON.stringify(entry.value).length;
    const value = entry.owned
      ? (entry.value as JsonObject)
      : { ...(entry.value as JsonObject), editableSchemaFieldInfo: [...list] };
    const entries = value.editableSchemaFieldInfo as JsonObject[];
    if (info === undefined) {
      length += NEW_ENTRY + pathLength + descriptionLength + (entries.length > 0 ? 1 : 0);
      entries.push({ fieldPath, description });
    } else {
      const had = Object.hasOwn(info, 'description');
      length += descriptionLength - (had ? JSON.stringify(info.description).length : -ADDED_DESCRIPTION);
      entries[index] = { ...info, description };
    }
    Object.assign(entry, { value, owned: true, length });
    const step = { urn, aspect: COLUMN_EDIT_ASPECT, columnEdit: { fieldPath, description } } as const;
    // The state's value is kept whole, and so no longer changed in place.
    const whole = this.#isStateValue(step, length, () => JSON.stringify(value)) ? handedOut(entry) : undefined;
    return { ...step, whole };
  }
}

/** A tracked value given to someone else: no longer changed in place. */
function handedOut(entry: Tracked): JsonValue {
  entry.owned = false;
  return entry.value;
}

// The value's editableSchemaFieldInfo when an edit keeps every entry where it is (all of them objects).
function cleanList(value: JsonValue): JsonObject[] | undefined {
  if (!isJsonObject(value)) return undefined;
  const list = value.editableSchemaFieldInfo;
  return Array.isArray(list) && list.every(isJsonObject) ? (list as JsonObject[]) : undefined;
}

function repeatedKeys(changes: readonly LoggedChange[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { urn, aspect } of changes) {
    const key = aspectKey(urn, aspect);
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  return twice;
}
