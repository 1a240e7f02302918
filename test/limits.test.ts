// Each request limit answers fast with a clear error and leaves the server serving: document size,
// tokens, depth, fields, aliases, variables, stored text, headers, slow clients and connections.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { DEFAULT_LIMITS } from '../src/limits.ts';
import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const LIMITS = {
  maxQueryLength: 3000,
  maxTokens: 400,
  maxDepth: 5,
  maxFields: 40,
  maxAliases: 3,
  maxVariablesDepth: 4,
  maxTextBytes: 100,
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  maxConnections: 20,
};

const limits = suite<{ hub: TestServer }>('request limits');
limits.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE], limits: LIMITS });
});
limits.after(async ({ hub }) => hub.close());

limits('answers a query over maxQueryLength with 400', async ({ hub }) => {
  const reply = await hub.gql(`{ me { corpUser { username } } } #${'x'.repeat(3000)}`);
  assert.is(reply.status, 400);
  assert.match(reply.json.errors[0].message, /"query" is \d+ characters long; the limit is 3000/);
});

limits('answers a document over maxTokens with a syntax error', async ({ hub }) => {
  const reply = await hub.gql(
    `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: me { corpUser { username } }`).join(' ')} }`.slice(0, 2900),
  );
  assert.is(reply.status, 200);
  assert.equal(reply.json.errors[0].extensions, { classification: 'InvalidSyntax' });
  assert.is(reply.json.errors[0].message, 'Syntax Error: the document has more than 400 tokens (the maxTokens limit).');
});

limits(
  'answers selections nested deeper than maxDepth with a validation error, fragments included',
  async ({ hub }) => {
    const deep = await hub.gql(
      `{ dataset(urn: "${ORDERS}") { container { container { container { container { urn } } } } } }`,
    );
    assert.equal(deep.json.errors[0].extensions, { classification: 'ValidationError' });
    assert.match(deep.json.errors[0].message, /nests selections more than 5 deep/);
    const viaFragments = await hub.gql(`{ dataset(urn: "${ORDERS}") { ...a } }
    fragment a on Dataset { container { ...b } } fragment b on Container { container { container { container { urn } } } }`);
    assert.match(viaFragments.json.errors[0].message, /more than 5 deep/);
    const fine = await hub.gql(`{ dataset(urn: "${ORDERS}") { container { container { urn } } } }`);
    assert.is(fine.json.errors, undefined);
  },
);

limits('counts fields of a fragment every time it is spread', async ({ hub }) => {
  const spreads = Array.from({ length: 8 }, () => '...f').join(' ');
  const reply = await hub.gql(
    `{ dataset(urn: "${ORDERS}") { ${spreads} } } fragment f on Dataset { urn name type exists origin description }`,
  );
  assert.match(reply.json.errors[0].message, /selects 49 fields; the limit is 40/);
});

limits('answers more aliases than maxAliases with a validation error', async ({ hub }) => {
  const reply = await hub.gql(
    '{ a: me { corpUser { username } } b: me { corpUser { username } } c: me { corpUser { username } } d: me { corpUser { username } } }',
  );
  assert.match(reply.json.errors[0].message, /uses 4 aliases; the limit is 3/);
});

limits('answers variables nested deeper than maxVariablesDepth with 400', async ({ hub }) => {
  const reply = await hub.gql('query q($urn: String!) { dataset(urn: $urn) { urn } }', {
    urn: ORDERS,
    extra: { a: { b: { c: { d: 1 } } } },
  });
  assert.is(reply.status, 400);
  assert.match(reply.json.errors[0].message, /"variables" nest more than 4 levels deep/);
});

limits('refuses a description over maxTextBytes and stores nothing', async ({ hub }) => {
  const reply = await hub.gql('mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
    input: {
      description: 'é'.repeat(60),
      resourceUrn: ORDERS,
      subResource: 'order_id',
      subResourceType: 'DATASET_FIELD',
    },
  });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.match(reply.json.errors[0].message, /description is 120 bytes; the limit is 100/);
  const read = await hub.gql(
    `{ dataset(urn: "${ORDERS}") { editableSchemaMetadata { editableSchemaFieldInfo { description } } } }`,
  );
  assert.is(read.json.data.dataset.editableSchemaMetadata, null);
});

limits('answers oversized headers with 431 and a JSON body', async ({ hub }) => {
  const reply = await rawRequest(hub, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
  assert.match(reply, /^HTTP\/1\.1 431 /);
  assert.match(reply, /"the request line and headers are larger than \d+ bytes; send a long GraphQL query as a POST/);
});

limits('answers malformed HTTP with 400 and a JSON body', async ({ hub }) => {
  const reply = await rawRequest(hub, 'BREW /coffee HTCPCP/1.0\r\n\r\n');
  assert.match(reply, /^HTTP\/1\.1 400 /);
  assert.match(reply, /not valid HTTP/);
});

limits('answers a client that stalls mid-headers or mid-body with 408 and keeps serving others', async ({ hub }) => {
  const started = Date.now();
  const [headers, body] = await Promise.all([
    rawRequest(hub, 'POST /api/graphql HTTP/1.1\r\nHost: x\r\n', { keepOpen: true }),
    rawRequest(
      hub,
      `POST /api/graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${hub.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"`,
      { keepOpen: true },
    ),
    (async () => assert.is((await hub.request('/health')).status, 200))(),
  ]);
  assert.match(headers, /^HTTP\/1\.1 408 /);
  assert.match(body, /^HTTP\/1\.1 408 /);
  assert.match(body, /not received in time/);
  assert.ok(Date.now() - started < 5000, 'the timeouts answer in about the configured time');
});

// Connections past maxConnections: test/connection-limit.test.ts.

limits.run();

// ---

const defaults = suite<{ hub: TestServer }>('default limits');
defaults.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
defaults.after(async ({ hub }) => hub.close());

defaults('survives a document nested thousands deep and answers a clear error', async ({ hub }) => {
  for (const query of [
    `{${' a {'.repeat(4000)}${'}'.repeat(4001)}`,
    `{ dataset(urn: ${'['.repeat(4900)}"x"${']'.repeat(4900)}) { urn } }`,
  ]) {
    const reply = await hub.gql(query);
    assert.is(reply.status, 200);
    assert.equal(reply.json.errors[0].extensions, { classification: 'InvalidSyntax' });
  }
  assert.is((await hub.gql('{ me { corpUser { username } } }')).status, 200);
});

defaults('keeps the parsed-document cache small however many large valid documents arrive', async ({ hub }) => {
  // Dense documents' ASTs take ~80 bytes per character: a cache bounded at 16 Mi characters grew past 1 GB.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const values = '"" '.repeat(9900);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 50; i++) {
    const reply = await hub.gql(
      `{ listAccessTokens(input: {filters: [{field: "ownerUrn", values: [${values}]}]}) { total } } # ${i}`,
    );
    assert.is(reply.json.data.listAccessTokens.total, 0);
  }
  gc();
  const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  assert.ok(grownMb < 80, `50 distinct documents of 30 KB kept ${grownMb.toFixed(0)} MB`);
});

defaults("rejects a document over the limits without running graphql-js's own rules on it", async ({ hub }) => {
  // 300 aliased unknown fields: graphql-js alone would report 300 errors; the cost rule answers first.
  const reply = await hub.gql(`{ ${Array.from({ length: 300 }, (_, i) => `a${i}: nope`).join(' ')} }`);
  assert.is(reply.json.errors.length, 1);
  assert.match(reply.json.errors[0].message, /uses 300 aliases; the limit is 100/);
});

defaults('answers a fragment chain too deep to validate with a validation error, not a crash', async () => {
  const hub = await startTestServer({ limits: { maxTokens: 1_000_000, maxQueryLength: 1_000_000 } });
  try {
    const chain = Array.from({ length: 8000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join('\n');
    const reply = await hub.gql(`{ ...F0 }\n${chain}\nfragment F8000 on Query { __typename }`);
    assert.is(reply.status, 200);
    assert.equal(reply.json.errors[0].extensions, { classification: 'ValidationError' });
  } finally {
    await hub.close();
  }
});

defaults('names every default in one place', () => {
  assert.is(DEFAULT_LIMITS.maxBodyBytes, 1024 * 1024);
  assert.ok(Object.values(DEFAULT_LIMITS).every((value) => Number.isSafeInteger(value) && value > 0));
});

defaults.run();

function rawRequest(hub: TestServer, text: string, options: { keepOpen?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(text);
    if (options.keepOpen !== true) socket.end();
  });
}
