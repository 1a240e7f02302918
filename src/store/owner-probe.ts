// Tells what became of the process a lock file names: gone, exited but not yet reaped (a zombie), or
// running, with its start time so a reused pid can be told apart. Reads /proc on Linux; sends no signal
// (kill with signal 0 only asks whether a pid exists).

import { readFileSync } from 'node:fs';

/** What /proc says of a pid; `unknown` where there is no /proc to ask (not Linux, or hidden from us). */
export type ProcessState =
  { kind: 'gone' } | { kind: 'exited' } | { kind: 'running'; startTime: string } | { kind: 'unknown' };

/**
 * The text of /proc/<pid>/stat, or undefined when no such process exists; throws when /proc cannot
 * be read at all. Tests pass a fake one.
 */
export type StatReader = (pid: number) => string | undefined;

export function readProcStat(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && hasProc()) return undefined;
    throw error;
  }
}

let procMounted: boolean | undefined;
// Without /proc/self every pid looks "gone"; that must read as "cannot tell", never as "stale".
function hasProc(): boolean {
  if (procMounted === undefined) {
    try {
      readFileSync('/proc/self/stat');
      procMounted = true;
    } catch {
      procMounted = false;
    }
  }
  return procMounted;
}

export function probeProcess(pid: number, read: StatReader = readProcStat): ProcessState {
  let stat: string | undefined;
  try {
    stat = read(pid);
  } catch {
    return { kind: 'unknown' };
  }
  // /proc mounted hidepid=2 (or =invisible) hides other users' processes: ENOENT there says nothing.
  if (stat === undefined) return processExists(pid) ? { kind: 'unknown' } : { kind: 'gone' };
  const fields = statFields(stat);
  if (fields === undefined) return { kind: 'unknown' };
  // Z: exited, waiting for its parent (or init) to reap it; X: being reaped. Neither runs any more.
  if (fields.state === 'Z' || fields.state === 'X') return { kind: 'exited' };
  return { kind: 'running', startTime: fields.startTime };
}

/** Whether `pid` exists: kill(pid, 0) fails with ESRCH only for a pid no process holds (EPERM: someone else's). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

let ownStart: string | null | undefined;

/** This process's start time (clock ticks after boot, /proc/self/stat field 22), or null where unknown. */
export function ownStartTime(): string | null {
  if (ownStart === undefined) {
    const state = probeProcess(process.pid);
    ownStart = state.kind === 'running' ? state.startTime : null;
  }
  return ownStart;
}

/**
 * Field 3 (state) and field 22 (start time) of a stat line. The command name (field 2) is in
 * parentheses and may itself hold spaces and parentheses, so fields are counted from the last ")".
 */
export function statFields(stat: string): { state: string; startTime: string } | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  const rest = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = rest[0];
  const startTime = rest[22 - 3];
  if (state === undefined || startTime === undefined || !/^\d+$/.test(startTime)) return undefined;
  return { state, startTime };
}
