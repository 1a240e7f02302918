// The data directory's lock: a zombie owner, a reused pid and a dead pid are taken over; a live owner is
// waited for briefly, then refused; where /proc cannot be read or hides a pid, the old liveness rule still
// holds; a takeover racing other starts never deletes a live lock.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import fs, { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';

import { acquireLock, LOCK_FILE } from '../src/store/lock.ts';
import { probeProcess, readProcStat, statFields, type StatReader } from '../src/store/owner-probe.ts';
import { withFakeTimers } from './fixtures/fake-timers.ts';
import { tempDataDir } from './fixtures/server.ts';

const LINUX = existsSync('/proc/self/stat');
// Above Linux's default pid_max (2^22), so no process holds these pids.
const NO_PID = 4194999;
const FAKE_LIVE = 4194901;
const FAKE_DEAD = 4194902;
const FAKE_LIVE_TOO = 4194903;

/** A running process that is not minihub, stopped by the test that starts it. */
async function sleeper(): Promise<ChildProcess & { pid: number }> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  return child as ChildProcess & { pid: number };
}

function startTimeOf(pid: number): string {
  const fields = statFields(readProcStat(pid) ?? '');
  if (fields === undefined) throw new Error(`no stat for ${pid}`);
  return fields.startTime;
}

function writeLock(dir: string, text: string): void {
  writeFileSync(join(dir, LOCK_FILE), text);
}

function lockText(dir: string): string {
  return readFileSync(join(dir, LOCK_FILE), 'utf8');
}

async function refusal(dir: string, waitMs: number, readStat?: StatReader): Promise<{ message: string; ms: number }> {
  const started = performance.now();
  try {
    const release = await acquireLock(dir, { waitMs, readStat });
    release();
  } catch (error) {
    return { message: (error as Error).message, ms: performance.now() - started };
  }
  throw new Error('the lock was taken, but it should have been refused');
}

const probe = suite('reading /proc/<pid>/stat');

probe('finds the state and the start time after a command name holding spaces and parentheses', () => {
  const stat =
    '4242 (we (ird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615 0 0 0 0';
  assert.equal(statFields(stat), { state: 'S', startTime: '987654' });
  assert.is(statFields('no parentheses at all'), undefined);
});

probe('tells a zombie, a dead process, a missing one and an unreadable /proc apart', () => {
  const stat = (state: string) => `7 (node) ${state} 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5555 0 0`;
  assert.equal(
    probeProcess(7, () => stat('Z')),
    { kind: 'exited' },
  );
  assert.equal(
    probeProcess(7, () => stat('X')),
    { kind: 'exited' },
  );
  assert.equal(
    probeProcess(7, () => stat('R')),
    { kind: 'running', startTime: '5555' },
  );
  assert.equal(
    probeProcess(NO_PID, () => undefined),
    { kind: 'gone' },
  );
  assert.equal(
    probeProcess(7, () => {
      throw Object.assign(new Error('denied'), { code: 'EACCES' });
    }),
    { kind: 'unknown' },
  );
});

probe(
  'a pid /proc does not show but kill(pid, 0) finds (hidepid=2 hides other users) is unknown, not gone',
  async () => {
    const other = await sleeper();
    try {
      assert.equal(
        probeProcess(other.pid, () => undefined),
        { kind: 'unknown' },
      );
    } finally {
      other.kill('SIGKILL');
    }
  },
);

probe.run();

// ---

const lock = suite('taking over a stale lock');

lock('writes its pid and, on Linux, its start time, and removes the lock on release', async () => {
  const dir = tempDataDir();
  const release = await acquireLock(dir);
  const [pid, start] = lockText(dir).split('\n');
  assert.is(pid, String(process.pid));
  if (LINUX) assert.is(start, startTimeOf(process.pid));
  release();
  assert.not.ok(existsSync(join(dir, LOCK_FILE)));
});

lock('takes over a lock held by a zombie: a process that exited and is not yet reaped', async () => {
  if (!LINUX) return;
  const dir = tempDataDir();
  // The shell starts a short sleep, then becomes a long one that never reaps it: the short one stays a zombie.
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const zombie = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    const start = startTimeOf(zombie);
    for (let tries = 0; probeProcess(zombie).kind !== 'exited'; tries++) {
      if (tries > 200) throw new Error(`process ${zombie} did not become a zombie`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // kill(pid, 0) still succeeds for a zombie: the rule before /proc was read refused this lock.
    assert.not.throws(() => process.kill(zombie, 0));
    for (const text of [`${zombie}\n${start}\n`, `${zombie}\n`]) {
      writeLock(dir, text);
      const release = await acquireLock(dir, { waitMs: 0 });
      assert.is(lockText(dir).split('\n')[0], String(process.pid), `lock ${JSON.stringify(text)} taken over`);
      release();
    }
  } finally {
    parent.kill('SIGKILL');
  }
});

lock('takes over a lock whose pid now belongs to another process (its start time differs)', async () => {
  if (!LINUX) return;
  const dir = tempDataDir();
  const other = await sleeper();
  try {
    const start = Number(startTimeOf(other.pid));
    writeLock(dir, `${other.pid}\n${start - 1}\n`);
    const release = await acquireLock(dir, { waitMs: 0 });
    assert.is(lockText(dir).split('\n')[0], String(process.pid));
    release();
  } finally {
    other.kill('SIGKILL');
  }
});

lock('refuses a live owner with the recorded start time, and an older lock without one, after waiting', async () => {
  const dir = tempDataDir();
  const owner = await sleeper();
  try {
    for (const text of LINUX ? [`${owner.pid}\n${startTimeOf(owner.pid)}\n`, `${owner.pid}\n`] : [`${owner.pid}\n`]) {
      writeLock(dir, text);
      const { message, ms } = await refusal(dir, 200);
      assert.match(message, new RegExp(`in use by minihub process ${owner.pid} \\(lock file `));
      assert.ok(ms >= 190, `refused after ${ms.toFixed(0)} ms, before the 200 ms wait was over`);
      assert.is(lockText(dir), text, 'a live owner keeps its lock');
    }
  } finally {
    owner.kill('SIGKILL');
  }
});

lock('waits for an owner that dies meanwhile, then takes the lock', async () => {
  const dir = tempDataDir();
  const owner = await sleeper();
  writeLock(dir, LINUX ? `${owner.pid}\n${startTimeOf(owner.pid)}\n` : `${owner.pid}\n`);
  const killer = setTimeout(() => owner.kill('SIGKILL'), 300);
  const started = performance.now();
  try {
    const release = await acquireLock(dir, { waitMs: 5000 });
    const ms = performance.now() - started;
    assert.ok(ms >= 250, `took the lock after ${ms.toFixed(0)} ms, before its owner was killed`);
    assert.is(lockText(dir).split('\n')[0], String(process.pid));
    release();
  } finally {
    clearTimeout(killer);
    owner.kill('SIGKILL');
  }
});

lock(
  "waits and gives up as long under a test suite's fake timers (the global timers held, the clocks still)",
  async () => {
    const dir = tempDataDir();
    const owner = await sleeper();
    const text = LINUX ? `${owner.pid}\n${startTimeOf(owner.pid)}\n` : `${owner.pid}\n`;
    try {
      writeLock(dir, text);
      // Timed out here: refusal()'s own clock is the faked one.
      const started = performance.now();
      const { message } = await withFakeTimers(() => refusal(dir, 200), 2000);
      const ms = performance.now() - started;
      assert.match(message, new RegExp(`in use by minihub process ${owner.pid} \\(lock file `));
      assert.ok(ms >= 190, `refused after ${ms.toFixed(0)} ms, before the 200 ms wait was over`);
      const killer = setTimeout(() => owner.kill('SIGKILL'), 300);
      try {
        const release = await withFakeTimers(() => acquireLock(dir, { waitMs: 5000 }), 3000);
        assert.is(lockText(dir).split('\n')[0], String(process.pid));
        release();
      } finally {
        clearTimeout(killer);
      }
    } finally {
      owner.kill('SIGKILL');
    }
  },
);

lock('without /proc to read, a live pid is refused whatever its start time and a dead one taken over', async () => {
  const dir = tempDataDir();
  const noProc: StatReader = () => {
    throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
  };
  const owner = await sleeper();
  try {
    writeLock(dir, `${owner.pid}\n1\n`);
    assert.match((await refusal(dir, 0, noProc)).message, new RegExp(`in use by minihub process ${owner.pid}`));
  } finally {
    owner.kill('SIGKILL');
  }
  writeLock(dir, `${NO_PID}\n1\n`);
  const release = await acquireLock(dir, { waitMs: 0, readStat: noProc });
  assert.is(lockText(dir).split('\n')[0], String(process.pid));
  release();
});

lock('the probe decides: a live pid that /proc reports as a zombie is taken over at once', async () => {
  const dir = tempDataDir();
  const owner = await sleeper();
  try {
    writeLock(dir, `${owner.pid}\n`);
    const zombie: StatReader = (pid) =>
      pid === owner.pid ? `${pid} (sleep) Z 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 77 0 0` : readProcStat(pid);
    const release = await acquireLock(dir, { waitMs: 0, readStat: zombie });
    assert.is(lockText(dir).split('\n')[0], String(process.pid));
    release();
  } finally {
    owner.kill('SIGKILL');
  }
});

lock('a live owner that /proc hides (hidepid=2) is refused, not taken over', async () => {
  const dir = tempDataDir();
  const owner = await sleeper();
  try {
    writeLock(dir, `${owner.pid}\n1\n`);
    const hidden: StatReader = (pid) => (pid === owner.pid ? undefined : readProcStat(pid));
    assert.match((await refusal(dir, 0, hidden)).message, new RegExp(`in use by minihub process ${owner.pid}`));
    assert.is(lockText(dir), `${owner.pid}\n1\n`);
  } finally {
    owner.kill('SIGKILL');
  }
});

lock.run();

// ---

const race = suite('takeovers racing each other');

// FAKE_LIVE and FAKE_LIVE_TOO run (started at tick 777); FAKE_DEAD is a zombie. No such pids exist really.
const fakeStat: StatReader = (pid) => {
  const state = pid === FAKE_LIVE || pid === FAKE_LIVE_TOO ? 'S' : pid === FAKE_DEAD ? 'Z' : undefined;
  return state === undefined
    ? readProcStat(pid)
    : `${pid} (node) ${state} 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0`;
};
const STALE = `${FAKE_DEAD}\n777\n`;
const LIVE = `${FAKE_LIVE}\n777\n`;

/**
 * Runs `body` with fs.readFileSync and fs.renameSync wrapped (the lock module's imports follow them), so
 * other processes' steps happen at exact points between this process's own steps.
 */
async function interleaved(
  wrap: { afterRead?: (path: string, text: string) => void; afterRename?: (from: string) => void },
  body: () => Promise<void>,
): Promise<void> {
  const { readFileSync: realRead, renameSync: realRename } = fs;
  const patched = fs as { readFileSync: unknown; renameSync: unknown };
  patched.readFileSync = (...args: Parameters<typeof realRead>) => {
    const text = realRead(...args);
    if (typeof text === 'string') wrap.afterRead?.(String(args[0]), text);
    return text;
  };
  patched.renameSync = (from: string, to: string) => {
    realRename(from, to);
    wrap.afterRename?.(from);
  };
  syncBuiltinESMExports();
  try {
    await body();
  } finally {
    patched.readFileSync = realRead;
    patched.renameSync = realRename;
    syncBuiltinESMExports();
  }
}

race('a lock taken over by another process after this one read the stale lock is left to it', async () => {
  const dir = tempDataDir();
  const path = join(dir, LOCK_FILE);
  writeLock(dir, STALE);
  let aTookOver = false;
  let cLinked = false;
  let message = '';
  await interleaved(
    {
      // Process A takes the stale lock over right after this one has read it...
      afterRead: (file, text) => {
        if (file !== path || text !== STALE || aTookOver) return;
        aTookOver = true;
        fs.rmSync(path);
        fs.writeFileSync(path, LIVE);
      },
      // ...and should this one move the lock path aside, process C links its own lock into the gap.
      afterRename: (from) => {
        if (from !== path || cLinked) return;
        cLinked = true;
        fs.writeFileSync(path, `${FAKE_LIVE_TOO}\n777\n`);
      },
    },
    async () => {
      message = (await refusal(dir, 0, fakeStat)).message;
    },
  );
  assert.ok(aTookOver, 'the stale lock was read');
  assert.is(lockText(dir), LIVE, 'A still holds the lock it took over');
  assert.match(message, new RegExp(`in use by minihub process ${FAKE_LIVE}`));
  assert.equal(
    readdirSync(dir).filter((name) => name.startsWith(LOCK_FILE)),
    [LOCK_FILE],
    'no takeover file left behind',
  );
});

race('a takeover guard left by a process killed mid-takeover is itself taken over', async () => {
  const dir = tempDataDir();
  writeLock(dir, STALE);
  // A process (pid NO_PID, gone) was killed while it held the guard for the stale lock's owner.
  writeFileSync(join(dir, `${LOCK_FILE}.takeover-${FAKE_DEAD}-777`), `${NO_PID}\n1\n`);
  const release = await acquireLock(dir, { waitMs: 0, readStat: fakeStat });
  assert.is(lockText(dir).split('\n')[0], String(process.pid));
  release();
  assert.equal(
    readdirSync(dir).filter((name) => name.startsWith(LOCK_FILE)),
    [],
  );
});

race('while a live process holds the takeover guard, the stale lock is left to it', async () => {
  const dir = tempDataDir();
  writeLock(dir, STALE);
  const guard = join(dir, `${LOCK_FILE}.takeover-${FAKE_DEAD}-777`);
  writeFileSync(guard, LIVE);
  const { message } = await refusal(dir, 0, fakeStat);
  assert.match(message, /could not take the lock .*other processes keep taking it/);
  assert.is(lockText(dir), STALE);
  assert.is(readFileSync(guard, 'utf8'), LIVE);
});

race.run();
