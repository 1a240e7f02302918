// Reads the records of a DataHub file from its text in pieces: a JSON array (element by element), one
// JSON object, or JSON lines. No piece, line or record is ever joined to the whole text, so a file
// larger than V8's string cap reads like any other. It parses JSON; it does not interpret records.

import { badRequest } from '../errors.ts';
import type { JsonValue } from '../aspects/json.ts';
import { JsonSplitter, NotJson } from './json-splitter.ts';

/** One record of the file, or why it could not be read. `record` is 1-based: the array index + 1, or the line number. */
export interface RawRecord {
  record: number;
  value: JsonValue;
  error?: string;
}

/** The file's text from its start, in pieces (any size, split anywhere); may be called again to read it again. */
export type TextPieces = () => Iterable<string>;

export const EXPECTED_FILE = 'expected a JSON array of records, one JSON object, or JSON lines (one record per line)';

/** What recordsOf() yields before reading the text again as JSON lines: drop the records yielded so far. */
export const RESTART = Symbol('read again as JSON lines');

/**
 * Calls `onRecord` for every record in file order. What is read as a whole array first and turns out
 * not to be one is read again as JSON lines (as JSON.parse of the whole text failing would have it):
 * `onRestart` is called first, and the records handed on so far are to be dropped. Throws BAD_REQUEST
 * when the text is neither JSON nor JSON lines; a bad line of JSON lines is a record with an `error`.
 */
export function readRecords(
  pieces: TextPieces,
  source: string,
  onRecord: (record: RawRecord) => void,
  onRestart: () => void,
): void {
  for (const item of recordsOf(pieces, source)) {
    if (item === RESTART) onRestart();
    else onRecord(item);
  }
}

/**
 * As readRecords, one record at a time as the caller asks: a caller may stop between two records (and
 * await) without the text being read further. Yields RESTART where readRecords calls `onRestart`.
 */
export function* recordsOf(pieces: TextPieces, source: string): Generator<RawRecord | typeof RESTART> {
  const first = firstCharacter(pieces);
  if (first !== '[' && first !== '{') {
    const found = first === undefined ? 'the file is empty' : `it starts with ${JSON.stringify(first)}`;
    throw badRequest(`Cannot read ${source}: ${found}; ${EXPECTED_FILE}`);
  }
  const unreadable = (why: string) =>
    badRequest(`Cannot read ${source}: it is not valid JSON (${why}) nor JSON lines; ${EXPECTED_FILE}`);

  if (first === '[') {
    let count = 0;
    let notAnArray: string;
    try {
      const splitter = new JsonSplitter('array');
      // One piece's records at a time: a piece is bounded (file-text.ts), so is what waits here.
      const found: RawRecord[] = [];
      for (const piece of pieces()) {
        splitter.push(piece, (text) => found.push({ record: ++count, value: parseValue(text, `record ${count + 1}`) }));
        yield* found.splice(0);
      }
      splitter.end();
      return;
    } catch (error) {
      if (!(error instanceof NotJson)) throw error;
      notAnArray = error.message;
    }
    yield RESTART;
    if ((yield* jsonLines(pieces, source)) !== null) throw unreadable(notAnArray);
    return;
  }
  // An object: JSON lines, or one object over one or many lines. Lines are tried first: they need only
  // a line's text at a time; a first line that is not JSON means one object spread over lines.
  const firstLine = yield* jsonLines(pieces, source);
  if (firstLine === null) return;
  let value: JsonValue = null;
  try {
    const splitter = new JsonSplitter('value');
    for (const piece of pieces()) splitter.push(piece, (text) => (value = parseValue(text, 'the object')));
    splitter.end();
  } catch (error) {
    if (!(error instanceof NotJson)) throw error;
    throw unreadable(error.message);
  }
  yield { record: 1, value };
}

/**
 * Reads JSON lines, one record per non-blank line. Returns null when done, or, having yielded nothing,
 * why the first non-blank line is not JSON (then the text is no JSON lines at all).
 */
function* jsonLines(pieces: TextPieces, source: string): Generator<RawRecord, string | null> {
  let lineNumber = 0;
  let records = 0;
  // The first record waits for a second line: alone in the file, it is the file's one JSON value, record 1.
  let held: RawRecord | null = null;
  for (const line of linesOf(pieces)) {
    lineNumber++;
    const text = line.trim();
    if (text === '') continue;
    let record: RawRecord;
    try {
      record = { record: lineNumber, value: JSON.parse(text) as JsonValue };
    } catch (error) {
      if (records === 0) return (error as Error).message;
      record = {
        record: lineNumber,
        value: null,
        error: `${source}:${lineNumber}: not valid JSON (${(error as Error).message}); expected one JSON record per line`,
      };
    }
    records++;
    if (records === 1) held = record;
    else {
      if (held !== null) yield held;
      held = null;
      yield record;
    }
  }
  if (held !== null) yield { ...held, record: 1 };
  return null;
}

/** Each line of the text (split at "\n", the last one without it). */
function* linesOf(pieces: TextPieces): Generator<string> {
  let partial: string[] = [];
  for (const piece of pieces()) {
    let start = 0;
    for (let stop = piece.indexOf('\n'); stop !== -1; start = stop + 1, stop = piece.indexOf('\n', start)) {
      const tail = piece.slice(start, stop);
      const line = partial.length === 0 ? tail : partial.join('') + tail;
      partial = [];
      yield line;
    }
    if (start < piece.length) partial.push(piece.slice(start));
  }
  yield partial.join('');
}

function firstCharacter(pieces: TextPieces): string | undefined {
  for (const piece of pieces()) {
    const at = piece.search(/\S/);
    if (at !== -1) return piece[at];
  }
  return undefined;
}

function parseValue(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new NotJson(`${what}: ${(error as Error).message}`);
  }
}
