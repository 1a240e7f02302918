// Whether a step of a column's edited description (editableSchemaMetadata) is exactly what a column edit
// makes of the value before it, and which edit: so compaction can keep the step as the edit, as a commit
// logs it. Pure: it never changes the values it is given, and answers an edit only after checking it.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';
import { withColumnDescription } from '../store/column-edit.ts';
import type { ColumnEdit } from '../store/log-record.ts';

/** A column edit that makes a step, and the fewest characters a patch of the same step can take. */
export interface EditBetween {
  edit: ColumnEdit;
  patchFloor: number;
}

// Around the new description, a patch of one column's entry spells out at least
// {"o":{"editableSchemaFieldInfo":{"a":1,"i":{"0":{"o":{"description":{"=": ... }}}}}}}}.
export const PATCH_AROUND_DESCRIPTION = 80;

/**
 * The column edit that turns `before` into `value`: withColumnDescription(before, edit) gives the same
 * JSON text, key order included; undefined when no edit does.
 */
export function columnEditBetween(before: JsonValue | undefined, value: JsonValue): EditBetween | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.editableSchemaFieldInfo)) return undefined;
  const after = value.editableSchemaFieldInfo;
  const list = isJsonObject(before) ? before.editableSchemaFieldInfo : undefined;
  const old = Array.isArray(list) ? list : [];
  // The entry an edit would have made: the first that is not the one at its place before (an edit keeps
  // every other entry where it was, and appends a column it did not find).
  const changed = after.find((entry, index) => index >= old.length || !sameText(entry, old[index] as JsonValue));
  if (!isJsonObject(changed)) return undefined;
  const { fieldPath, description } = changed;
  if (typeof fieldPath !== 'string' || typeof description !== 'string') return undefined;
  const edit = { fieldPath, description };
  // Checked, not assumed: the other entries, the other keys and their order must come out the same too.
  if (!sameText(withColumnDescription(before, edit), value)) return undefined;
  // An edit that dropped entries (not objects) shifts the others, and a patch of that may spell no description.
  const shifted = old.length > 0 && !old.every(isJsonObject);
  return { edit, patchFloor: shifted ? 0 : JSON.stringify(description).length + PATCH_AROUND_DESCRIPTION };
}

/**
 * Whether JSON.stringify gives the same text for both: equal values with their keys in the same order.
 * Shared parts (an edit keeps the entries it does not touch) compare at once. A loop, not recursion, as
 * sameJson in change-events.ts.
 */
function sameText(a: JsonValue, b: JsonValue): boolean {
  const pending: [JsonValue, JsonValue][] = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let index = 0; index < x.length; index++) pending.push([x[index] as JsonValue, y[index] as JsonValue]);
      continue;
    }
    const keys = Object.keys(x);
    const others = Object.keys(y);
    if (keys.length !== others.length) return false;
    for (const [index, key] of keys.entries()) {
      if (others[index] !== key) return false;
      pending.push([x[key] as JsonValue, y[key] as JsonValue]);
    }
  }
  return true;
}
