// With every allowed connection held by stalled clients, /health still answers at once and other requests
// get a JSON 503, each on a connection closed after its one answer; a stalled connection past the limit is
// closed within the grace period (fake timers or not); once the stalled clients leave, everything is served again.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Socket } from 'node:net';

import { OVER_LIMIT_GRACE_MS, overLimitRoom } from '../src/http/connection-limit.ts';
import { withFakeTimers } from './fixtures/fake-timers.ts';
import { rawExchange, startTestServer, type TestServer } from './fixtures/server.ts';

const MAX_CONNECTIONS = 20;
// How long the server may take to count stalled connections opened or closed: generous, as only a failure waits it out.
const SETTLE_DEADLINE_MS = 2000;

const limit = suite<{ hub: TestServer; stalled: Socket[] }>('past maxConnections');

limit.before(async (context) => {
  context.hub = await startTestServer({ limits: { maxConnections: MAX_CONNECTIONS } });
  context.stalled = [];
});
limit.after(async ({ hub, stalled }) => {
  for (const socket of stalled) socket.destroy();
  await hub.close();
});

/** Opens a connection that sends nothing, resolved once connected. */
function stall(hub: TestServer): Promise<Socket> {
  const { hostname, port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Asks for /config until the server, having counted the stalled connections, refuses it (or the deadline
 * passes), and returns the last answer. Each ask closes its connection, so one served early holds nothing.
 */
async function refusedWithin(hub: TestServer, deadlineMs: number): Promise<string> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    const answer = await askConfig(hub);
    if (/^HTTP\/1\.1 503 /.test(answer) || performance.now() > deadline) return answer;
    await pause(5);
  }
}

/** GET /config on a connection of its own, closed after the answer; '' when the server drops it. */
const askConfig = (hub: TestServer): Promise<string> =>
  rawExchange(hub, 'GET /config HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

limit('answers /health at once while stalled clients hold every connection, and others a JSON 503', async (context) => {
  const { hub } = context;
  for (let i = 0; i < MAX_CONNECTIONS; i++) context.stalled.push(await stall(hub));

  const refused = await refusedWithin(hub, SETTLE_DEADLINE_MS);
  assert.match(refused, /^HTTP\/1\.1 503 /, `the limit is reached within ${SETTLE_DEADLINE_MS} ms`);
  assert.match(refused, /\r\nRetry-After: 1\r\n/i);
  assert.match(
    refused,
    /\{"errors":\[\{"message":"minihub has 20 connections open, its limit \(maxConnections\); try again shortly"\}\]\}$/,
  );

  const started = performance.now();
  const health = await rawExchange(hub, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  const elapsed = performance.now() - started;
  assert.match(health, /^HTTP\/1\.1 200 /);
  assert.match(health, /\r\nConnection: close\r\n/i);
  assert.match(health, /\{"status":"ok"\}$/);
  // node's own limit dropped such a connection unanswered, and the client retried for ~11 s.
  assert.ok(elapsed < 1000, `/health took ${elapsed.toFixed(0)} ms`);
});

limit('closes a connection past the limit that sends nothing within the grace period', async ({ hub }) => {
  const started = performance.now();
  // Under a test suite's fake timers, as minihub embedded in one runs: the grace period is not theirs to hold.
  await withFakeTimers(async () => {
    const socket = await stall(hub);
    await new Promise((resolve) => socket.once('close', resolve));
  }, OVER_LIMIT_GRACE_MS + 1500);
  const elapsed = performance.now() - started;
  assert.ok(elapsed < OVER_LIMIT_GRACE_MS + 1000, `closed after ${elapsed.toFixed(0)} ms`);
});

limit('drops connections beyond the room past the limit at once, as node does', async ({ hub }) => {
  const extra: Socket[] = [];
  for (let i = 0; i < overLimitRoom(MAX_CONNECTIONS) + 5; i++) {
    const socket = connect(Number(new URL(hub.url).port), '127.0.0.1');
    socket.on('error', () => {});
    extra.push(socket);
  }
  // Dropped at once, not after the grace of a connection past the limit: looked at until shortly before it
  // ends, so that a busy machine's slow turns cannot fail a drop that did happen.
  const dropped = () => extra.filter((socket) => socket.destroyed || socket.readableEnded).length;
  const deadline = performance.now() + OVER_LIMIT_GRACE_MS * 0.8;
  while (dropped() < 5 && performance.now() < deadline) await pause(10);
  const count = dropped();
  for (const socket of extra) socket.destroy();
  assert.ok(count >= 5, `${count} of ${extra.length} connections were dropped at once`);
});

limit('serves everything again once the stalled clients leave', async (context) => {
  for (const socket of context.stalled.splice(0)) socket.destroy();
  // The server sees the closes a moment later and, until then, node may drop a new connection unanswered
  // (fetch was seen to wait on such a one for seconds): asked again, on a fresh connection each time, until served.
  const deadline = performance.now() + SETTLE_DEADLINE_MS;
  let answer = await askConfig(context.hub);
  while (!answer.startsWith('HTTP/1.1 200 ') && performance.now() < deadline) {
    await pause(5);
    answer = await askConfig(context.hub);
  }
  assert.match(answer, /^HTTP\/1\.1 200 /, `served again within ${SETTLE_DEADLINE_MS} ms`);
  const reply = await context.hub.request('/config');
  assert.is(reply.status, 200);
  assert.is(reply.json.noCode, 'true');
});

limit.run();
