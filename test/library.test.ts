// The library entry as another project uses it: mounting in a host server, reset() speed, close()
// freeing the port and its sockets, no leak over 50 servers, silence by default, and the README example.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';

import { createRequestListener, startServer } from '../src/index.ts';
import { ROOT } from './fixtures/cli.ts';
import { SAMPLE } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const READ = `{ dataset(urn: "${ORDERS}") { properties { description } } }`;

async function gql(graphqlUrl: string, token: string, query: string): Promise<any> {
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.json() };
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Open sockets by kind: TCPServerWrap is a listening socket, TCPSocketWrap a connection (either end). */
function sockets(): { listening: number; connections: number } {
  const types = process.getActiveResourcesInfo();
  return {
    listening: types.filter((type) => type === 'TCPServerWrap').length,
    connections: types.filter((type) => type === 'TCPSocketWrap').length,
  };
}

/**
 * sockets() once the event loop has released what was already closed: a handle closed in this turn
 * is still listed until libuv's close callback runs. Waits up to a second for `expected`.
 */
async function settledSockets(expected: {
  listening: number;
  connections: number;
}): Promise<{ listening: number; connections: number }> {
  const deadline = Date.now() + 1000;
  let now = sockets();
  while ((now.listening !== expected.listening || now.connections !== expected.connections) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    now = sockets();
  }
  return now;
}

/** A raw keep-alive connection that has had one answer and now sits idle, as a pooled client leaves it. */
async function idleConnection(url: string): Promise<Socket> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    socket.once('data', () => resolve());
  });
  return socket;
}

// ---

const mount = suite('createRequestListener');

mount('serves minihub inside a host server that also answers its own routes', async () => {
  const minihub = await createRequestListener({ seed: [SAMPLE] });
  const host = createServer((req, res) => {
    if (req.url === '/app') res.end('the host app');
    else minihub.listener(req, res);
  });
  const port = await listen(host);
  const base = `http://127.0.0.1:${port}`;
  try {
    assert.is(await (await fetch(`${base}/app`)).text(), 'the host app');
    assert.equal(await (await fetch(`${base}/health`)).json(), { status: 'ok' });
    const read = await gql(`${base}/api/graphql`, minihub.token, READ);
    assert.match(read.body.data.dataset.properties.description, /One row per order/);
    assert.is(
      (await gql(`${base}/api/graphql`, 'not a token', READ)).status,
      401,
      'tokens are checked when mounted too',
    );
    assert.is(minihub.seeded[0]?.records, 46);

    // Closed before its host: minihub answers a JSON 503 and the host's own routes go on.
    await minihub.close();
    const closed = await fetch(`${base}/api/graphql`, { method: 'POST' });
    assert.is(closed.status, 503);
    assert.match((await closed.json()).errors[0].message, /closed/);
    assert.is(await (await fetch(`${base}/app`)).text(), 'the host app');
  } finally {
    await closeServer(host);
    await minihub.close();
  }
});

mount.run();

// ---

const lifecycle = suite('startServer lifecycle');

lifecycle('restores the seed with reset() several times faster than a fresh start', async () => {
  // Each timing is the best of five, so one slow garbage collection does not decide the test; the
  // ratio, not a number of milliseconds, keeps it meaningful on a slow machine.
  let startMs = Infinity;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const fresh = await startServer({ seed: [SAMPLE] });
    startMs = Math.min(startMs, performance.now() - started);
    await fresh.close();
  }

  const hub = await startServer({ seed: [SAMPLE] });
  try {
    let resetMs = Infinity;
    for (let i = 0; i < 5; i++) {
      await gql(
        hub.graphqlUrl,
        hub.token,
        `mutation { updateDataset(urn: "${ORDERS}", input: {editableProperties: {description: "changed"}}) { urn } }`,
      );
      await gql(hub.graphqlUrl, hub.token, 'mutation { createTag(input: {id: "scratch", name: "Scratch"}) }');
      assert.is((await gql(hub.graphqlUrl, hub.token, READ)).body.data.dataset.properties.description, 'changed');
      const started = performance.now();
      await hub.reset();
      resetMs = Math.min(resetMs, performance.now() - started);
      assert.match(
        (await gql(hub.graphqlUrl, hub.token, READ)).body.data.dataset.properties.description,
        /One row per order/,
      );
      const tag = await gql(hub.graphqlUrl, hub.token, '{ tag(urn: "urn:li:tag:scratch") { properties { name } } }');
      assert.is(tag.body.data.tag?.properties ?? null, null, 'the tag made after the seed is gone');
    }
    assert.ok(resetMs * 3 < startMs, `reset took ${resetMs.toFixed(2)} ms, a start ${startMs.toFixed(2)} ms`);
  } finally {
    await hub.close();
  }
});

lifecycle('frees the port and every socket by the time close() resolves', async () => {
  const before = await settledSockets({ listening: 0, connections: 0 });
  const hub = await startServer();
  const { port } = new URL(hub.url);
  const idle = await idleConnection(hub.url);
  const ended = new Promise<void>((resolve) => idle.once('close', () => resolve()));
  await hub.close();
  // A plain node:http server binds the same port at once: no EADDRINUSE, nothing left listening.
  const plain = createServer((_req, res) => res.end('plain'));
  assert.is(await listen(plain, Number(port)), Number(port));
  await closeServer(plain);
  // The idle keep-alive connection was dropped by the server, not left for its 5 s keep-alive timeout.
  await ended;
  assert.equal(await settledSockets(before), before);
});

lifecycle('starts and closes 50 servers one after another, leaving no socket open', async () => {
  // global.gc is not exposed under uvu, and heap figures without a collection are noise. A server that
  // is not really closed shows up instead as what it holds open: a listening socket (TCPServerWrap)
  // or a connection (TCPSocketWrap). Each run here also leaves an idle keep-alive connection and a
  // fetch, so both kinds are exercised; after all 50 the counts must be back where they started.
  const round = async () => {
    const hub = await startServer({ seed: [SAMPLE] });
    const read = await gql(hub.graphqlUrl, hub.token, READ);
    assert.match(read.body.data.dataset.properties.description, /One row per order/);
    await idleConnection(hub.url);
    assert.is(sockets().listening >= 1, true);
    await hub.close();
  };
  await round(); // the first run loads modules; count after it
  const before = await settledSockets({ listening: 0, connections: 0 });
  for (let i = 0; i < 50; i++) await round();
  const after = await settledSockets(before);
  assert.is(after.listening, 0, 'no server is still listening');
  assert.equal(after, before);
});

lifecycle('prints nothing by default and hands request lines to logRequest', async () => {
  const written: string[] = [];
  const { write: out } = process.stdout;
  const { write: err } = process.stderr;
  const capture = (chunk: string | Uint8Array): boolean => (written.push(String(chunk)), true);
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  const lines: string[] = [];
  try {
    const quiet = await startServer({ seed: [SAMPLE] });
    await gql(quiet.graphqlUrl, quiet.token, READ);
    await fetch(`${quiet.url}/nowhere`);
    await quiet.close();
    const logged = await startServer({ auth: false, logRequest: (line) => lines.push(line) });
    await gql(logged.graphqlUrl, 'ignored without auth', '{ me { corpUser { username } } }');
    await logged.close();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  assert.equal(written, []);
  assert.is(lines.length, 1);
  assert.match(lines[0] as string, /^POST \/api\/graphql 200 \d+\.\dms me$/);
});

lifecycle.run();

// ---

const readme = suite('README');

readme('shows test/example.test.ts verbatim under "Use it in your tests"', () => {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /^## Use it in your tests\n[\s\S]*?```ts\n([\s\S]*?)```/m.exec(text);
  assert.ok(section !== null, 'README has a "## Use it in your tests" section with a ts block');
  const example = readFileSync(join(ROOT, 'test/example.test.ts'), 'utf8');
  // The one allowed difference: readers import the package by name, the suite imports the source.
  // Exactly one import line is swapped, so any other edit to either copy fails here.
  const asPublished = example.replace(
    "import { sampleCatalogue, startServer } from '../src/index.ts';",
    "import { sampleCatalogue, startServer } from 'minihub';",
  );
  assert.is.not(asPublished, example, 'test/example.test.ts still imports ../src/index.ts');
  assert.is(section[1], asPublished);
});

readme.run();
