// The catalogue a log replays to, as places in the log rather than values: for every live aspect, the
// line and change that last wrote it whole (and the column edits logged since), in the catalogue's order.
// Lets `export` and `compact` stream a log of any size in bounded memory (two passes over the file).
// It reads the log; it never writes it.

import type { JsonValue } from '../aspects/json.ts';
import type { LogFileSystem } from './log-fs.ts';
import { withColumnDescription } from './column-edit.ts';
import { putAspect, urnsOfType } from './entity-aspects.ts';
import { readRecords, type ReadRecords } from './log-lines.ts';
import { isColumnEdit, parseLogRecord, type LoggedChange, type LoggedRecord } from './log-record.ts';

// A place: line number times this, plus the change's index in the line (a line holds far fewer changes).
const PER_LINE = 2 ** 24;
// Parsed lines kept for the second pass: an entity's aspects, and its neighbours', mostly share a line
// (see test/bench/NOTES.md).
const CACHED_LINES = 4;
// No whole value: the aspect was absent before its first column edit.
const NO_VALUE = -1;

/**
 * An aspect whose last writes are column edits (column-edit.ts): the place of its last whole value and
 * each edited column's last description, in the order of the columns' first edits. Applied in that order
 * they give what the edits one by one give (a column keeps the place its first edit gave it), so the
 * memory is the edited descriptions of the state, whatever the number of edits in the log.
 */
interface Edited {
  base: number;
  descriptions: Map<string, string>;
}

type Place = number | Edited;

// Where a place's whole value is read from.
const wholeAt = (place: Place): number => (typeof place === 'number' ? place : place.base);

export class LogIndex {
  readonly #fs: LogFileSystem;
  readonly #path: string;
  // urn -> aspect -> place, in the order Catalogue keeps them (a removed entity re-created goes last).
  readonly #entities = new Map<string, Map<string, Place>>();
  // Where each line starts and its length in bytes.
  #starts: number[] = [];
  #lengths: number[] = [];
  readonly #cache = new Map<number, LoggedRecord>();
  /** What reading the log found: where its whole lines end, its torn tail, its records (set by read()). */
  read!: ReadRecords;

  private constructor(fs: LogFileSystem, path: string) {
    this.#fs = fs;
    this.#path = path;
  }

  /**
   * Reads the log at `path` once (its first `end` bytes when given: a running store's log as it stood),
   * checking every line as replay does (BadLine for the first bad one).
   */
  static async read(fs: LogFileSystem, path: string, end?: number): Promise<LogIndex> {
    const index = new LogIndex(fs, path);
    const chunks = fs.readChunks(path, end === undefined ? undefined : { end });
    index.read = await readRecords(chunks, (record, line, at) => index.#add(record, line, at));
    return index;
  }

  /** Every entity's URN, in the catalogue's order. */
  urns(): Iterable<string> {
    return this.#entities.keys();
  }

  /** The URNs of one entity type (`dataset`, `dataHubAccessToken`...), as Catalogue.urnsOfType gives them. */
  urnsOfType(entityType: string): Iterable<string> {
    return urnsOfType(this.#entities.keys(), entityType);
  }

  /** Every entity with its aspects' values, in the catalogue's order, each read from the log when reached. */
  async *entities(): AsyncGenerator<[string, Map<string, JsonValue>]> {
    for (const [urn, places] of this.#entities) {
      const aspects = new Map<string, JsonValue>();
      for (const [aspect, place] of places) aspects.set(aspect, await this.#value(place));
      yield [urn, aspects];
    }
  }

  /**
   * The values of the live aspects `wanted` picks, as [urn, aspect, value] in the log's order: one read
   * through the file, parsing only the lines that hold them.
   */
  async *values(wanted: (urn: string, aspect: string) => boolean): AsyncGenerator<[string, string, JsonValue]> {
    const places: [number, string, string, Place][] = [];
    for (const [urn, aspects] of this.#entities) {
      for (const [aspect, place] of aspects) if (wanted(urn, aspect)) places.push([wholeAt(place), urn, aspect, place]);
    }
    places.sort((a, b) => a[0] - b[0]);
    const numbers = new Set(places.filter(([at]) => at !== NO_VALUE).map(([at]) => Math.floor(at / PER_LINE)));
    const lines = this.#lines([...numbers]);
    let line = -1;
    let record: LoggedRecord | undefined;
    try {
      for (const [at, urn, aspect, place] of places) {
        if (at !== NO_VALUE) {
          while (line !== Math.floor(at / PER_LINE))
            [line, record] = (await lines.next()).value as [number, LoggedRecord];
        }
        const whole = at === NO_VALUE ? undefined : valueIn(record as LoggedRecord, at);
        yield [urn, aspect, withEdits(whole, place)];
      }
    } finally {
      // Closes the file, whether or not the caller read to the end.
      await lines.return(undefined);
    }
  }

  #add(record: LoggedRecord, line: string, at: number): void {
    const number = this.#starts.length;
    this.#starts.push(at);
    this.#lengths.push(Buffer.byteLength(line));
    record.changes.forEach((change, index) => {
      const { urn, aspect } = change;
      if (!isColumnEdit(change)) {
        putAspect(this.#entities, urn, aspect, change.value === null ? null : number * PER_LINE + index);
        return;
      }
      const place = this.#entities.get(urn)?.get(aspect) ?? NO_VALUE;
      const edited = typeof place === 'number' ? { base: place, descriptions: new Map<string, string>() } : place;
      edited.descriptions.set(change.columnEdit.fieldPath, change.columnEdit.description);
      putAspect(this.#entities, urn, aspect, edited);
    });
  }

  async #value(place: Place): Promise<JsonValue> {
    const at = wholeAt(place);
    return withEdits(at === NO_VALUE ? undefined : await this.#wholeValue(at), place);
  }

  async #wholeValue(place: number): Promise<JsonValue> {
    const number = Math.floor(place / PER_LINE);
    let record = this.#cache.get(number);
    // Least recently used goes first: a long ingest line read for entity after entity stays.
    if (record !== undefined) this.#cache.delete(number);
    else {
      record = await this.#line(number);
      if (this.#cache.size >= CACHED_LINES) this.#cache.delete(this.#cache.keys().next().value as number);
    }
    this.#cache.set(number, record);
    return valueIn(record, place);
  }

  // The lines `numbers` (ascending), parsed, from one read through the file.
  async *#lines(numbers: readonly number[]): AsyncGenerator<[number, LoggedRecord]> {
    if (numbers.length === 0) return;
    let next = 0;
    let parts: Buffer[] = [];
    let chunkStart = this.#starts[numbers[0] as number] as number;
    for await (const chunk of this.#fs.readChunks(this.#path, { start: chunkStart })) {
      for (; next < numbers.length; next++) {
        const number = numbers[next] as number;
        const start = (this.#starts[number] as number) - chunkStart;
        const end = start + (this.#lengths[number] as number);
        if (start >= chunk.length) break;
        // A line may run over into the next chunk.
        parts.push(chunk.subarray(Math.max(start, 0), Math.min(end, chunk.length)));
        if (end > chunk.length) break;
        yield [number, parseLogRecord(Buffer.concat(parts).toString('utf8')) as LoggedRecord];
        parts = [];
      }
      if (next === numbers.length) return;
      chunkStart += chunk.length;
    }
  }

  async #line(number: number): Promise<LoggedRecord> {
    const start = this.#starts[number] as number;
    const parts: Buffer[] = [];
    for await (const chunk of this.#fs.readChunks(this.#path, {
      start,
      end: start + (this.#lengths[number] as number),
    }))
      parts.push(chunk);
    // Read and checked by the first pass; the lock keeps anyone else from changing the file.
    return parseLogRecord(Buffer.concat(parts).toString('utf8')) as LoggedRecord;
  }
}

// The whole value at `place` of `record` (a place the first pass noted for a whole value).
function valueIn(record: LoggedRecord, place: number): JsonValue {
  return (record.changes[place % PER_LINE] as Exclude<LoggedChange, { columnEdit: unknown }>).value;
}

// The aspect `place` stands for, given its whole value: that value, or it with the edits since applied.
function withEdits(whole: JsonValue | undefined, place: Place): JsonValue {
  if (typeof place === 'number') return whole as JsonValue;
  let value = whole;
  for (const [fieldPath, description] of place.descriptions)
    value = withColumnDescription(value, { fieldPath, description });
  return value as JsonValue;
}
