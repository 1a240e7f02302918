// How a history record written by compaction keeps a tracked value: as what changed from the value before
// it (a column edit, or a patch: one column's entry of a wide editableSchemaMetadata, not the whole aspect),
// when that is shorter and rebuilds the value exactly. Pure: no log, no store; it never changes its values.

import { isJsonObject, type JsonObject, type JsonValue } from '../aspects/json.ts';
import { MinihubError } from '../errors.ts';
import {
  aspectKey,
  COLUMN_EDIT_ASPECT,
  type AspectChange,
  type ColumnEdit,
  type LoggedChange,
  type LogRecord,
} from '../store/log-record.ts';
import { columnEditBetween } from './column-step.ts';

/**
 * A change whose `value` is a patch of the value before it (see historyEntry), as read from a compacted
 * record's `patches`; in the log the field says so, not the entry.
 */
export interface PatchedChange extends AspectChange {
  patch: true;
}

// A patch: a new value ("="), an object's changed keys ("o", each a patch) and removed ones ("d"), or an
// array's new length ("a") and changed items ("i", by index, each a patch).
type Patch = { '=': JsonValue } | { o: Record<string, Patch>; d?: string[] } | { a: number; i: Record<string, Patch> };

/** `change` as a history entry: a patch of `before` when that is shorter and exact, else as it is. */
export function historyEntry(change: AspectChange, before: JsonValue | undefined): AspectChange | PatchedChange {
  const { urn, aspect, value } = change;
  const patched = patchOf(value, before);
  if (patched === undefined) return { urn, aspect, value };
  return { urn, aspect, value: patched.patch as unknown as JsonValue, patch: true };
}

// A patch of `before` giving `value` when that is shorter and exact, with `value`'s text.
function patchOf(
  value: JsonValue,
  before: JsonValue | undefined,
  text = JSON.stringify(value),
): { patch: Patch; text: string; length: number } | undefined {
  if (before === undefined || before === null) return undefined;
  const patch = diff(before, value);
  if (patch === undefined) return undefined;
  const patchText = JSON.stringify(patch) as string;
  // Checked, not assumed: the patch must give back the same text, key order included.
  if (patchText.length + 14 >= text.length || JSON.stringify(applyPatch(before, patch)) !== text) return undefined;
  return { patch, text, length: patchText.length };
}

/**
 * `change` as the smallest `patches` entry that rebuilds its value exactly from the one before: the
 * column edit that makes it (as a commit logs it) or a patch; undefined when neither is shorter than the
 * value. With the value's text.
 */
function shorterEntry(change: HistoryChange): { entry: LoggedChange; text: string } | undefined {
  const { urn, aspect, value, before } = change;
  const text = JSON.stringify(value);
  const between = aspect === COLUMN_EDIT_ASPECT ? columnEditBetween(before, value) : undefined;
  // Set against the patch's `"value":`, an edit's `"columnEdit":` takes five characters more.
  const editLength = between === undefined ? Infinity : JSON.stringify(between.edit).length + 5;
  // No patch is worked out where none could be shorter than the edit (most edits: a short column path).
  const patched = between !== undefined && editLength <= between.patchFloor ? undefined : patchOf(value, before, text);
  if (between !== undefined && editLength < (patched?.length ?? text.length)) {
    return { entry: { urn, aspect: COLUMN_EDIT_ASPECT, columnEdit: between.edit }, text };
  }
  if (patched === undefined) return undefined;
  return { entry: { urn, aspect, value: patched.patch as unknown as JsonValue }, text };
}

/** A tracked change as compaction's history keeps it: the new value and the one it replaced. */
export interface HistoryChange extends AspectChange {
  before: JsonValue | undefined;
}

/**
 * A column edit that changed its aspect, as history keeps it: the edit itself, or (`whole`) the value it
 * left, when that is the state's value, which history keeps whole (see historyFields), given by CompactionState.
 */
export interface EditStep {
  urn: string;
  aspect: typeof COLUMN_EDIT_ASPECT;
  columnEdit: ColumnEdit;
  whole: JsonValue | undefined;
}

/** What a record changed, for historyFields: whole values (with the value before) and column edits. */
export type HistoryStepChange = HistoryChange | EditStep;

/**
 * Whether a change's value, whose JSON text is `length` characters long (`text()`), is its aspect's value
 * in the state a compaction writes after the history (see historyFields). A value only its length tells
 * apart is never written out.
 */
export type IsStateValue = (change: { urn: string; aspect: string }, length: number, text: () => string) => boolean;

/**
 * The history fields of one compacted record for `changes` (in the order they were made): whole values in
 * `history`, column edits and patches in `patches`. A version that reads only `history` (every version before patches)
 * then sees fewer steps, never a patch as a value; so the value a step leaves in the state (`isStateValue`)
 * is kept whole, or that version would show a step at the compaction's time for the rest. Patches are read
 * after `history`, so none is written before a whole value of the same aspect in the record. A column edit
 * given as an EditStep has been through the same choice already (CompactionState), its aspect changed once.
 */
export function historyFields(
  changes: readonly HistoryStepChange[],
  isStateValue: IsStateValue,
): Pick<LogRecord, 'history' | 'patches'> {
  const history: AspectChange[] = [];
  const patches: LoggedChange[] = [];
  const wholeLater = new Set<string>();
  for (let index = changes.length - 1; index >= 0; index--) {
    const change = changes[index] as HistoryStepChange;
    const { urn, aspect } = change;
    const key = aspectKey(urn, aspect);
    if ('columnEdit' in change) {
      if (change.whole === undefined) patches.push({ urn, aspect: change.aspect, columnEdit: change.columnEdit });
      else {
        history.push({ urn, aspect, value: change.whole });
        wholeLater.add(key);
      }
      continue;
    }
    const shorter = wholeLater.has(key) ? undefined : shorterEntry(change);
    const text = shorter?.text as string;
    if (shorter !== undefined && !isStateValue(change, text.length, () => text)) patches.push(shorter.entry);
    else {
      history.push({ urn, aspect, value: change.value });
      wholeLater.add(key);
    }
  }
  return {
    ...(history.length > 0 && { history: history.reverse() }),
    ...(patches.length > 0 && { patches: patches.reverse() }),
  };
}

/** A record's `patches` entry as read: marked as a patch. */
export function asPatched(change: AspectChange): PatchedChange {
  return { ...change, patch: true };
}

/** Whether `change` holds a patch rather than a value. */
export function isPatched(change: LoggedChange): change is PatchedChange {
  return (change as Partial<PatchedChange>).patch === true;
}

/** The value a patched change stands for, given the value before it. */
export function patchedValue(change: PatchedChange, before: JsonValue | undefined): JsonValue {
  // Only a log edited by hand or damaged gets here: compaction writes a patch only after the value it patches.
  if (before === undefined || before === null) {
    throw new MinihubError(
      'SERVER_ERROR',
      `the change history in the log cannot be read: it keeps ${change.aspect} of ${change.urn} as a patch with no value before it to apply it to (the catalogue itself is unaffected)`,
    );
  }
  return applyPatch(before, change.value as unknown as Patch);
}

function diff(before: JsonValue, after: JsonValue): Patch | undefined {
  if (before === after) return undefined;
  if (Array.isArray(before) && Array.isArray(after)) {
    const items: Record<string, Patch> = {};
    let changed = before.length !== after.length;
    after.forEach((item, index) => {
      const patch = index < before.length ? diff(before[index] as JsonValue, item) : { '=': item };
      if (patch !== undefined) {
        items[index] = patch;
        changed = true;
      }
    });
    return changed ? { a: after.length, i: items } : undefined;
  }
  if (isJsonObject(before) && isJsonObject(after)) {
    const keys: Record<string, Patch> = {};
    let changed = false;
    for (const [key, value] of Object.entries(after)) {
      const patch = Object.hasOwn(before, key) ? diff(before[key] as JsonValue, value) : { '=': value };
      if (patch !== undefined) {
        keys[key] = patch;
        changed = true;
      }
    }
    const removed = Object.keys(before).filter((key) => !Object.hasOwn(after, key));
    if (!changed && removed.length === 0) return undefined;
    return removed.length === 0 ? { o: keys } : { o: keys, d: removed };
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  return { '=': after };
}

function applyPatch(before: JsonValue, patch: Patch): JsonValue {
  if ('=' in patch) return patch['='];
  if ('a' in patch) {
    const items = Array.isArray(before) ? before.slice(0, patch.a) : [];
    for (const [index, item] of Object.entries(patch.i)) {
      items[Number(index)] = applyPatch(items[Number(index)] as JsonValue, item);
    }
    return items;
  }
  const result: JsonObject = { ...(isJsonObject(before) ? before : {}) };
  for (const key of patch.d ?? []) delete result[key];
  for (const [key, item] of Object.entries(patch.o)) result[key] = applyPatch(result[key] as JsonValue, item);
  return result;
}
