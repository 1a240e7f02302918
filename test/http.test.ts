// The HTTP surface of decisions §2, row by row, against a real server on port 0.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest } from 'node:http';

import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const JSON_HEADERS = { 'Content-Type': 'application/json' };

const http = suite<{ hub: TestServer }>('POST /api/graphql transport');

http.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE], limits: { maxBodyBytes: 4096 } });
});
http.after(async ({ hub }) => hub.close());

http('answers a query with 200 and DataHub\'s envelope {data, extensions: {}}', async ({ hub }) => {
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

for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
  http(`answers ${method} with 405, Allow: POST and a JSON error`, async ({ hub }) => {
    const reply = await hub.request('/api/graphql', { method, headers: { Authorization: `Bearer ${hub.token}` } });
    assert.is(reply.status, 405);
    assert.is(reply.headers.get('allow'), 'POST');
    assert.match(reply.json.errors[0].message, /POST/);
  });
}

const badBodies: [string, string, RegExp][] = [
  ['a body that is not JSON', '{"query": ', /not valid JSON/],
  ['a JSON array', '[1, 2]', /must be an object/],
  ['a JSON string', '"{ me { corpUser { urn } } }"', /must be an object/],
  ['a body without query', '{"variables": {}}', /no "query"/],
  ['a query that is not a string', '{"query": 42}', /"query" must be a string/],
  ['variables that are an array', '{"query": "{ me { corpUser { urn } } }", "variables": [1]}', /"variables" must be an object or null, not an array/],
  ['variables that are a string', '{"query": "{ me { corpUser { urn } } }", "variables": "{}"}', /"variables" must be an object or null, not a string/],
  ['an operationName that is a number', '{"query": "{ me { corpUser { urn } } }", "operationName": 1}', /"operationName" must be a string/],
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
  for (const body of ['{"query": "{ me { corpUser { username } } }", "variables": null}', '{"query": "{ me { corpUser { username } } }"}']) {
    const reply = await hub.request('/api/graphql', { method: 'POST', headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` }, body });
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

http('answers 413 for a body over the limit and closes the connection', async ({ hub }) => {
  const query = `{ me { corpUser { username } } } # ${'x'.repeat(5000)}`;
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` },
    body: JSON.stringify({ query }),
  });
  assert.is(reply.status, 413);
  assert.match(reply.json.errors[0].message, /4096 bytes/);
  assert.is(reply.headers.get('connection'), 'close');
});

http('answers 413 to a chunked body without a length once it passes the limit', async ({ hub }) => {
  const { port, hostname } = new URL(hub.url);
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: '/api/graphql', method: 'POST', headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` } });
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

http('answers a body that is not valid UTF-8 with 400 instead of storing replacement characters', async ({ hub }) => {
  const body = Buffer.concat([Buffer.from('{"query": "mutation { createTag(input: {id: \\"u\\", name: \\"'), Buffer.from([0xff, 0xfe]), Buffer.from('\\"}) }"}')]);
  const reply = await hub.request('/api/graphql', { method: 'POST', headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` }, body });
  assert.is(reply.status, 400);
  assert.match(reply.json.errors[0].message, /not valid UTF-8/);
  assert.is((await hub.gql('{ tag(urn: "urn:li:tag:u") { properties { name } } }')).json.data.tag.properties, null);
});

http('closes the connection when it refuses a request before reading its body', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ query: 'x'.repeat(200_000) }) });
  assert.is(reply.status, 401);
  assert.is(reply.headers.get('connection'), 'close');
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

const errors = suite<{ hub: TestServer }>('GraphQL-level errors');

errors.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
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

errors('answers a resolver error with DataHub\'s extensions, path and a null field', async ({ hub }) => {
  const reply = await hub.gql('mutation { createTag(input: {id: "gold", name: "gold"}) }');
  assert.equal(reply.json.errors[0].extensions, { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' });
  assert.equal(reply.json.errors[0].path, ['createTag']);
  assert.is(reply.json.errors[0].message, 'This Tag already exists!');
});

errors('answers a malformed urn with a 400 that names the urn and what is wrong', async ({ hub }) => {
  for (const urn of ['foo', 'urn:li:dataset:(urn:li:dataPlatform:hive,x)', 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PRDO)']) {
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
    hub.request('/api/graphql', { method: 'POST', headers: { ...JSON_HEADERS, Authorization: `Bearer ${hub.token}` }, body: '{' }),
  ]);
  for (const reply of replies) {
    assert.not.match(reply.text, /\.ts:\d+|at [A-Za-z.]+ \(|stack/);
  }
});

errors.run();
