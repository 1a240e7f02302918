// One process owns a data directory: a lock file holding the owner's pid and start time, created whole
// in one step. A lock whose owner no longer runs (killed, a zombie, or a pid reused since) is taken over.

import { linkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';
import { readTextIfExists } from './durable-file.ts';
import { ownStartTime, probeProcess, type StatReader } from './owner-probe.ts';

export const LOCK_FILE = 'minihub.lock';
/** How long a start waits for a live owner to exit before refusing: a killed owner takes a moment to die. */
export const LOCK_WAIT_MS = 2000;
const POLL_MS = 50;
const TAKEOVERS = 5;
// A takeover guard left by a process killed while taking over is itself taken over; a guard of a guard
// of a guard means something other than crashes is at work.
const GUARD_DEPTH = 3;
// The lock files this process holds now.
const HELD = new Set<string>();

/** Who a lock file names. Line 1 is the pid; line 2, where known, its start time (older locks lack it). */
interface LockOwner {
  pid: number;
  startTime: string | null;
  text: string;
}

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
  const giveUpAt = Date.now() + waitMs;
  try {
    for (let takeovers = 0; takeovers < TAKEOVERS; ) {
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
      if (isStale(path, owner, readStat)) {
        const outcome = removeStale(dir, path, owner, draft, readStat, 0);
        // Another process is removing it right now (that takes microseconds): let it finish.
        if (outcome === 'busy') await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        takeovers++;
        continue;
      }
      // This process holds it: waiting would only wait for ourselves.
      if (owner.pid === process.pid || Date.now() >= giveUpAt) throw locked(dir, path, owner.pid);
      // A live owner may be dying (killed, or closing after SIGTERM): give it a moment.
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new MinihubError('STORE_LOCKED', `could not take the lock ${path}: other processes keep taking it`);
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Whether the lock's owner is gone. Our own pid in a lock we do not hold was left by an earlier process
 * with the same pid (a container restarted after SIGKILL). Where /proc tells (Linux), a zombie is gone,
 * and so is a process whose start time differs from the one the lock recorded: the pid was reused.
 * Elsewhere (or for a lock without a start time) a process that exists is taken to be the owner.
 */
function isStale(path: string, owner: LockOwner, readStat: StatReader | undefined): boolean {
  if (owner.pid === process.pid) return !HELD.has(path);
  const state = probeProcess(owner.pid, readStat);
  switch (state.kind) {
    case 'gone':
    case 'exited':
      return true;
    case 'running':
      return owner.startTime !== null && owner.startTime !== state.startTime;
    case 'unknown':
      return !isAlive(owner.pid);
  }
}

type Removal = 'checked' | 'retry' | 'busy';

/**
 * Removes `file` if it still holds the text of `stale`, whose owner is gone. Reading the file and then
 * deleting it is two steps, and between them another process may replace a stale lock with its own live
 * one (and a rename-aside-and-check removal moves that live lock out of the path, where a third process
 * then takes the path): so removers of one stale owner's files are made exclusive by a guard file named
 * after that owner, created whole with link (which fails if it exists). A file holding the stale text
 * stays at its path until a guard holder deletes it (no one else deletes it, and link cannot replace it),
 * so the check under the guard is still true at the delete. A guard left by a process killed mid-takeover
 * names that process: it is stale in turn and is removed the same way, under its owner's guard.
 * `checked`: the file no longer holds the stale text; `retry`: a stale guard was removed; `busy`: a live
 * process holds the guard.
 */
function removeStale(dir: string, file: string, stale: LockOwner, draft: string, readStat: StatReader | undefined, depth: number): Removal {
  const guard = join(dir, `${LOCK_FILE}.takeover-${stale.pid}-${stale.startTime ?? 'unknown'}`);
  try {
    linkSync(draft, guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = readOwner(guard);
    if (holder === undefined) return 'retry';
    if (holder === null || depth + 1 >= GUARD_DEPTH || !isStale(guard, holder, readStat)) return 'busy';
    return removeStale(dir, guard, holder, draft, readStat, depth + 1) === 'busy' ? 'busy' : 'retry';
  }
  try {
    if (readOwner(file)?.text === stale.text) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
  return 'checked';
}

/** The lock file's owner; null when it names none (being written by hand?), undefined when it is gone. */
function readOwner(path: string): LockOwner | null | undefined {
  const text = readTextIfExists(path);
  if (text === undefined) return undefined;
  const [pidLine = '', startLine = ''] = text.split('\n');
  const pid = Number.parseInt(pidLine.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const startTime = /^\d+$/.test(startLine.trim()) ? startLine.trim() : null;
  return { pid, startTime, text };
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
