// The shape of one line of the append-only log, and its validation when read back.
// Pure: no file access; the file log decides what to do with a line that fails here.
// A change holds a whole value, or (a column's edited description) only the edit: see column-edit.ts.
// Compaction's history keeps its steps in `history` (whole values) and `patches` (patches and edits).
//
// `seq` rises along the log, not always by one: a compaction numbers its records from 1, and commits made
// while it ran (copied after them) were numbered above any record it could write, leaving a gap. Only
// replay's last number is read (the next commit takes the one after it); nothing looks a record up by it.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';

/** One aspect upsert (or removal, when `value` is null) of one entity: the unit every log record lists. */
export interface AspectChange {
  urn: string;
  aspect: string;
  value: JsonValue;
}

/** The key of one entity's aspect in a map: a NUL cannot occur in a URN. */
export function aspectKey(urn: string, aspect: string): string {
  return `${urn}\u0000${aspect}`;
}

/** One accepted change: an ingest batch or one mutation, with when and by whom. */
export interface LogRecord {
  seq: number;
  time: number;
  actor: string;
  op: string;
  changes: AspectChange[];
  /**
   * Earlier values of tracked aspects that compaction keeps for the change history (src/history/):
   * read by the history only, never replayed into the state. Whole values, as every version reads them.
   */
  history?: AspectChange[];
  /**
   * Like `history`, each value a patch of the aspect's value before it (src/history/value-patch.ts) or a
   * column edit (applied to it, as replay applies one), read after `history`. A field of its own so a
   * version that only knows `history` sees fewer steps, never a patch or an edit taken for a value.
   */
  patches?: LoggedChange[];
}

/** The actor of the records the store writes on its own (a compaction, a reset to the seeds): DataHub's root user. */
export const SYSTEM_ACTOR = 'urn:li:corpuser:datahub';

export const COLUMN_EDIT_ASPECT = 'editableSchemaMetadata';

/** What the log keeps of a column's edited description. */
export interface ColumnEdit {
  fieldPath: string;
  description: string;
}

/** A column edit as a log line holds it: no value, the edit in its place, applied to the aspect before it. */
export interface LoggedColumnEdit {
  urn: string;
  aspect: typeof COLUMN_EDIT_ASPECT;
  columnEdit: ColumnEdit;
}

/** A change as read back from the log: a whole value, or a column edit. */
export type LoggedChange = AspectChange | LoggedColumnEdit;

/** A record as read back from the log (a record written from memory is one too). */
export interface LoggedRecord extends Omit<LogRecord, 'changes'> {
  changes: LoggedChange[];
}

/** A record, or the line JSON.stringify would write for one (compaction joins several entities' state so). */
export type RecordOrLine = LogRecord | string;

/** The log line of a record or of a line already written out (without its newline). */
export function lineOf(record: RecordOrLine): string {
  return typeof record === 'string' ? record : JSON.stringify(record);
}

/**
 * The line JSON.stringify writes for the record `envelope` with the changes whose JSON texts, joined by commas,
 * are `changes`: so a writer can join changes it stringified one by one without stringifying them again.
 */
export function joinedLine(envelope: Omit<LogRecord, 'changes' | 'history' | 'patches'>, changes: string): string {
  return `${JSON.stringify({ ...envelope, changes: [] }).slice(0, -2)}${changes}]}`;
}

/** Whether a change read from the log is a column edit rather than a whole value. */
export function isColumnEdit(change: LoggedChange): change is LoggedColumnEdit {
  return 'columnEdit' in change;
}

/** Parses one log line; returns the record or a sentence saying what is wrong with it. */
export function parseLogRecord(line: string): LoggedRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  if (!isJsonObject(value)) return 'expected a JSON object';
  const { seq, time, actor, op, changes, history, patches } = value;
  if (typeof seq !== 'number' || !Number.isInteger(seq)) return 'expected "seq" to be an integer';
  if (typeof time !== 'number') return 'expected "time" to be a number';
  if (typeof actor !== 'string') return 'expected "actor" to be a string';
  if (typeof op !== 'string') return 'expected "op" to be a string';
  if (!Array.isArray(changes)) return 'expected "changes" to be an array';
  const bad = badChange(changes, 'changes') ?? badList(history, 'history') ?? badList(patches, 'patches');
  if (bad !== null) return bad;
  return value as unknown as LoggedRecord;
}

// An optional list of changes beside `changes` (compaction's history).
function badList(list: unknown, field: string): string | null {
  if (list === undefined) return null;
  if (!Array.isArray(list)) return `expected "${field}" to be an array`;
  return badChange(list, field);
}

function badChange(changes: unknown[], field: string): string | null {
  for (const [index, change] of changes.entries()) {
    // The changes a commit makes hold edits, and so may compaction's `patches`; `history` holds values.
    if (field !== 'history' && isJsonObject(change) && typeof change.urn === 'string' && 'columnEdit' in change) {
      const edit = change.columnEdit;
      if (
        change.aspect === COLUMN_EDIT_ASPECT &&
        !('value' in change) &&
        isJsonObject(edit) &&
        typeof edit.fieldPath === 'string' &&
        typeof edit.description === 'string'
      )
        continue;
      return `expected ${field}[${index}] to be {urn, aspect: "${COLUMN_EDIT_ASPECT}", columnEdit: {fieldPath, description}}`;
    }
    if (
      !isJsonObject(change) ||
      typeof change.urn !== 'string' ||
      typeof change.aspect !== 'string' ||
      !('value' in change)
    ) {
      return `expected ${field}[${index}] to be {urn, aspect, value}`;
    }
  }
  return null;
}
