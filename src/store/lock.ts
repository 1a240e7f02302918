// One process owns a data directory: a lock file holding the owner's pid, created whole in one step.
// A lock whose pid no longer runs (a process killed with SIGKILL) is taken over; a live one is refused.

import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';

export const LOCK_FILE = 'minihub.lock';
const ATTEMPTS = 5;
// The lock files this process holds now.
const HELD = new Set<string>();

/** Takes the lock on `dir` and returns the function that releases it. */
export function acquireLock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  const mine = `${process.pid}\n`;
  // Written beside the lock and linked into place, so the lock never exists without its pid in it.
  const draft = join(dir, `.${LOCK_FILE}.${process.pid}`);
  writeFileSync(draft, mine, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        linkSync(draft, path);
        HELD.add(path);
        return () => {
          HELD.delete(path);
          // Remove the lock only while it is still ours.
          if (readOwner(path) === process.pid) rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readOwner(path);
      if (owner === undefined) continue; // it went away meanwhile: try again
      // Our own pid in a lock we do not hold was left by an earlier process that had the same pid
      // (a container restarted after SIGKILL): stale, though "alive".
      const stale = owner !== null && (owner === process.pid ? !HELD.has(path) : !isAlive(owner));
      if (!stale) throw locked(dir, path, owner);
      takeOverStale(path, owner as number);
    }
    throw new MinihubError('STORE_LOCKED', `could not take the lock ${path}: other processes keep taking it`);
  } finally {
    rmSync(draft, { force: true });
  }
}

// Moving the stale lock aside first means two processes taking it over at once cannot delete each
// other's fresh lock: only one rename wins, and a loser that moved a live lock puts it back.
function takeOverStale(path: string, stalePid: number): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readOwner(aside) !== stalePid) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone else holds the lock by now; theirs stands.
    }
  }
  rmSync(aside, { force: true });
}

/** The pid in the lock file; null when it holds none (being written by hand?), undefined when it is gone. */
function readOwner(path: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
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

function locked(dir: string, path: string, owner: number | null): MinihubError {
  if (owner === null) {
    return new MinihubError('STORE_LOCKED', `data directory ${dir} has a lock file ${path} without a pid in it; if no minihub uses ${dir}, delete that file`);
  }
  return new MinihubError(
    'STORE_LOCKED',
    `data directory ${dir} is in use by minihub process ${owner} (lock file ${path}); stop that process or choose another --data directory`,
  );
}
