// What request headers change on /api/graphql: Accept (the response media type and status codes),
// Origin with --cors-origin (CORS), and the one log line per request, which never holds a token.
// Accept and CORS are rules of the routes, so they run in process with no socket; the log line is the
// node adapter's, so that suite talks HTTP to a real server.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { SERVE_HELP } from '../src/cli/help.ts';
import { parseCorsOrigins } from '../src/cli/options.ts';
import { MinihubError } from '../src/errors.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE, startTestServer, type Reply, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

function post(hub: TestServer | InProcessHub, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return hub.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${hub.token}`, ...headers },
    body: JSON.stringify(body),
  });
}

// --- Accept ---------------------------------------------------------------------------------------

const media = suite<{ hub: InProcessHub }>('Accept: the response media type');

media.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
media.after(async ({ hub }) => hub.close());

media(
  'answers application/graphql-response+json to a client that asks for it, application/json otherwise',
  async ({ hub }) => {
    const query = { query: `{ dataset(urn: "${ORDERS}") { urn } }` };
    // Twice each, the same body: the second of each pair is a response-cache hit, which must keep its own type.
    for (const [accept, expected] of [
      [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
      [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
      ['application/json', 'application/json'],
      ['application/json', 'application/json'],
      ['*/*', 'application/json'],
      [`application/json;q=0.9, ${GRAPHQL_RESPONSE}`, GRAPHQL_RESPONSE],
      [`${GRAPHQL_RESPONSE};q=0.5, application/json`, 'application/json'],
      ['text/html', 'application/json'],
    ] as const) {
      const reply = await post(hub, query, { Accept: accept });
      assert.is(reply.status, 200, accept);
      assert.is(reply.headers.get('content-type'), `${expected}; charset=utf-8`, accept);
      assert.equal(reply.json, { data: { dataset: { urn: ORDERS } }, extensions: {} });
    }
  },
);

const requestErrors: [string, unknown][] = [
  ['a syntax error', { query: '{' }],
  ['a validation error', { query: '{ noSuchField }' }],
  [
    'a variable that does not coerce',
    { query: 'query q($urn: String!) { dataset(urn: $urn) { urn } }', variables: { urn: null } },
  ],
];
for (const [what, body] of requestErrors) {
  media(
    `answers ${what} 400 without data for graphql-response+json, and 200 with data: null for application/json`,
    async ({ hub }) => {
      const strict = await post(hub, body, { Accept: GRAPHQL_RESPONSE });
      assert.is(strict.status, 400);
      assert.is(strict.headers.get('content-type'), `${GRAPHQL_RESPONSE}; charset=utf-8`);
      assert.equal(Object.keys(strict.json), ['errors', 'extensions']);
      const datahub = await post(hub, body, { Accept: 'application/json' });
      assert.is(datahub.status, 200);
      assert.equal(Object.keys(datahub.json), ['errors', 'data', 'extensions']);
      assert.is(datahub.json.data, null);
      assert.equal(datahub.json.errors, strict.json.errors);
    },
  );
}

media('keeps 200 with data for a resolver error under graphql-response+json', async ({ hub }) => {
  const reply = await post(
    hub,
    { query: 'mutation { updateDescription(input: {description: "x", resourceUrn: "urn:li:dataset:nope"}) }' },
    { Accept: GRAPHQL_RESPONSE },
  );
  assert.is(reply.status, 200);
  assert.ok('data' in reply.json);
  assert.is(reply.json.errors.length, 1);
});

media('still answers a missing Content-Type 415 and PUT 405, in the negotiated media type', async ({ hub }) => {
  const missing = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { Authorization: `Bearer ${hub.token}`, Accept: GRAPHQL_RESPONSE },
    body: new Uint8Array([123, 125]),
  });
  assert.is(missing.status, 415);
  assert.is(missing.headers.get('content-type'), `${GRAPHQL_RESPONSE}; charset=utf-8`);
  const put = await hub.request('/api/graphql?query=%7B__typename%7D', {
    method: 'PUT',
    headers: { Authorization: `Bearer ${hub.token}` },
  });
  assert.is(put.status, 405);
  assert.is(put.headers.get('content-type'), 'application/json; charset=utf-8');
});

media('answers a query sent as GET in the media type it accepts', async ({ hub }) => {
  for (const [accept, type] of [
    [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
    ['application/json', 'application/json'],
    [undefined, 'application/json'],
  ] as const) {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${hub.token}`,
      ...(accept === undefined ? {} : { Accept: accept }),
    };
    const reply = await hub.request('/api/graphql?query=%7B__typename%7D', { headers });
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('content-type'), `${type}; charset=utf-8`);
    assert.equal(reply.json, { data: { __typename: 'Query' }, extensions: {} });
  }
});

media.run();

// --- CORS -----------------------------------------------------------------------------------------

const ALLOWED = 'http://localhost:3000';
const cors = suite<{ hub: InProcessHub; open: InProcessHub; closed: InProcessHub }>('--cors-origin');

cors.before(async (context) => {
  context.hub = await openInProcess({ corsOrigins: [ALLOWED, 'https://catalog.example.com'] });
  context.open = await openInProcess({ corsOrigins: ['*'] });
  context.closed = await openInProcess();
});
cors.after(async ({ hub, open, closed }) => {
  await Promise.all([hub.close(), open.close(), closed.close()]);
});

const preflight = (hub: InProcessHub, origin: string) =>
  hub.request('/api/graphql', {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    },
  });
const corsHeaders = (reply: Reply) => [...reply.headers.keys()].filter((name) => name.startsWith('access-control-'));

cors('answers a preflight from an allowed origin with 204 and the CORS headers, without a token', async ({ hub }) => {
  const reply = await preflight(hub, ALLOWED);
  assert.is(reply.status, 204);
  assert.is(reply.text, '');
  assert.is(reply.headers.get('access-control-allow-origin'), ALLOWED);
  assert.is(reply.headers.get('access-control-allow-methods'), 'GET, POST');
  assert.is(reply.headers.get('access-control-allow-headers'), 'Authorization, Content-Type');
  assert.match(reply.headers.get('access-control-max-age') ?? '', /^\d+$/);
  assert.is(reply.headers.get('vary'), 'Origin');
});

cors('sends Access-Control-Allow-Origin on POST answers to an allowed origin, refusals included', async ({ hub }) => {
  const answer = await post(hub, { query: '{ me { corpUser { username } } }' }, { Origin: ALLOWED });
  assert.is(answer.status, 200);
  assert.is(answer.headers.get('access-control-allow-origin'), ALLOWED);
  const refused = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { Origin: ALLOWED, 'Content-Type': 'application/json' },
    body: '{"query": "{ __typename }"}',
  });
  assert.is(refused.status, 401);
  assert.is(refused.headers.get('access-control-allow-origin'), ALLOWED, 'the page can read why it was refused');
  for (const reply of [answer, refused]) assert.is(reply.headers.get('vary'), 'Accept, Authorization, Origin');
});

cors('gives another origin no CORS headers, and its preflight stays 405', async ({ hub }) => {
  const reply = await preflight(hub, 'http://evil.example.com');
  assert.is(reply.status, 405);
  assert.equal(corsHeaders(reply), []);
  const answer = await post(hub, { query: '{ __typename }' }, { Origin: 'http://evil.example.com' });
  assert.is(answer.status, 200);
  assert.equal(corsHeaders(answer), []);
});

cors('answers * to any origin when configured with *', async ({ open }) => {
  const reply = await preflight(open, 'http://anywhere.example.org:8443');
  assert.is(reply.status, 204);
  assert.is(reply.headers.get('access-control-allow-origin'), '*');
  const answer = await post(open, { query: '{ __typename }' }, { Origin: 'http://anywhere.example.org:8443' });
  assert.is(answer.headers.get('access-control-allow-origin'), '*');
});

cors('changes nothing without --cors-origin: OPTIONS is 405 and no CORS headers are sent', async ({ closed }) => {
  const reply = await preflight(closed, ALLOWED);
  assert.is(reply.status, 405);
  assert.equal(corsHeaders(reply), []);
  // The answer still varies with Accept and the token, but not with Origin.
  assert.is(reply.headers.get('vary'), 'Accept, Authorization');
});

cors('offers --cors-origin on the command line: in serve --help, and checked as an origin', () => {
  assert.match(SERVE_HELP, /--cors-origin ORIGIN/);
  assert.equal(parseCorsOrigins(['*', ALLOWED, 'https://a.example.com:8443']), [
    '*',
    ALLOWED,
    'https://a.example.com:8443',
  ]);
  for (const bad of ['localhost:3000', 'http://localhost:3000/app', 'ftp://x']) {
    assert.throws(
      () => parseCorsOrigins([bad]),
      (error: unknown) => error instanceof MinihubError && /--cors-origin/.test(error.message),
    );
  }
});

cors.run();

// --- the request log ------------------------------------------------------------------------------

const log = suite<{ hub: TestServer; lines: string[] }>('one log line per request');

log.before(async (context) => {
  context.lines = [];
  context.hub = await startTestServer({ seed: [SAMPLE], logRequest: (line) => context.lines.push(line) });
});
log.after(async ({ hub }) => hub.close());

log(
  'names the operation: operationName if given, else the first root field; never a token or variables',
  async ({ hub, lines }) => {
    const secret = await hub.createToken('datahub', { name: 'log test' });
    const input = { description: 'logged? never', resourceUrn: ORDERS };
    await post(
      hub,
      { query: 'mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', variables: { input } },
      { Authorization: `Bearer ${secret}` },
    );
    await post(hub, { query: `query getDataset { dataset(urn: "${ORDERS}") { urn } }`, operationName: 'getDataset' });
    await post(hub, { query: `{ dataset(urn: "${ORDERS}") { urn } }` });
    await post(hub, { query: `{ dataset(urn: "${ORDERS}") { urn } }` }); // answered from the response cache
    await post(hub, { query: '{ noSuchField }' });
    await post(hub, { query: '{', operationName: `x\n${secret}` });
    await hub.request('/health?token=' + secret);
    await new Promise((resolve) => setImmediate(resolve));
    assert.is(lines.length, 7);
    const pattern = /^POST \/api\/graphql 200 \d+\.\dms (updateDescription|getDataset|dataset|noSuchField)$/;
    for (const line of lines.slice(0, 5)) assert.match(line, pattern);
    assert.equal(
      lines.slice(0, 5).map((line) => line.split(' ').at(-1)),
      ['updateDescription', 'getDataset', 'dataset', 'dataset', 'noSuchField'],
    );
    assert.match(
      lines[5] ?? '',
      /^POST \/api\/graphql 200 \d+\.\dms$/,
      'an operationName that is not a GraphQL name is left out',
    );
    assert.match(lines[6] ?? '', /^GET \/health 200 \d+\.\dms$/, 'no query string, no operation outside /api/graphql');
    for (const line of lines) {
      assert.not.match(line, secret);
      assert.not.match(line, hub.token);
      assert.not.match(line, 'never');
    }
  },
);

log.run();
