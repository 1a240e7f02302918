// Crashes and shutdowns of a real server process: SIGKILL under 16 concurrent writers loses no
// acknowledged write; a restart right after kill -9 is not refused by the dead server's lock, zombie or not; SIGTERM
// finishes the request in flight, then exits 0 and frees the data directory.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { Store } from '../src/store/store.ts';
import { CLI_SCRIPT, ROOT, spawnServe } from './fixtures/cli.ts';
import { crashRound } from './fixtures/crash-loop.ts';
import { SAMPLE, tempDataDir } from './fixtures/server.ts';

const ROUNDS = 3;

const crash = suite('SIGKILL under concurrent writers');

crash(`keeps every acknowledged write over ${ROUNDS} rounds of kill -9 and restart`, async () => {
  const dataDir = tempDataDir();
  let acknowledged = 0;
  let verified = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const result = await crashRound(dataDir, { round });
    assert.equal(result.missing, [], `round ${round}: acknowledged writes lost`);
    assert.ok(result.acknowledged > 0, `round ${round}: the writers got no write acknowledged before the kill`);
    acknowledged += result.acknowledged;
    verified += result.verified;
  }
  console.log(`crash test: ${ROUNDS} rounds, ${acknowledged} writes acknowledged, ${verified} verified after restart`);
  assert.is(verified, acknowledged);
});

crash.run();

// ---

const restart = suite('restart right after kill -9');

restart(
  'a server started through tsx, killed with kill -9 while still a zombie, is replaced at once on the same data directory',
  async () => {
    // Zombies are told from /proc, which only Linux has; elsewhere a lock stays refused while its pid exists.
    if (!existsSync('/proc/self/stat')) return;
    const dataDir = tempDataDir();
    // tsx's command runs the server as its child. Stopping tsx before the kill keeps the killed server a zombie
    // (nobody reaps it) for as long as the test needs: kill(pid, 0) still finds it, and only the lock's zombie
    // rule lets the next start through, where otherwise it would wait LOCK_WAIT_MS and be refused.
    // What matters is tsx's layout, not what it compiles: it runs the build `npm test` made, the sources
    // only when this file runs alone (compiling them costs about 1 CPU-s more).
    const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
    const parent = spawn(process.execPath, [tsxCli, CLI_SCRIPT, 'serve', '--port', '0', '--data', dataDir, '--quiet'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const parentExited = new Promise((resolve) => parent.once('close', resolve));
    const killGroup = () => process.kill(-(parent.pid as number), 'SIGKILL');
    let stdout = '';
    parent.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      for (const started = Date.now(); !/^ {2}try /m.test(stdout);) {
        if (Date.now() - started > 10_000) throw new Error(`no banner from the server under tsx: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const server = Number(readFileSync(join(dataDir, 'minihub.lock'), 'utf8').split('\n')[0]);
      assert.is.not(server, parent.pid, "the lock is held by the server, tsx's child");
      assert.is(parentPid(server), parent.pid, "the server is tsx's own child, which only tsx may reap");
      process.kill(parent.pid as number, 'SIGSTOP');
      process.kill(server, 'SIGKILL');
      for (let tries = 0; !isZombie(server); tries++) {
        if (tries > 200) throw new Error(`the killed server ${server} did not become a zombie`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.not.throws(() => process.kill(server, 0), 'kill(pid, 0) still finds the zombie');

      const started = performance.now();
      const next = await spawnServe(['--port', '0', '--data', dataDir, '--quiet']);
      const ms = performance.now() - started;
      try {
        assert.is(readFileSync(join(dataDir, 'minihub.lock'), 'utf8').split('\n')[0], String(next.child.pid));
        assert.ok(isZombie(server), 'the killed server was still a zombie when the new one took the lock');
        const health = await fetch(`${next.url}/health`);
        assert.is(health.status, 200);
        console.log(
          `restart after kill -9: the new server was up ${ms.toFixed(0)} ms later, its predecessor still a zombie`,
        );
      } finally {
        await next.stop();
      }
    } finally {
      killGroup();
      await parentExited;
    }
  },
);

restart.run();

function readStatOrEmpty(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

function isZombie(pid: number): boolean {
  return /\) Z /.test(readStatOrEmpty(pid));
}

/** Field 4 of /proc/<pid>/stat, counted from the ")" that ends the command name. */
function parentPid(pid: number): number {
  const stat = readStatOrEmpty(pid);
  return Number(
    stat
      .slice(stat.lastIndexOf(')') + 1)
      .trim()
      .split(/\s+/)[1],
  );
}

// ---

/**
 * Resolves once `port` refuses a new connection (the server has stopped listening), or after `withinMs`
 * whatever happened: the assertions that follow then say what is wrong. Polled, not a fixed sleep.
 */
async function untilRefused(host: string, port: number, withinMs = 3000): Promise<void> {
  for (const started = Date.now(); Date.now() - started < withinMs;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(port, host);
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const shutdown = suite('SIGTERM');

shutdown('stops accepting, finishes the request in flight, syncs, releases the lock and exits 0', async () => {
  const dataDir = tempDataDir();
  const server = await spawnServe(['--port', '0', '--data', dataDir, '--seed', SAMPLE, '--quiet']);
  const token = /^ {10}(eyJ\S+)$/m.exec(server.banner)?.[1] as string;
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify({ query: 'mutation { createTag(input: {id: "in-flight", name: "in flight"}) }' });

  // A request whose body is only half sent when the signal comes.
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const ended = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /api/graphql HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 150));
  const exited = server.stop('SIGTERM');
  await untilRefused(hostname, Number(port));

  // No new connection is accepted meanwhile.
  const refused = await fetch(`${server.url}/health`).then(
    () => false,
    () => true,
  );
  assert.ok(refused, 'a new connection is refused while shutting down');

  socket.write(body.slice(20));
  await ended;
  assert.match(answer, /^HTTP\/1\.1 200/);
  assert.match(answer, /"createTag":"urn:li:tag:in-flight"/);
  assert.is(await exited, 0);
  assert.not.ok(existsSync(join(dataDir, 'minihub.lock')), 'the lock is released');
  const store = await Store.open({ dataDir });
  assert.ok(store.catalogue.exists('urn:li:tag:in-flight'), 'the in-flight write is durable');
  await store.close();
});

shutdown('exits at once on a second signal', async () => {
  // Without auth the server reads the body, so a request that never completes keeps the first SIGTERM waiting.
  const server = await spawnServe(['--port', '0', '--memory', '--quiet', '--no-auth']);
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /api/graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  server.child.kill('SIGTERM');
  await untilRefused(hostname, Number(port));
  const started = Date.now();
  const code = await server.stop('SIGTERM');
  assert.is(code, 1);
  assert.ok(Date.now() - started < 2000, 'the second signal does not wait for the grace period');
  socket.destroy();
});

shutdown.run();
