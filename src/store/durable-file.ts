// Small files beside the log (the signing key, the seed marker, the lock): read when present, and written
// whole beside their place, synced, renamed into place, and the directory synced, so they are on disk
// before anything depends on them. Not for the log, whose I/O goes through log-fs.ts for fault injection.

import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Replaces `path` with `text` atomically and durably; readable by its owner only. */
export function writeFileDurably(path: string, text: string): void {
  const temporary = `${path}.new`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(dirname(path));
}

/** Makes a file's creation, rename or removal in `dir` durable. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The file's text, or undefined when there is no such file; any other failure is thrown. */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
