// The append-only JSON-lines log file: replay at open, durable appends (write + fsync) after.
// It owns the file and the lock; it does not interpret records beyond checking their shape.

import { closeSync, fsyncSync, openSync, readFileSync, ftruncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';
import { acquireLock } from './lock.ts';
import { parseLogRecord, type LogRecord } from './log-record.ts';

export const LOG_FILE = 'catalogue.jsonl';
const NEWLINE = 0x0a;

/** The two-method seam between the store and where its records live (lowdb's adapter idea). */
export interface LogStorage {
  /** Where the records live, for messages: a file path, or "memory". */
  readonly location: string;
  /** Writes the records; resolves only once they are durable. */
  append(records: readonly LogRecord[]): Promise<void>;
  close(): Promise<void>;
}

export interface OpenedLog {
  storage: LogStorage;
  records: LogRecord[];
}

/** Keeps nothing: the catalogue in memory is the only copy. */
export class MemoryLog implements LogStorage {
  readonly location = 'memory';
  async append(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * Opens (creating if needed) the log in `dir`, takes the lock and reads every record.
 * A torn last line is cut off and saved aside with a warning; any other bad line refuses the open.
 */
export async function openFileLog(dir: string, warn: (message: string) => void): Promise<OpenedLog> {
  mkdirSync(dir, { recursive: true });
  const release = acquireLock(dir);
  try {
    const path = join(dir, LOG_FILE);
    const records = readRecords(path, warn);
    const handle = await open(path, 'a', 0o600);
    return { storage: new FileLog(path, dir, handle, release), records };
  } catch (error) {
    release();
    throw error;
  }
}

class FileLog implements LogStorage {
  readonly location: string;
  readonly #dir: string;
  readonly #handle: FileHandle;
  readonly #release: () => void;
  #directorySynced = false;

  constructor(path: string, dir: string, handle: FileHandle, release: () => void) {
    this.location = path;
    this.#dir = dir;
    this.#handle = handle;
    this.#release = release;
  }

  async append(records: readonly LogRecord[]): Promise<void> {
    if (records.length === 0) return;
    const text = records.map((record) => JSON.stringify(record) + '\n').join('');
    await this.#handle.write(text);
    await this.#handle.sync();
    if (!this.#directorySynced) {
      // A new file's directory entry is only durable once the directory itself is synced.
      syncDirectory(this.#dir);
      this.#directorySynced = true;
    }
  }

  async close(): Promise<void> {
    await this.#handle.close();
    this.#release();
  }
}

function readRecords(path: string, warn: (message: string) => void): LogRecord[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  if (end < bytes.length) cutTornTail(path, bytes, end, warn);

  const records: LogRecord[] = [];
  let start = 0;
  let line = 0;
  while (start < end) {
    const stop = bytes.indexOf(NEWLINE, start);
    line++;
    const text = bytes.toString('utf8', start, stop);
    start = stop + 1;
    if (text.trim() === '') continue;
    const parsed = parseLogRecord(text);
    if (typeof parsed === 'string') {
      throw new MinihubError(
        'STORE_CORRUPT',
        `${path}:${line}: ${parsed}. The log was not changed; repair or remove that line, then start again`,
      );
    }
    records.push(parsed);
  }
  return records;
}

/** A crash mid-append leaves a last line without its newline: that write was never acknowledged. */
function cutTornTail(path: string, bytes: Buffer, end: number, warn: (message: string) => void): void {
  const aside = `${path}.torn-${Date.now()}`;
  writeFileSync(aside, bytes.subarray(end), { mode: 0o600 });
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, end);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  warn(
    `${path}: the last line was incomplete (${bytes.length - end} bytes, a write cut short by a crash); ` +
      `cut it off and saved it to ${aside}`,
  );
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
