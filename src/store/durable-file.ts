// Small files that must be on disk before anything depends on them (the signing key, the seed marker):
// written whole beside their place, synced, renamed into place, and the directory synced. Not for the
// log, whose writes go through log-fs.ts so that tests can inject faults.

import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
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
