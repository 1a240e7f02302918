// Whether a step of a column's edited description (editableSchemaMetadata) is exactly what a column edit
// makes of the value before it, and which edit: so compaction can keep the step as the edit, as a commit
// logs it. Pure: it never changes the values it is given, and answers an edit only after checking it.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';
import { withColumnDescription } from '../store/column-edit.ts';
import type { ColumnEdit } from '../store/log-record.ts';

/**
 * The column edit that turns `before` into `value` (whose JSON text is `text`): withColumnDescription(before,
 * edit) gives that text exactly, key order included; undefined when no edit does.
 */
export function columnEditBetween(
  before: JsonValue | undefined,
  value: JsonValue,
  text: string,
): ColumnEdit | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.editableSchemaFieldInfo)) return undefined;
  const after = value.editableSchemaFieldInfo;
  const list = isJsonObject(before) ? before.editableSchemaFieldInfo : undefined;
  const old = Array.isArray(list) ? list : [];
  // The entry an edit would have made: the first that is not the one at its place before (an edit keeps
  // every other entry where it was, and appends a column it did not find).
  const changed = after.find(
    (entry, index) =>
      index >= old.length || (entry !== old[index] && JSON.stringify(entry) !== JSON.stringify(old[index])),
  );
  if (!isJsonObject(changed)) return undefined;
  const { fieldPath, description } = changed;
  if (typeof fieldPath !== 'string' || typeof description !== 'string') return undefined;
  const edit = { fieldPath, description };
  // Checked, not assumed: the other entries, the other keys and their order must come out the same too.
  return JSON.stringify(withColumnDescription(before, edit)) === text ? edit : undefined;
}
