// Taking over a lock whose owner is gone: who a lock file names, whether that process still runs (a
// zombie or a reused pid counts as gone), and removing the stale lock so that no live lock is ever deleted.

import { linkSync, rmSync } from 'node:fs';

import { readTextIfExists } from './durable-file.ts';
import { processExists, probeProcess, type StatReader } from './owner-probe.ts';

// A takeover guard left by a process killed while taking over is itself taken over; a guard of a guard
// of a guard means something other than crashes is at work.
const GUARD_DEPTH = 3;

/** Who a lock file names. Line 1 is the pid; line 2, where known, its start time (older locks lack it). */
export interface LockOwner {
  pid: number;
  startTime: string | null;
  text: string;
}

/**
 * Whether the lock's owner is gone. Our own pid in a lock we do not hold was left by an earlier process
 * with the same pid (a container restarted after SIGKILL). Where /proc tells (Linux), a zombie is gone,
 * and so is a process whose start time differs from the one the lock recorded: the pid was reused.
 * Elsewhere (or for a lock without a start time) a process that exists is taken to be the owner.
 */
export function isStale(owner: LockOwner, heldHere: boolean, readStat: StatReader | undefined): boolean {
  if (owner.pid === process.pid) return !heldHere;
  const state = probeProcess(owner.pid, readStat);
  switch (state.kind) {
    case 'gone':
    case 'exited':
      return true;
    case 'running':
      return owner.startTime !== null && owner.startTime !== state.startTime;
    case 'unknown':
      return !processExists(owner.pid);
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
export function removeStale(
  lock: string,
  file: string,
  stale: LockOwner,
  draft: string,
  readStat: StatReader | undefined,
  depth: number,
): Removal {
  const guard = `${lock}.takeover-${stale.pid}-${stale.startTime ?? 'unknown'}`;
  try {
    linkSync(draft, guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = readOwner(guard);
    if (holder === undefined) return 'retry';
    if (holder === null || depth + 1 >= GUARD_DEPTH || !isStale(holder, false, readStat)) return 'busy';
    return removeStale(lock, guard, holder, draft, readStat, depth + 1) === 'busy' ? 'busy' : 'retry';
  }
  try {
    if (readOwner(file)?.text === stale.text) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
  return 'checked';
}

/** The lock file's owner; null when it names none (being written by hand?), undefined when it is gone. */
export function readOwner(path: string): LockOwner | null | undefined {
  const text = readTextIfExists(path);
  if (text === undefined) return undefined;
  const [pidLine = '', startLine = ''] = text.split('\n');
  const pid = Number.parseInt(pidLine.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const startTime = /^\d+$/.test(startLine.trim()) ? startLine.trim() : null;
  return { pid, startTime, text };
}
