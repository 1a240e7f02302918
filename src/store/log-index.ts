// The catalogue a log replays to, as places in the log rather than values: for every live aspect, the
// line and change that last wrote it, in the catalogue's order. Lets `export` and `compact` stream a log
// of any size in bounded memory (two passes over the file). It reads the log; it never writes it.

import type { JsonValue } from '../aspects/json.ts';
import type { LogFileSystem } from './log-fs.ts';
import { putAspect } from './entity-aspects.ts';
import { readRecords, type ReadRecords } from './log-lines.ts';
import { parseLogRecord, type LogRecord } from './log-record.ts';

// A place: line number times this, plus the change's index in the line (a line holds far fewer changes).
const PER_LINE = 2 ** 24;
// Parsed lines kept for the second pass: an entity's aspects, and its neighbours', mostly share a line
// (see test/bench/NOTES.md).
const CACHED_LINES = 4;

export class LogIndex {
  readonly #fs: LogFileSystem;
  readonly #path: string;
  // urn -> aspect -> place, in the order Catalogue keeps them (a removed entity re-created goes last).
  readonly #entities = new Map<string, Map<string, number>>();
  // Where each line starts and its length in bytes.
  #starts: number[] = [];
  #lengths: number[] = [];
  readonly #cache = new Map<number, LogRecord>();
  /** What reading the log found: where its whole lines end, its torn tail, its records. */
  read: ReadRecords | null = null;

  private constructor(fs: LogFileSystem, path: string) {
    this.#fs = fs;
    this.#path = path;
  }

  /** Reads the log at `path` once, checking every line as replay does (BadLine for the first bad one). */
  static async read(fs: LogFileSystem, path: string): Promise<LogIndex> {
    const index = new LogIndex(fs, path);
    index.read = await readRecords(fs.readChunks(path), (record, line, at) => index.#add(record, line, at));
    return index;
  }

  get entityCount(): number {
    return this.#entities.size;
  }

  /** Every entity's URN, in the catalogue's order. */
  urns(): Iterable<string> {
    return this.#entities.keys();
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
    const places: [number, string, string][] = [];
    for (const [urn, aspects] of this.#entities) {
      for (const [aspect, place] of aspects) if (wanted(urn, aspect)) places.push([place, urn, aspect]);
    }
    places.sort((a, b) => a[0] - b[0]);
    const lines = this.#lines([...new Set(places.map(([place]) => Math.floor(place / PER_LINE)))]);
    let line = -1;
    let record: LogRecord | undefined;
    try {
      for (const [place, urn, aspect] of places) {
        while (line !== Math.floor(place / PER_LINE))
          [line, record] = (await lines.next()).value as [number, LogRecord];
        yield [urn, aspect, (record?.changes[place % PER_LINE] as { value: JsonValue }).value];
      }
    } finally {
      // Closes the file, whether or not the caller read to the end.
      await lines.return(undefined);
    }
  }

  #add(record: LogRecord, line: string, at: number): void {
    const number = this.#starts.length;
    this.#starts.push(at);
    this.#lengths.push(Buffer.byteLength(line));
    record.changes.forEach(({ urn, aspect, value }, change) => {
      putAspect(this.#entities, urn, aspect, value === null ? null : number * PER_LINE + change);
    });
  }

  async #value(place: number): Promise<JsonValue> {
    const number = Math.floor(place / PER_LINE);
    let record = this.#cache.get(number);
    // Least recently used goes first: a long ingest line read for entity after entity stays.
    if (record !== undefined) this.#cache.delete(number);
    else {
      record = await this.#line(number);
      if (this.#cache.size >= CACHED_LINES) this.#cache.delete(this.#cache.keys().next().value as number);
    }
    this.#cache.set(number, record);
    return (record.changes[place % PER_LINE] as { value: JsonValue }).value;
  }

  // The lines `numbers` (ascending), parsed, from one read through the file.
  async *#lines(numbers: readonly number[]): AsyncGenerator<[number, LogRecord]> {
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
        yield [number, parseLogRecord(Buffer.concat(parts).toString('utf8')) as LogRecord];
        parts = [];
      }
      if (next === numbers.length) return;
      chunkStart += chunk.length;
    }
  }

  async #line(number: number): Promise<LogRecord> {
    const start = this.#starts[number] as number;
    const parts: Buffer[] = [];
    for await (const chunk of this.#fs.readChunks(this.#path, {
      start,
      end: start + (this.#lengths[number] as number),
    }))
      parts.push(chunk);
    // Read and checked by the first pass; the lock keeps anyone else from changing the file.
    return parseLogRecord(Buffer.concat(parts).toString('utf8')) as LogRecord;
  }
}
