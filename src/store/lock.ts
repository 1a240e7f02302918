// One process owns a data directory: a lock file holding the owner's pid.
// A lock whose pid no longer runs (a process killed with SIGKILL) is taken over; a live one is refused.

import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';

export const LOCK_FILE = 'minihub.lock';

/** Takes the lock on `dir`; resolves to a function that releases it. */
export function acquireLock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(readLockOwner(path), 10);
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new MinihubError(
        'STORE_LOCKED',
        `data directory ${dir} is in use by minihub process ${owner} (lock file ${path}); ` +
          'stop that process or choose another --data directory',
      );
    }
    // The owner is gone without releasing the lock: it crashed or was killed, so the lock is stale.
    rmSync(path, { force: true });
  }
  throw new MinihubError('STORE_LOCKED', `could not take the lock ${path}: another process keeps creating it`);
}

function readLockOwner(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
