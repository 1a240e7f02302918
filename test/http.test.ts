// The HTTP surface of decisions §2, row by row (GET /api/graphql: http-get.test.ts). In process: the
// requests go through the same routes and handler as over HTTP, with no socket. Only what the node
// adapter or a socket does stays on a real server: a body streamed without a length, the close after a
// refusal, node's own refusals (Expect, Host) and clients that keep sending or leave mid-body.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

import { spawnServe } from './fixtures/cli.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { rawExchange, SAMPLE, startTestServer, type Reply, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const JSON_HEADERS = { 'Content-Type': 'application/json' };

const http = suite<{ hub: InProcessHub }>('/api/graphql transport');

http.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE], limits: { maxBodyBytes: 4096 } });
});
http.after(async ({ hub }) => hub.close());

http("answers a query with 200 and DataHub's envelope {data, extensions: {}}", async ({ hub }) => {
  const reply = await hub.gql(`{ dataset(urn: "${ORDERS}") { urn } }`);
  assert.is(reply.status, 200);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(reply.json, { data: { dataset: { urn: ORDERS } }, extensions: {} });
});

http('puts errors first, then data, then extensions', async ({ hub }) => {
  const reply = await hub.gql('mutation { createTag(input: {id: "pii", name: "pii"}) }');
  assert.is(reply.status, 200);
  assert.equal(Object.keys(reply.json), ['errors', 'data', 'extensions']);
  assert.equal(reply.json.data, { createTag: null });
  assert.equal(reply.json.extensions, {});
});

// GET runs queries (test/http-get.test.ts); HEAD would have to run one to answer nothing, so it is refused too.
for (const method of ['HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
  http(`answers ${method} with 405, Allow: GET, POST and a JSON error`, async ({ hub }) => {
    const reply = await hub.request('/api/graphql?query=%7B__typename%7D', {
      method,
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    assert.is(reply.status, 405);
    assert.is(reply.headers.get('allow'), 'GET, POST');
    if (method !== 'HEAD')
      assert.match(
        reply.json.errors[0].message,
        /not supported on \/api\/graphql; send a POST with a JSON body, or a query as GET/,
      );
  });
}

const badBodies: [string, string, RegExp][] = [
  ['a body that is not JSON', '{"query": ', /not valid JSON/],
  ['a JSON array', '[1, 2]', /must be an object/],
  ['a JSON string', '"{ me { corpUser { urn } } }"', /must be an object/],
  ['a body without query', '{"variables": {}}', /no "query"/],
  ['a query that is not a string', '{"query": 42}', /"query" must be a string/],
  [
    'variables that are an array',
    '{"query": "{ me { corpUser { urn } } }", "variables": [1]}',
    /"variables" must be an object or null, not an array/,
  ],
  [
    'variables that are a string',
    '{"query": "{ me { corpUser { urn } } }", "variables": "{}"}',
    /"variables" must be an object or null, not a string/,
  ],
  [
    'an operationName that is a number',
    '{"query": "{ me { corpUser { urn } } }", "operationName": 1}',
    /"operationName" must be a string/,
  ],
];
for (const [what, body, message] of badBodies) {
  http(`answers ${what} with 400 and a JSON error naming the problem`, async ({ hub }) => {
    const reply = await hub.request('/api/graphql', {
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
      body,
    });
    assert.is(reply.status, 400);
    assert.match(reply.json.errors[0].message, message);
  });
}

http('accepts variables: null and a missing variables key', async ({ hub }) => {
  for (const body of [
    '{"query": "{ me { corpUser { username } } }", "variables": null}',
    '{"query": "{ me { corpUser { username } } }"}',
  ]) {
    const reply = await hub.request('/api/graphql', {
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
      body,
    });
    assert.is(reply.status, 200);
    assert.equal(reply.json.data, { me: { corpUser: { username: 'datahub' } } });
  }
});

http('answers 415 for a body that is not application/json', async ({ hub }) => {
  for (const type of ['text/plain', 'application/graphql', 'application/x-www-form-urlencoded']) {
    const reply = await hub.request('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': type, Authorization: `Bearer ${hub.token}` },
      body: '{"query": "{ me { corpUser { urn } } }"}',
    });
    assert.is(reply.status, 415, type);
    assert.match(reply.json.errors[0].message, /application\/json/);
  }
});

http('accepts application/json with a charset parameter', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', Authorization: `Bearer ${hub.token}` },
    body: '{"query": "{ me { corpUser { username } } }"}',
  });
  assert.is(reply.status, 200);
});

/** What the in-process hub and a real server share: a root token and a way to send a request. */
interface Requester {
  token: string;
  request(path: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<Reply>;
}

/** A request over the 4096-byte body limit both suites set, and the 413 with a close it must get. */
async function assertOverLimitRefused(hub: Requester): Promise<void> {
  const query = `{ me { corpUser { username } } } # ${'x'.repeat(5000)}`;
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
    body: JSON.stringify({ query }),
  });
  assert.is(reply.status, 413);
  assert.match(reply.json.errors[0].message, /4096 bytes/);
  assert.is(reply.headers.get('connection'), 'close');
}

// The handler's answer asks for the close; the same request over a socket is tested below.
http('answers 413 for a body over the limit and closes the connection', ({ hub }) => assertOverLimitRefused(hub));

http('answers a body that is not valid UTF-8 with 400 instead of storing replacement characters', async ({ hub }) => {
  const body = Buffer.concat([
    Buffer.from('{"query": "mutation { createTag(input: {id: \\"u\\", name: \\"'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('\\"}) }"}'),
  ]);
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
    body,
  });
  assert.is(reply.status, 400);
  assert.match(reply.json.errors[0].message, /not valid UTF-8/);
  assert.is((await hub.gql('{ tag(urn: "urn:li:tag:u") { properties { name } } }')).json.data.tag.properties, null);
});

http('answers GET /health with 200 {"status":"ok"} and needs no token', async ({ hub }) => {
  const reply = await hub.request('/health');
  assert.is(reply.status, 200);
  assert.equal(reply.json, { status: 'ok' });
});

http('answers GET /config with noCode "true" and needs no token', async ({ hub }) => {
  const reply = await hub.request('/config');
  assert.is(reply.status, 200);
  assert.is(reply.json.noCode, 'true');
});

http('answers an unknown path with 404 listing the real endpoints', async ({ hub }) => {
  const reply = await hub.request('/api/v2/graphql', { method: 'POST' });
  assert.is(reply.status, 404);
  assert.ok(reply.json.errors[0].extensions.endpoints.includes('POST /api/graphql'));
  assert.match(reply.json.errors[0].message, /POST \/api\/graphql/);
});

http.run();

// ---

const errors = suite<{ hub: InProcessHub }>('GraphQL-level errors');

errors.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
errors.after(async ({ hub }) => hub.close());

errors('answers a validation error with 200, data null and classification ValidationError', async ({ hub }) => {
  const reply = await hub.gql('{ datset(urn: "x") { urn } }');
  assert.is(reply.status, 200);
  assert.is(reply.json.data, null);
  assert.equal(reply.json.errors[0].extensions, { classification: 'ValidationError' });
  assert.match(reply.json.errors[0].message, /Did you mean "dataset"/);
  assert.ok(Array.isArray(reply.json.errors[0].locations));
});

errors('answers a syntax error with classification InvalidSyntax', async ({ hub }) => {
  const reply = await hub.gql('{ dataset(urn: "x" { urn } }');
  assert.is(reply.status, 200);
  assert.is(reply.json.data, null);
  assert.equal(reply.json.errors[0].extensions, { classification: 'InvalidSyntax' });
});

errors('answers a variable of the wrong type as a ValidationError', async ({ hub }) => {
  const reply = await hub.gql('query q($urn: String!) { dataset(urn: $urn) { urn } }', { urn: 42 });
  assert.is(reply.status, 200);
  assert.is(reply.json.data, null);
  assert.equal(reply.json.errors[0].extensions, { classification: 'ValidationError' });
});

errors("answers a resolver error with DataHub's extensions, path and a null field", async ({ hub }) => {
  const reply = await hub.gql('mutation { createTag(input: {id: "gold", name: "gold"}) }');
  assert.equal(reply.json.errors[0].extensions, {
    code: 400,
    type: 'BAD_REQUEST',
    classification: 'DataFetchingException',
  });
  assert.equal(reply.json.errors[0].path, ['createTag']);
  assert.is(reply.json.errors[0].message, 'This Tag already exists!');
});

errors('answers a malformed urn with a 400 that names the urn and what is wrong', async ({ hub }) => {
  for (const urn of [
    'foo',
    'urn:li:dataset:(urn:li:dataPlatform:hive,x)',
    'urn:li:dataset:(urn:li:dataPlatform:hive,x,PRDO)',
  ]) {
    const reply = await hub.gql('query q($urn: String!) { dataset(urn: $urn) { urn } }', { urn });
    assert.equal(reply.json.data, { dataset: null });
    assert.is(reply.json.errors[0].extensions.code, 400, urn);
    assert.ok(reply.json.errors[0].message.includes(urn), reply.json.errors[0].message);
  }
});

errors('never sends a stack trace', async ({ hub }) => {
  const replies = await Promise.all([
    hub.gql('{ dataset(urn: "foo") { urn } }'),
    hub.gql('{ nope }'),
    hub.request('/api/graphql', {
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
      body: '{',
    }),
  ]);
  for (const reply of replies) {
    assert.not.match(reply.text, /\.ts:\d+|at [A-Za-z.]+ \(|stack/);
  }
});

errors.run();

// ---

const socket = suite<{ hub: TestServer }>('/api/graphql transport over a socket (the node adapter)');

socket.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE], limits: { maxBodyBytes: 4096 } });
});
socket.after(async ({ hub }) => hub.close());

socket('answers 413 to a chunked body without a length once it passes the limit', async ({ hub }) => {
  const { port, hostname } = new URL(hub.url);
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({
      host: hostname,
      port,
      path: '/api/graphql',
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    // Keep writing well past the limit; the server must answer without waiting for the end.
    req.write('{"query": "');
    for (let i = 0; i < 8; i++) req.write('y'.repeat(1024));
  });
  assert.is(status, 413);
});

socket('answers 413 to a Content-Length over the limit before reading the body, and closes the connection', ({ hub }) =>
  assertOverLimitRefused(hub),
);

socket('closes the connection when it refuses a request before reading its body', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ query: 'x'.repeat(200_000) }),
  });
  assert.is(reply.status, 401);
  assert.is(reply.headers.get('connection'), 'close');
});

socket.run();

// ---

const hostile = suite<{ hub: TestServer; logged: string[] }>('hostile HTTP (found by the fuzz test)');

hostile.before(async (context) => {
  context.logged = [];
  context.hub = await startTestServer({
    seed: [SAMPLE],
    limits: { maxBodyBytes: 4096 },
    log: (message) => context.logged.push(message),
  });
});
hostile.after(async ({ hub }) => hub.close());

hostile('answers an upload over the limit with 413 even while the client keeps sending, every time', async () => {
  // Closing with the rest of the upload unread used to reset the connection, losing about one 413 in ten.
  // Only a separate process shows it: in this one, client and server take turns on one event loop.
  const server = await spawnServe(['--port', '0', '--memory', '--quiet', '--max-body-bytes', '4096']);
  try {
    const { hostname, port } = new URL(server.url);
    const token = /^ {10}(eyJ\S+)$/m.exec(server.banner)?.[1] as string;
    const head = `POST /api/graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`;
    const upload = () =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(port), hostname);
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve(answer));
        socket.write(head);
        // Like curl: the body goes out as fast as the socket takes it, whatever comes back meanwhile.
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < 1_000_000 && !socket.destroyed) {
            sent += chunk.length;
            if (!socket.write(chunk)) return void socket.once('drain', pump);
          }
        };
        pump();
      });
    let lost = 0;
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all([upload(), upload(), upload(), upload()]);
      lost += answers.filter((answer) => !/^HTTP\/1\.1 413 /.test(answer)).length;
    }
    assert.is(lost, 0, `${lost} of 60 uploads got no 413`);
  } finally {
    await server.stop('SIGKILL');
  }
});

hostile('answers an Expect it cannot meet with 417 and a JSON body', async ({ hub }) => {
  const body = JSON.stringify({ query: '{ me { corpUser { username } } }' });
  const answer = await rawExchange(hub, [
    Buffer.from(
      `POST /api/graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${hub.token}\r\nContent-Type: application/json\r\n` +
        `Expect: 200-ok\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ),
  ]);
  assert.match(answer, /^HTTP\/1\.1 417 /);
  assert.match(
    answer,
    /\r\n\r\n\{"errors":\[\{"message":"Expect: 200-ok is not supported; only 100-continue is"\}\]\}$/,
  );
});

hostile('answers an HTTP/1.1 request without Host with 400 and a JSON body', async ({ hub }) => {
  const answer = await rawExchange(hub, [Buffer.from('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n')]);
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /\{"errors":\[\{"message":"an HTTP\/1\.1 request needs a Host header"\}\]\}$/);
  assert.match(await rawExchange(hub, [Buffer.from('GET /health HTTP/1.0\r\n\r\n')]), /^HTTP\/1\.1 200 /);
});

hostile('does not log a client that leaves mid-body as a server error', async ({ hub, logged }) => {
  const { hostname, port } = new URL(hub.url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  socket.write(
    `POST /api/graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${hub.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"`,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(logged, []);
  assert.is((await hub.request('/health')).status, 200);
});

hostile.run();
