// The log's file operations over node:fs: positional writes, fdatasync, chunked reads with read-ahead,
// and the directory sync a new file's name needs. It decides nothing about records or lines.

import { constants, writeSync } from 'node:fs';
import { access, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';

import type { LogFile, LogFileSystem } from './log-fs.ts';

const READ_CHUNK_BYTES = 4 * 1024 * 1024;
// Below a compaction's chunk (MAX_CHUNK_BYTES, 512 KiB), above a commit batch's usual kilobytes.
const SYNC_WRITE_MAX_BYTES = 256 * 1024;

class NodeLogFile implements LogFile {
  readonly #handle: FileHandle;

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  async write(data: Buffer, position: number): Promise<number> {
    // A commit batch's few kilobytes only copy into the page cache (microseconds), while a thread-pool
    // round trip costs tens of microseconds on small VMs. A compaction's chunks can wait on the
    // kernel's write-back, so they go through the thread pool, off the event loop, as does every sync.
    if (data.length <= SYNC_WRITE_MAX_BYTES) return writeSync(this.#handle.fd, data, 0, data.length, position);
    return (await this.#handle.write(data, 0, data.length, position)).bytesWritten;
  }

  sync(): Promise<void> {
    // The log only grows or is cut back, so data plus size is all a reader needs: fdatasync, not fsync.
    return this.#handle.datasync();
  }

  truncate(length: number): Promise<void> {
    return this.#handle.truncate(length);
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

export const nodeLogFileSystem: LogFileSystem = {
  async open(path, { create, truncate }) {
    // Positional writes need a non-append mode: O_APPEND would ignore the position on Linux.
    const flags = constants.O_RDWR | (create ? constants.O_CREAT : 0) | (truncate ? constants.O_TRUNC : 0);
    return new NodeLogFile(await open(path, flags, 0o600));
  },
  async *readChunks(path, { start = 0, end = Infinity } = {}) {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // The next chunk is read while the caller works through the current one.
    let position = start;
    const readNext = async () => {
      const wanted = Math.min(READ_CHUNK_BYTES, end - position);
      if (wanted <= 0) return Buffer.alloc(0);
      // A fresh buffer per chunk: the caller may keep slices of it.
      const buffer = Buffer.allocUnsafe(wanted);
      const { bytesRead } = await handle.read(buffer, 0, wanted, position);
      position += bytesRead;
      return buffer.subarray(0, bytesRead);
    };
    let next = readNext();
    try {
      for (;;) {
        const chunk = await next;
        if (chunk.length === 0) return;
        next = readNext();
        yield chunk;
      }
    } finally {
      // Settle a read still in flight before closing its file.
      await next.catch(() => {});
      await handle.close();
    }
  },
  async exists(path) {
    try {
      await access(path);
      return true;
    } catch {
      return false;
    }
  },
  writeAside: (path, data) => writeFile(path, data, { mode: 0o600 }),
  rename,
  remove: (path) => rm(path, { force: true }),
  async syncDirectory(dir) {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};
