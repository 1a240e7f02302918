// One process owns a data directory: a lock file holding the owner's pid and start time, created whole
// in one step. A lock whose owner no longer runs (killed, a zombie, or a pid reused since) is taken over
// (lock-takeover.ts decides that, and removes the stale lock safely).

import { linkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';
import { performance, sleep } from '../own-timers.ts';
import { isStale, readOwner, removeStale } from './lock-takeover.ts';
import { ownStartTime, type StatReader } from './owner-probe.ts';

export const LOCK_FILE = 'minihub.lock';
/** How long a start waits for a live owner to exit before refusing: a killed owner takes a moment to die. */
export const LOCK_WAIT_MS = 2000;
const POLL_MS = 50;
const TAKEOVERS = 5;
// The lock files this process holds now.
const HELD = new Set<string>();

export interface LockOptions {
  /** How long to wait for a live owner to go away; default LOCK_WAIT_MS. */
  waitMs?: number;
  /** Reads /proc/<pid>/stat; tests pass a fake. */
  readStat?: StatReader;
}

/** Takes the lock on `dir` and resolves to the function that releases it. */
export async function acquireLock(dir: string, options: LockOptions = {}): Promise<() => void> {
  const { waitMs = LOCK_WAIT_MS, readStat } = options;
  const path = join(dir, LOCK_FILE);
  const start = ownStartTime();
  const mine = start === null ? `${process.pid}\n` : `${process.pid}\n${start}\n`;
  // Written beside the lock and linked into place, so the lock never exists without its pid in it.
  const draft = join(dir, `.${LOCK_FILE}.${process.pid}`);
  writeFileSync(draft, mine, { mode: 0o600 });
  const giveUpAt = performance.now() + waitMs;
  try {
    for (let takeovers = 0; takeovers < TAKEOVERS;) {
      try {
        linkSync(draft, path);
        HELD.add(path);
        return () => {
          HELD.delete(path);
          // Remove the lock only while it is still ours.
          if (readOwner(path)?.text === mine) rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readOwner(path);
      if (owner === undefined) continue; // it went away meanwhile: try again
      if (owner === null) throw locked(dir, path, null);
      if (isStale(owner, HELD.has(path), readStat)) {
        const outcome = removeStale(path, path, owner, draft, readStat, 0);
        // Another process is removing it right now (that takes microseconds): let it finish.
        if (outcome === 'busy') await sleep(POLL_MS);
        takeovers++;
        continue;
      }
      // This process holds it: waiting would only wait for ourselves.
      if (owner.pid === process.pid || performance.now() >= giveUpAt) throw locked(dir, path, owner.pid);
      // A live owner may be dying (killed, or closing after SIGTERM): give it a moment.
      await sleep(POLL_MS);
    }
    throw new MinihubError('STORE_LOCKED', `could not take the lock ${path}: other processes keep taking it`);
  } finally {
    rmSync(draft, { force: true });
  }
}

function locked(dir: string, path: string, owner: number | null): MinihubError {
  if (owner === null) {
    return new MinihubError(
      'STORE_LOCKED',
      `data directory ${dir} has a lock file ${path} without a pid in it; if no minihub uses ${dir}, delete that file`,
    );
  }
  return new MinihubError(
    'STORE_LOCKED',
    `data directory ${dir} is in use by minihub process ${owner} (lock file ${path}); stop that process or choose another --data directory`,
  );
}
