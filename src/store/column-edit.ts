// A column's edited description as one small log record: in memory the change carries the whole new
// editableSchemaMetadata, in the log only the column and its description, which replay (and the history)
// apply to the aspect as it stands at that point of the log. Pure: no store, no files.

import { isJsonObject, type JsonObject, type JsonValue } from '../aspects/json.ts';
import { carryPositions, entryIndex } from './field-positions.ts';
import {
  COLUMN_EDIT_ASPECT,
  isColumnEdit,
  type AspectChange,
  type ColumnEdit,
  type LoggedChange,
  type LoggedColumnEdit,
} from './log-record.ts';

/**
 * editableSchemaMetadata with the description of column `fieldPath` set, every other entry and the
 * entry's own other fields (its tags) kept; a column without an entry gets one at the end. Commit and
 * replay both build the aspect with this, from the value before, so both give the same aspect.
 */
export function withColumnDescription(
  before: JsonValue | undefined,
  { fieldPath, description }: ColumnEdit,
): JsonObject {
  const previous = isJsonObject(before) ? before : {};
  const list = previous.editableSchemaFieldInfo;
  // Where the list's positions are known, one entry is read and the list copied as it is.
  const index = Array.isArray(list) ? entryIndex(list, fieldPath) : undefined;
  if (index === -1) {
    const updated = [...(list as JsonValue[]), { fieldPath, description }];
    carryPositions(list as JsonValue[], updated, updated.length - 1);
    return { ...previous, editableSchemaFieldInfo: updated };
  }
  if (index !== undefined) {
    const updated = (list as JsonValue[]).slice();
    updated[index] = { ...(updated[index] as JsonObject), description };
    carryPositions(list as JsonValue[], updated, index);
    return { ...previous, editableSchemaFieldInfo: updated };
  }
  // One pass over the entries (each a cache miss on a large catalogue): entries that are not objects are
  // dropped, the first of the column's gets the description.
  const updated: JsonObject[] = [];
  let found = false;
  for (const info of Array.isArray(list) ? list : []) {
    if (!isJsonObject(info)) continue;
    if (!found && info.fieldPath === fieldPath) {
      updated.push({ ...info, description });
      found = true;
    } else updated.push(info);
  }
  if (!found) updated.push({ fieldPath, description });
  return { ...previous, editableSchemaFieldInfo: updated };
}

/**
 * The change a column edit commits: the whole new aspect for the catalogue, the search index and the
 * history, and, through toJSON (JSON.stringify is how the log writes its records), only the edit in the
 * log: a few hundred bytes where the aspect of a wide table takes kilobytes.
 */
export class ColumnEditChange implements AspectChange {
  readonly urn: string;
  readonly aspect = COLUMN_EDIT_ASPECT;
  readonly value: JsonObject;
  readonly #edit: ColumnEdit;

  constructor(urn: string, edit: ColumnEdit, before: JsonValue | undefined) {
    this.urn = urn;
    this.#edit = { fieldPath: edit.fieldPath, description: edit.description };
    this.value = withColumnDescription(before, this.#edit);
  }

  toJSON(): LoggedColumnEdit {
    return { urn: this.urn, aspect: this.aspect, columnEdit: this.#edit };
  }
}

/** The value a change read from the log leaves: its own, or its edit applied to `before()`, the aspect at that point of the log. */
export function loggedValue(change: LoggedChange, before: () => JsonValue | undefined): JsonValue {
  return isColumnEdit(change) ? withColumnDescription(before(), change.columnEdit) : change.value;
}
