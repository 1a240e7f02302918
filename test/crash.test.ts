// Crashes and shutdowns of a real server process: SIGKILL under 16 concurrent writers loses no
// acknowledged write; SIGTERM finishes the request in flight, then exits 0 and frees the data directory.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { Store } from '../src/store/store.ts';
import { spawnServe } from './fixtures/cli.ts';
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
  await new Promise((resolve) => setTimeout(resolve, 150));

  // No new connection is accepted meanwhile.
  const refused = await fetch(`${server.url}/health`).then(() => false, () => true);
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
  socket.write(`POST /api/graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  server.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 150));
  const started = Date.now();
  const code = await server.stop('SIGTERM');
  assert.is(code, 1);
  assert.ok(Date.now() - started < 2000, 'the second signal does not wait for the grace period');
  socket.destroy();
});

shutdown.run();
