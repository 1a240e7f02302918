// The route table and GraphQL over HTTP's rules, called in process with no socket (json-server's style):
// one row per request, each checking its status and the headers or body parts that rule is about.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';

const ME = '{ me { corpUser { username } } }';
const JSON_BODY = { 'Content-Type': 'application/json' };
const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const MAX_BODY = 4096;

interface Row {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the root token (the default); false sends none. */
  token?: boolean;
  status: number;
  /** Headers that must have exactly these values. */
  has?: Record<string, string>;
  /** Whether the handler read the body; checked only where the row says. */
  bodyRead?: boolean;
  /** A part of the JSON body, compared with assert.equal; bodies are read by path, as the row names it. */
  json?: (body: any) => unknown;
  expected?: unknown;
}

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  path: '/api/graphql',
  headers: { ...JSON_BODY, ...headers },
  body: JSON.stringify(body),
});
const get = (search: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  path: `/api/graphql?${search}`,
  headers,
});

const ROWS: Row[] = [
  // The small JSON routes.
  {
    name: 'GET /health is ok',
    method: 'GET',
    path: '/health',
    status: 200,
    json: (b) => b,
    expected: { status: 'ok' },
  },
  { name: 'HEAD /health is answered', method: 'HEAD', path: '/health', status: 200 },
  { name: 'POST /health is 405 naming GET', method: 'POST', path: '/health', status: 405, has: { allow: 'GET, HEAD' } },
  {
    name: 'GET /config says noCode',
    method: 'GET',
    path: '/config',
    status: 200,
    json: (b) => b.noCode,
    expected: 'true',
  },
  { name: 'DELETE /config is 405', method: 'DELETE', path: '/config', status: 405 },
  {
    name: 'an unknown path is a JSON 404 listing the routes',
    method: 'GET',
    path: '/nope?x=1',
    status: 404,
    json: (b) => b.errors[0].extensions.endpoints.length,
    expected: 14,
  },
  // DataHub's REST (Rest.li) collections: their own handler, whose refusals are Rest.li error bodies.
  {
    name: 'GET /entitiesV2/{urn} without a token is a Rest.li 401, before anything is read',
    method: 'GET',
    path: '/entitiesV2/urn%3Ali%3Atag%3Apii',
    token: false,
    status: 401,
    has: { 'x-restli-error-response': 'true', 'x-restli-protocol-version': '2.0.0' },
    json: (b) => b.status,
    expected: 401,
  },
  {
    name: 'GET /aspects?action=ingestProposal is 405 naming POST, its body unread',
    method: 'GET',
    path: '/aspects?action=ingestProposal',
    status: 405,
    has: { allow: 'POST', 'x-restli-error-response': 'true' },
    bodyRead: false,
  },
  {
    name: 'POST /aspects?action=ingestProposal as text/plain is a Rest.li 415',
    method: 'POST',
    path: '/aspects?action=ingestProposal',
    headers: { 'Content-Type': 'text/plain' },
    body: '{}',
    status: 415,
    has: { 'x-restli-error-response': 'true' },
  },
  {
    name: '/api/graphql/ with a slash is no route',
    method: 'POST',
    path: '/api/graphql/',
    ...{ headers: JSON_BODY, body: '{}' },
    status: 404,
  },
  // GraphiQL's files.
  {
    name: 'GET /api/graphiql is the page',
    method: 'GET',
    path: '/api/graphiql',
    status: 200,
    has: { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff' },
  },
  {
    name: 'HEAD of the page has its length and no body',
    method: 'HEAD',
    path: '/api/graphiql',
    status: 200,
    json: (b) => b,
    expected: undefined,
  },
  {
    name: 'POST /api/graphiql is 405',
    method: 'POST',
    path: '/api/graphiql',
    status: 405,
    has: { allow: 'GET, HEAD' },
  },
  { name: 'a file not listed is 404', method: 'GET', path: '/api/graphiql/../package.json', status: 404 },
  // /api/graphql: method, token, content type, size, JSON; none of these reads a body it refuses.
  {
    name: 'PUT is 405 naming GET and POST',
    method: 'PUT',
    path: '/api/graphql',
    body: '{}',
    status: 405,
    has: { allow: 'GET, POST' },
    bodyRead: false,
  },
  { name: 'HEAD is 405 too', method: 'HEAD', path: '/api/graphql', status: 405 },
  {
    name: 'no token is 401 with the bare challenge',
    ...post({ query: ME }),
    token: false,
    status: 401,
    has: { 'www-authenticate': 'Bearer realm="minihub"' },
    bodyRead: false,
  },
  {
    name: 'a bad token is 401 invalid_token',
    ...post({ query: ME }, { Authorization: 'Bearer nope' }),
    token: false,
    status: 401,
    has: { 'www-authenticate': 'Bearer realm="minihub", error="invalid_token"' },
    json: (b) => b.errors[0].extensions.type,
    expected: 'UNAUTHENTICATED',
  },
  { name: 'text/plain is 415', ...post({ query: ME }, { 'Content-Type': 'text/plain' }), status: 415, bodyRead: false },
  {
    name: 'a body over the limit is 413 and closes',
    ...post({ query: `${ME}#${'x'.repeat(MAX_BODY)}` }),
    status: 413,
    has: { connection: 'close' },
  },
  {
    name: 'a body that is not JSON is 400',
    method: 'POST',
    path: '/api/graphql',
    headers: JSON_BODY,
    body: '{"query":',
    status: 400,
  },
  {
    name: 'a body that is not UTF-8 is 400',
    method: 'POST',
    path: '/api/graphql',
    headers: JSON_BODY,
    body: Buffer.from([0x7b, 0xff, 0x7d]),
    status: 400,
  },
  { name: 'a body without "query" is 400', ...post({ variables: {} }), status: 400 },
  // Parameters over GET.
  {
    name: 'a query over GET runs',
    ...get(`query=${encodeURIComponent(ME)}`),
    status: 200,
    json: (b) => b.data.me.corpUser.username,
    expected: 'datahub',
  },
  {
    name: 'an empty operationName over GET means none',
    ...get(`query=${encodeURIComponent(ME)}&operationName=`),
    status: 200,
  },
  { name: 'a GET without query is 400', method: 'GET', path: '/api/graphql', status: 400 },
  { name: 'a repeated GET parameter is 400', ...get(`query=${encodeURIComponent(ME)}&query=x`), status: 400 },
  {
    name: 'a mutation over GET is 405 naming POST',
    ...get(`query=${encodeURIComponent('mutation { createTag(input: {name: "x"}) }')}`),
    status: 405,
    has: { allow: 'POST' },
  },
  {
    name: 'a subscription over GET is 405',
    ...get(`query=${encodeURIComponent('subscription { x }')}`),
    status: 405,
    has: { allow: 'POST' },
  },
  // Media type and its status rules.
  {
    name: 'answers carry no-store and Vary',
    ...post({ query: ME }),
    status: 200,
    has: { 'cache-control': 'no-store', vary: 'Accept, Authorization' },
  },
  {
    name: 'a syntax error is 200 with data null as application/json',
    ...post({ query: '{' }),
    status: 200,
    json: (b) => b.data,
    expected: null,
  },
  {
    name: 'a syntax error is 400 without data as graphql-response+json',
    ...post({ query: '{' }, { Accept: GRAPHQL_RESPONSE }),
    status: 400,
    has: { 'content-type': `${GRAPHQL_RESPONSE}; charset=utf-8` },
    json: (b) => 'data' in b,
    expected: false,
  },
  {
    name: 'a refusal carries the negotiated media type',
    ...post({ query: ME }, { Accept: GRAPHQL_RESPONSE }),
    token: false,
    status: 401,
    has: { 'content-type': `${GRAPHQL_RESPONSE}; charset=utf-8` },
  },
  {
    name: 'a subscription over POST is a validation error in a 200',
    ...post({ query: 'subscription { x }' }),
    status: 200,
    json: (b) => b.data,
    expected: null,
  },
  {
    name: 'a field error stays 200 with data',
    ...post({ query: '{ dataset(urn: "nope") { urn } }' }, { Accept: GRAPHQL_RESPONSE }),
    status: 200,
    json: (b) => b.errors.length,
    expected: 1,
  },
];

type Context = { hub: InProcessHub };

const table = suite<Context>('route table, in process');
table.before(async (context) => {
  context.hub = await openInProcess({ limits: { maxBodyBytes: MAX_BODY } });
});
table.after(async ({ hub }) => hub.close());

for (const row of ROWS) {
  table(`${row.method} ${row.path.split('?')[0]}: ${row.name}`, async ({ hub }) => {
    const headers = { ...(row.token === false ? {} : { Authorization: `Bearer ${hub.token}` }), ...row.headers };
    const reply = await hub.request(row.path, { method: row.method, headers, body: row.body });
    assert.is(reply.status, row.status, reply.text);
    for (const [name, value] of Object.entries(row.has ?? {})) assert.is(reply.headers.get(name), value, name);
    if (row.bodyRead !== undefined) assert.is(reply.bodyRead, row.bodyRead, 'body read');
    if (row.json !== undefined) assert.equal(row.json(reply.json), row.expected);
    // Every answer is JSON except GraphiQL's files; none is an unexpected error.
    if (!row.path.startsWith('/api/graphiql') || row.status >= 400)
      assert.match(reply.headers.get('content-type') ?? '', /json/);
    assert.equal(hub.errors, []);
  });
}

table.run();

const handler = suite<Context>('GraphQL handler, in process');
handler.before(async (context) => {
  context.hub = await openInProcess({ corsOrigins: ['http://app.example'] });
});
handler.after(async ({ hub }) => hub.close());

handler('names the answer by its operation for the log line, also when it comes from the cache', async ({ hub }) => {
  const first = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { ...JSON_BODY, Authorization: `Bearer ${hub.token}` },
    body: JSON.stringify({ query: ME }),
  });
  const again = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { ...JSON_BODY, Authorization: `Bearer ${hub.token}` },
    body: JSON.stringify({ query: ME }),
  });
  assert.is(first.answer.operation, 'me');
  assert.is(again.answer.operation, 'me');
  assert.is(again.text, first.text);
});

handler('answers an allowed preflight 204 without a token or a body', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', { method: 'OPTIONS', headers: { Origin: 'http://app.example' } });
  assert.is(reply.status, 204);
  assert.is(reply.answer.body, null);
  assert.is(reply.headers.get('access-control-allow-origin'), 'http://app.example');
  assert.is(reply.headers.get('access-control-allow-methods'), 'GET, POST');
});

handler('adds Origin to Vary and no allow header for another origin', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { ...JSON_BODY, Origin: 'http://evil.example' },
    body: JSON.stringify({ query: ME }),
  });
  assert.is(reply.status, 401);
  assert.is(reply.headers.get('vary'), 'Accept, Authorization, Origin');
  assert.is(reply.headers.get('access-control-allow-origin'), null);
});

handler.run();
