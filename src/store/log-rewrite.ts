// A compaction's new log, written beside the old one while the old one still takes appends: first the
// records that replace the old log as it stood when the rewrite began, then every line appended to the
// old log since, copied byte for byte. It never renames before the new file holds all of them, synced.

import { ChunkedWriter } from './chunked-writer.ts';
import type { LogFile, LogFileSystem } from './log-fs.ts';
import { lineOf, type RecordOrLine } from './log-record.ts';

/**
 * The new log is synced each time this many bytes have been written to it since the last sync, so the
 * kernel never holds the whole of it to flush at once: the sync at the switch, which commits wait for,
 * flushes only what came after (see test/bench/NOTES.md).
 */
export const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

/** The old log as the new one needs it: where it lives and where its acknowledged lines end now. */
export interface OldLog {
  fs: LogFileSystem;
  path: string;
  size(): number;
}

/** The steps of a rewrite, in order: write (any time), finish (between two commit batches), or abandon. */
export interface LogRewrite {
  /** Writes `records` (read once, as written), then the lines appended to the old log so far. */
  write(records: Iterable<RecordOrLine> | AsyncIterable<RecordOrLine>): Promise<void>;
  /** As write(), with the records already written out as lines: chunks of whole lines, newlines included. */
  writeLines(chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /**
   * Copies the last lines appended, syncs and renames the new log over the old one. Called between two
   * commit batches, so no append is under way and none is missed. Resolves with the new log's size.
   */
  finish(): Promise<number>;
  /** Removes the new file; the old log stays the log. */
  abandon(): Promise<void>;
}

export class NewLog implements LogRewrite {
  readonly #old: OldLog;
  readonly #temporary: string;
  readonly #file: LogFile;
  readonly #writer: ChunkedWriter;
  readonly #syncEveryBytes: number;
  // How far the old log has been copied: the records written replace everything before where it began.
  #copied: number;
  // Where the next byte goes in the new file, and how many bytes before it are not synced yet.
  #position = 0;
  #unsynced = 0;
  #closed = false;

  constructor(
    old: OldLog,
    temporary: string,
    file: LogFile,
    maxChunkBytes: number,
    syncEveryBytes: number = SYNC_EVERY_BYTES,
  ) {
    this.#old = old;
    this.#syncEveryBytes = syncEveryBytes;
    this.#temporary = temporary;
    this.#file = file;
    this.#copied = old.size();
    this.#writer = new ChunkedWriter((chunk) => this.#append(chunk), maxChunkBytes);
  }

  async write(records: Iterable<RecordOrLine> | AsyncIterable<RecordOrLine>): Promise<void> {
    // Line by line into bounded chunks: a log larger than V8's string cap compacts like any other.
    for await (const record of records) await this.#writer.add(lineOf(record) + '\n');
    await this.#catchUp();
    // Commits go on meanwhile; finish() then syncs only the lines they append from here on.
    await this.#sync();
  }

  async writeLines(chunks: AsyncIterable<Uint8Array>): Promise<void> {
    for await (const chunk of chunks) await this.#append(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    await this.#catchUp();
    await this.#sync();
  }

  async finish(): Promise<number> {
    await this.#catchUp();
    await this.#sync();
    await this.#close();
    // The atomic switch: before it the old log is the log, after it the new one.
    await this.#old.fs.rename(this.#temporary, this.#old.path);
    return this.#position;
  }

  async abandon(): Promise<void> {
    await this.#close().catch(() => {});
    await this.#old.fs.remove(this.#temporary).catch(() => {});
  }

  // The old log's lines appended (and acknowledged) since the last copy, as they are: in order, the same bytes.
  async #catchUp(): Promise<void> {
    await this.#writer.flush();
    const end = this.#old.size();
    for await (const chunk of this.#old.fs.readChunks(this.#old.path, { start: this.#copied, end })) {
      await this.#append(chunk);
    }
    this.#copied = end;
  }

  async #append(chunk: Buffer): Promise<void> {
    await writeAll(this.#file, chunk, this.#position);
    this.#position += chunk.length;
    this.#unsynced += chunk.length;
    if (this.#unsynced >= this.#syncEveryBytes) await this.#sync();
  }

  async #sync(): Promise<void> {
    this.#unsynced = 0;
    await this.#file.sync();
  }

  async #close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#file.close();
  }
}

export async function writeAll(file: LogFile, bytes: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const count = await file.write(bytes.subarray(written), position + written);
    if (count <= 0) throw new Error(`the file system wrote nothing at byte ${position + written}`);
    written += count;
  }
}
