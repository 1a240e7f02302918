// The shape of one line of the append-only log, and its validation when read back.
// Pure: no file access; the file log decides what to do with a line that fails here.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';

/** One aspect upsert (or removal, when `value` is null) of one entity: the unit every log record lists. */
export interface AspectChange {
  urn: string;
  aspect: string;
  value: JsonValue;
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
   * read by the history only, never replayed into the state.
   */
  history?: AspectChange[];
}

/** Parses one log line; returns the record or a sentence saying what is wrong with it. */
export function parseLogRecord(line: string): LogRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  if (!isJsonObject(value)) return 'expected a JSON object';
  const { seq, time, actor, op, changes, history } = value;
  if (typeof seq !== 'number' || !Number.isInteger(seq)) return 'expected "seq" to be an integer';
  if (typeof time !== 'number') return 'expected "time" to be a number';
  if (typeof actor !== 'string') return 'expected "actor" to be a string';
  if (typeof op !== 'string') return 'expected "op" to be a string';
  if (!Array.isArray(changes)) return 'expected "changes" to be an array';
  const bad = badChange(changes, 'changes');
  if (bad !== null) return bad;
  if (history !== undefined) {
    if (!Array.isArray(history)) return 'expected "history" to be an array';
    const badHistory = badChange(history, 'history');
    if (badHistory !== null) return badHistory;
  }
  return value as unknown as LogRecord;
}

function badChange(changes: unknown[], field: string): string | null {
  for (const [index, change] of changes.entries()) {
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
