// The file operations the log needs, behind an interface so tests can swap in one that fails
// (EIO, ENOSPC, short writes) at a chosen step. Types only: the real one, over node:fs, is node-log-fs.ts.

/**
 * One open log file, as a LogFileSystem hands it out.
 * @example
 * const file: LogFile = await fileSystem.open('data/catalogue.jsonl', { create: true, truncate: false });
 * await file.write(Buffer.from('…\n'), 0);
 * await file.sync();
 */
export interface LogFile {
  /** Writes at `position`; may write fewer bytes than given (the caller loops). */
  write(data: Buffer, position: number): Promise<number>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file operations of the log (ServerOptions.fileSystem), so a test can make one fail on purpose.
 * @example
 * const failingSync: LogFileSystem = { ...nodeLogFileSystem, async open(path, mode) {
 *   const file = await nodeLogFileSystem.open(path, mode); // nodeLogFileSystem: src/store/node-log-fs.ts
 *   file.sync = () => Promise.reject(Object.assign(new Error('disk failed'), { code: 'EIO' }));
 *   return file;
 * } };
 * const hub = await startServer({ dataDir: 'tmp-data', fileSystem: failingSync });
 */
export interface LogFileSystem {
  /** Opens for positional writes, creating the file (mode 0600) when `create` and it is missing; `truncate` empties it. */
  open(path: string, mode: { create: boolean; truncate: boolean }): Promise<LogFile>;
  /** The file's bytes (from `range.start` up to `range.end`, by default all) in large chunks, in order; none when it does not exist. */
  readChunks(path: string, range?: ByteRange): AsyncIterable<Buffer>;
  exists(path: string): Promise<boolean>;
  writeAside(path: string, data: Buffer): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  syncDirectory(dir: string): Promise<void>;
}

/** Part of a file: from byte `start` (default 0) up to, not including, byte `end` (default its end). */
export interface ByteRange {
  start?: number;
  end?: number;
}
