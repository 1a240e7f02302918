// The append-only JSON-lines log file, in the steps Store.open takes: lock the directory, (replay, see
// replay.ts), cut a torn tail and open for append; then durable appends (write + fsync), repair after a
// failed append, and atomic rewrites for compaction. It owns the file and the lock; it never replays.

import { MinihubError } from '../errors.ts';
import { MAX_CHUNK_BYTES } from './chunked-writer.ts';
import { dataDirectoryError, makeDataDirectory } from './data-dir.ts';
import { acquireLock } from './lock.ts';
import type { LogFile, LogFileSystem } from './log-fs.ts';
import { BadLine, type ReadRecords } from './log-lines.ts';
import type { LogRecord, RecordOrLine } from './log-record.ts';
import { NewLog, writeAll, type LogRewrite } from './log-rewrite.ts';

export const LOG_FILE = 'catalogue.jsonl';
// What a client is told once the log cannot take writes; the detail (paths, errno) goes to the server log.
const WRITES_REFUSED =
  'The change was not saved: the catalogue stopped accepting writes after a disk failure and serves reads only until minihub restarts.';

/** A compaction whose new log is in place but could not be reopened for writing. */
export class CompactedButBroken extends Error {
  override readonly name = 'CompactedButBroken';
}
const COMPACT_SUFFIX = '.compact';

/** The seam between the store and where its records live (lowdb's adapter idea). */
export interface LogStorage {
  /** Where the records live, for messages: a file path, or "memory". */
  readonly location: string;
  /** Bytes the log holds now. */
  readonly size: number;
  /**
   * Writes the records; resolves only once they are durable, with each one's line as written (no newline;
   * none in memory). On failure nothing of them remains.
   */
  append(records: readonly LogRecord[]): Promise<readonly string[]>;
  /**
   * Starts replacing the log as it stands now (compaction): the rewrite's records, then every record
   * appended from now on. Appends go on meanwhile; its `finish`, between two appends, swaps atomically.
   */
  beginRewrite(): Promise<LogRewrite>;
  /** Makes the new log the log once a rewrite's `finish` has renamed it into place (see CompactedButBroken). */
  reopen(size: number): Promise<void>;
  close(): Promise<void>;
}

/** Keeps nothing: the catalogue in memory is the only copy. */
export class MemoryLog implements LogStorage {
  readonly location = 'memory';
  readonly size = 0;
  async append(): Promise<readonly string[]> {
    return [];
  }
  async beginRewrite(): Promise<LogRewrite> {
    return {
      // Drain the records all the same: a caller may count them as they are produced.
      async write(records) {
        for await (const record of records) void record;
      },
      async writeLines(chunks) {
        for await (const chunk of chunks) void chunk;
      },
      finish: async () => 0,
      abandon: async () => {},
    };
  }
  async reopen(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Step 1 of opening: makes the data directory if needed and takes its lock; returns the release. */
export async function lockDataDirectory(dir: string): Promise<() => void> {
  makeDataDirectory(dir);
  // The lock is the first file written: on a full or read-only disk, this is where a start fails.
  return acquireLock(dir).catch((error: unknown) => {
    throw dataDirectoryError(dir, error, 'cannot be used');
  });
}

/** Before replay: a compaction that crashed before its rename leaves its temporary file; the old log is whole. */
export async function removeInterruptedCompaction(
  fs: LogFileSystem,
  path: string,
  warn: (message: string) => void,
): Promise<void> {
  if (await fs.exists(path + COMPACT_SUFFIX)) {
    await fs.remove(path + COMPACT_SUFFIX);
    warn(`${path}${COMPACT_SUFFIX}: removed what an interrupted compaction left; ${path} is unchanged`);
  }
}

/** What a replay failure is told as: a bad line refuses the open, and nothing in the directory has been changed. */
export function replayFailure(path: string, error: unknown): unknown {
  if (!(error instanceof BadLine)) return error;
  return new MinihubError(
    'STORE_CORRUPT',
    `${path}:${error.line}: ${error.message}. The log was not changed; repair or remove that line, then start again`,
  );
}

export interface AppendOptions {
  fs: LogFileSystem;
  dir: string;
  path: string;
  /** What replay read: where the last whole line ends, and the torn line after it, if any. */
  replayed: Pick<ReadRecords, 'end' | 'tail'>;
  /** Releases the lock; the log calls it when closed. */
  release: () => void;
  warn: (message: string) => void;
  maxChunkBytes?: number;
}

/**
 * The last step of opening, once every whole line is read and accepted: cuts a torn last line off
 * (saved aside, with a warning) and opens the log for appending after the last whole line.
 */
export async function openForAppend({
  fs,
  dir,
  path,
  replayed,
  release,
  warn,
  maxChunkBytes = MAX_CHUNK_BYTES,
}: AppendOptions): Promise<LogStorage> {
  const { end, tail } = replayed;
  const file = await fs.open(path, { create: true, truncate: false });
  try {
    if (tail.length > 0) await cutTornTail(fs, file, path, tail, end, warn);
    return new FileLog({ fs, dir, path, release, maxChunkBytes }, file, end);
  } catch (error) {
    await file.close();
    throw error;
  }
}

class FileLog implements LogStorage {
  readonly location: string;
  readonly #fs: LogFileSystem;
  readonly #dir: string;
  readonly #release: () => void;
  readonly #maxChunkBytes: number;
  #file: LogFile;
  #size: number;
  #directorySynced = false;
  // Set when a failed append could not be undone: the file's tail is unknown, so no more writes.
  #broken: MinihubError | null = null;
  // The handle a compaction replaced, closing: closing the last handle of a file renamed over frees its
  // blocks, which takes long for a large log (see test/bench/NOTES.md), so commits do not wait for it; close() does.
  #oldClosed: Promise<void> = Promise.resolve();

  /** An open log `file` whose whole lines end at byte `size`. */
  constructor(
    { fs, dir, path, release, maxChunkBytes }: Omit<Required<AppendOptions>, 'replayed' | 'warn'>,
    file: LogFile,
    size: number,
  ) {
    this.#fs = fs;
    this.#maxChunkBytes = maxChunkBytes;
    this.location = path;
    this.#dir = dir;
    this.#file = file;
    this.#size = size;
    this.#release = release;
  }

  get size(): number {
    return this.#size;
  }

  async append(records: readonly LogRecord[]): Promise<readonly string[]> {
    if (records.length === 0) return [];
    if (this.#broken !== null) throw this.#broken;
    const lines = records.map((record) => JSON.stringify(record));
    const bytes = Buffer.from(lines.join('\n') + '\n');
    try {
      await writeAll(this.#file, bytes, this.#size);
      await this.#file.sync();
      if (!this.#directorySynced) {
        // A new file's directory entry is durable only once the directory itself is synced.
        await this.#fs.syncDirectory(this.#dir);
        this.#directorySynced = true;
      }
    } catch (error) {
      await this.#undo(error);
      throw error;
    }
    this.#size += bytes.length;
    return lines;
  }

  async beginRewrite(): Promise<LogRewrite> {
    if (this.#broken !== null) throw this.#broken;
    const temporary = this.location + COMPACT_SUFFIX;
    // Steps 1-3 (write, sync, rename) are the rewrite's: a failure there leaves the old log alone.
    const file = await this.#fs.open(temporary, { create: true, truncate: true });
    const old = { fs: this.#fs, path: this.location, size: () => this.#size };
    return new NewLog(old, temporary, file, this.#maxChunkBytes);
  }

  async reopen(newSize: number): Promise<void> {
    // Step 4: from here on the new file is the log, whatever else fails; the old handle points at
    // an unlinked file and must not be written again.
    const old = this.#file;
    this.#directorySynced = false;
    try {
      this.#file = await this.#fs.open(this.location, { create: false, truncate: false });
      this.#size = newSize;
    } catch (error) {
      this.#broken = new MinihubError('SERVER_ERROR', WRITES_REFUSED, { cause: error });
      throw new CompactedButBroken(
        `${this.location} was compacted but could not be reopened: ${(error as Error).message}`,
      );
    } finally {
      // Chained: close() waits for every replaced handle, not only the last compaction's.
      const closing = old.close().catch(() => {});
      this.#oldClosed = Promise.all([this.#oldClosed, closing]).then(() => {});
    }
    // Step 5: make the rename durable. If that fails now, the next append syncs the directory first,
    // and fails (and is cut back) if it still cannot.
    try {
      await this.#fs.syncDirectory(this.#dir);
      this.#directorySynced = true;
    } catch {
      this.#directorySynced = false;
    }
  }

  async close(): Promise<void> {
    await this.#oldClosed;
    await this.#file.close();
    this.#release();
  }

  // Cut what the failed append may have left, so the log still ends on a whole line.
  async #undo(cause: unknown): Promise<void> {
    try {
      await this.#file.truncate(this.#size);
      await this.#file.sync();
    } catch (error) {
      this.#broken = new MinihubError('SERVER_ERROR', WRITES_REFUSED, {
        cause: new Error(
          `${this.location} could not be cut back after a failed write (${(cause as Error).message}, then ${(error as Error).message})`,
        ),
      });
    }
  }
}

/** A crash mid-append leaves a last line without its newline: that write was never acknowledged. */
async function cutTornTail(
  fs: LogFileSystem,
  file: LogFile,
  path: string,
  tail: Buffer,
  end: number,
  warn: (message: string) => void,
): Promise<void> {
  const aside = `${path}.torn-${Date.now()}`;
  await fs.writeAside(aside, tail);
  await file.truncate(end);
  await file.sync();
  warn(
    `${path}: the last line was incomplete (${tail.length} bytes, a write cut short by a crash); ` +
      `cut it off and saved it to ${aside}`,
  );
}

/** What the client is told of a failed write: the errno, not the path (the cause keeps that for the log). */
export function writeFailure(error: unknown): MinihubError {
  const { code } = error as NodeJS.ErrnoException;
  return new MinihubError(
    'SERVER_ERROR',
    `The change was not saved: the disk reported ${code ?? 'an error'} while writing the log. Nothing was changed; try again.`,
    { cause: error },
  );
}

/** Replaces the whole log with `records` when nothing else writes to it: a rewrite begun, written and finished. */
export async function rewriteLog(
  log: LogStorage,
  records: Iterable<RecordOrLine> | AsyncIterable<RecordOrLine>,
): Promise<void> {
  const rewrite = await log.beginRewrite();
  let size: number;
  try {
    await rewrite.write(records);
    size = await rewrite.finish();
  } catch (error) {
    await rewrite.abandon();
    throw error;
  }
  await log.reopen(size);
}
