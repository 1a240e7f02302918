// GET /api/graphql?query=… (GraphQL over HTTP): queries run as over POST, with the same token check,
// limits and response cache; a mutation or subscription over GET is 405 and runs nothing (a subscription
// over POST is a request error); answers are no-store; bad parameters are 400.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { rawExchange, SAMPLE, startTestServer, type Reply, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const READ_DESCRIPTION = 'query description($urn: String!) { dataset(urn: $urn) { properties { description } } }';

/** GETs /api/graphql with `params` as its query string, with the root token unless `token` is null. */
function get(
  hub: TestServer,
  params: Record<string, string>,
  token: string | null = hub.token,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return hub.request(`/api/graphql?${new URLSearchParams(params)}`, {
    headers: { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...headers },
  });
}

const tagExists = async (hub: TestServer, id: string): Promise<boolean> =>
  (await hub.gql(`{ tag(urn: "urn:li:tag:${id}") { properties { name } } }`)).json.data.tag.properties !== null;

const getSuite = suite<{ hub: TestServer }>('GET /api/graphql');

getSuite.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
getSuite.after(async ({ hub }) => hub.close());

getSuite('runs a query sent as GET and answers as POST would', async ({ hub }) => {
  const query = '{ me { corpUser { username } } }';
  const reply = await get(hub, { query });
  assert.is(reply.status, 200);
  assert.is(reply.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.is(reply.text, (await hub.gql(query)).text);
});

getSuite('takes variables and operationName as JSON and text in the query string', async ({ hub }) => {
  const query = `${READ_DESCRIPTION} query other { me { corpUser { username } } }`;
  const reply = await get(hub, { query, variables: JSON.stringify({ urn: ORDERS }), operationName: 'description' });
  assert.is(reply.status, 200);
  assert.type(reply.json.data.dataset.properties.description, 'string');
  const other = await get(hub, { query, operationName: 'other' });
  assert.equal(other.json.data, { me: { corpUser: { username: 'datahub' } } });
  // An empty variables parameter means none, as graphql-http reads it.
  assert.is((await get(hub, { query: '{ __typename }', variables: '' })).json.data.__typename, 'Query');
});

getSuite('answers a mutation over GET with 405, Allow: POST and a JSON error, and writes nothing', async ({ hub }) => {
  const reply = await get(hub, { query: 'mutation { createTag(input: {id: "sent-by-get", name: "no"}) }' });
  assert.is(reply.status, 405);
  assert.is(reply.headers.get('allow'), 'POST');
  assert.match(reply.json.errors[0].message, /mutation cannot be sent with GET; send it as a POST/);
  assert.is(await tagExists(hub, 'sent-by-get'), false);
});

getSuite(
  'over GET, the operation operationName chooses decides, not the first one in the document',
  async ({ hub }) => {
    const both = 'query read { __typename } mutation write { createTag(input: {id: "chosen-by-name", name: "no"}) }';
    assert.is((await get(hub, { query: both, operationName: 'write' })).status, 405);
    assert.is(await tagExists(hub, 'chosen-by-name'), false);
    assert.is((await get(hub, { query: both, operationName: 'read' })).status, 200);
  },
);

getSuite('the mutation refused over GET still runs over POST', async ({ hub }) => {
  assert.is(
    (await hub.gql('mutation { createTag(input: {id: "sent-by-post", name: "yes"}) }')).json.data.createTag,
    'urn:li:tag:sent-by-post',
  );
  assert.is(await tagExists(hub, 'sent-by-post'), true);
});

getSuite(
  'answers a GET mutation 405 in the media type the client accepts, also when cached as a document',
  async ({ hub }) => {
    const mutation = 'mutation { createTag(input: {id: "twice", name: "no"}) }';
    for (let i = 0; i < 2; i++) {
      const reply = await get(hub, { query: mutation }, hub.token, { Accept: GRAPHQL_RESPONSE });
      assert.is(reply.status, 405);
      assert.is(reply.headers.get('content-type'), `${GRAPHQL_RESPONSE}; charset=utf-8`);
    }
    assert.is(await tagExists(hub, 'twice'), false);
  },
);

getSuite(
  'answers a subscription with 405 over GET, and as a request error over POST, never as a server error',
  async () => {
    const logged: string[] = [];
    const hub = await startTestServer({ seed: [SAMPLE], log: (message) => logged.push(message) });
    try {
      const subscription = 'subscription S { me { corpUser { username } } }';
      const overGet = await get(hub, { query: subscription });
      assert.is(overGet.status, 405);
      assert.is(overGet.headers.get('allow'), 'POST');
      assert.match(
        overGet.json.errors[0].message,
        /subscription cannot be sent with GET, and minihub serves no subscriptions/,
      );
      // application/json, as DataHub answers: 200 with data null; graphql-response+json: 400 without data.
      const datahub = await hub.gql(subscription);
      assert.is(datahub.status, 200);
      assert.is(datahub.json.data, null);
      assert.match(datahub.json.errors[0].message, /^minihub serves no subscriptions/);
      assert.is(datahub.json.errors[0].extensions.classification, 'ValidationError');
      assert.equal(datahub.json.errors[0].locations, [{ line: 1, column: 1 }]);
      const strict = await hub.request('/api/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: GRAPHQL_RESPONSE, Authorization: `Bearer ${hub.token}` },
        body: JSON.stringify({ query: subscription }),
      });
      assert.is(strict.status, 400);
      assert.equal(Object.keys(strict.json), ['errors', 'extensions']);
      // A second time the document comes from the document cache, past validation: still refused.
      assert.match((await hub.gql(subscription)).json.errors[0].message, /^minihub serves no subscriptions/);
      // Chosen by operationName from a document that also holds a query.
      const both = `query Q { __typename } ${subscription}`;
      assert.is((await get(hub, { query: both, operationName: 'S' })).status, 405);
      assert.is((await get(hub, { query: both, operationName: 'Q' })).status, 200);
      assert.equal(logged, [], 'nothing was logged as an unexpected error');
    } finally {
      await hub.close();
    }
  },
);

getSuite('treats an empty operationName as none, as GraphQL over HTTP says', async ({ hub }) => {
  const reply = await get(hub, { query: '{ me { corpUser { username } } }', operationName: '' });
  assert.is(reply.status, 200);
  assert.is(reply.json.errors, undefined);
  assert.is(reply.json.data.me.corpUser.username, 'datahub');
  // With two operations, none chosen is still an error, but about the missing name rather than a name "".
  const two = await get(hub, { query: 'query a { __typename } query b { __typename }', operationName: '' });
  assert.match(two.json.errors[0].message, /Must provide operation name/);
});

getSuite('marks GET and POST answers no-store, varying with Accept and Authorization', async ({ hub }) => {
  const answers = [
    await get(hub, { query: '{ __typename }' }),
    await get(hub, { query: '{ __typename }' }), // from the response cache
    await get(hub, { query: 'mutation { __typename }' }), // a 405
    await get(hub, { query: '{ __typename }' }, null), // a 401
    await hub.gql('{ __typename }'),
  ];
  for (const [i, reply] of answers.entries()) {
    assert.is(reply.headers.get('cache-control'), 'no-store', `answer ${i}`);
    assert.is(reply.headers.get('vary'), 'Accept, Authorization', `answer ${i}`);
  }
  assert.equal(
    answers.map((reply) => reply.status),
    [200, 200, 405, 401, 200],
  );
});

const badParams: [string, Record<string, string>, RegExp][] = [
  [
    'variables that are not JSON',
    { query: '{ __typename }', variables: '{"urn": ' },
    /"variables" in the query string is not valid JSON/,
  ],
  [
    'variables that are a JSON array',
    { query: '{ __typename }', variables: '[1]' },
    /"variables" must be an object or null, not an array/,
  ],
  [
    'extensions that are not JSON',
    { query: '{ __typename }', extensions: 'nope' },
    /"extensions" in the query string is not valid JSON/,
  ],
  [
    'extensions that are a string',
    { query: '{ __typename }', extensions: '"x"' },
    /"extensions" must be an object or null, not a string/,
  ],
  ['no query', { variables: '{}' }, /the query string has no "query"; expected \/api\/graphql\?query=/],
];
for (const [label, params, message] of badParams) {
  getSuite(`answers ${label} with 400 naming the parameter`, async ({ hub }) => {
    const reply = await get(hub, params);
    assert.is(reply.status, 400);
    assert.match(reply.json.errors[0].message, message);
  });
}

getSuite('answers a parameter given twice with 400, since a proxy could read the other one', async ({ hub }) => {
  const reply = await hub.request('/api/graphql?query=%7B__typename%7D&query=mutation%7B__typename%7D', {
    headers: { Authorization: `Bearer ${hub.token}` },
  });
  assert.is(reply.status, 400);
  assert.match(reply.json.errors[0].message, /gives "query" 2 times; expected it once/);
});

getSuite('answers a GET without a token 401, before reading any parameter', async ({ hub }) => {
  const reply = await get(hub, { query: '{ __typename }', variables: 'not json' }, null);
  assert.is(reply.status, 401);
  assert.is(reply.headers.get('www-authenticate'), 'Bearer realm="minihub"');
  assert.is(reply.json.errors[0].extensions.reason, 'missing');
  assert.is((await get(hub, { query: '{ __typename }' }, 'not-a-token')).status, 401);
});

getSuite('keeps the query-length and variables-depth limits', async () => {
  const small = await startTestServer({ limits: { maxQueryLength: 50, maxVariablesDepth: 2 } });
  try {
    const long = await get(small, { query: `{ __typename } #${'x'.repeat(60)}` });
    assert.is(long.status, 400);
    assert.match(long.json.errors[0].message, /"query" is \d+ characters long; the limit is 50/);
    const deep = await get(small, { query: '{ __typename }', variables: '{"a": {"b": {"c": 1}}}' });
    assert.is(deep.status, 400);
    assert.match(deep.json.errors[0].message, /"variables" nest more than 2 levels deep/);
  } finally {
    await small.close();
  }
});

getSuite("answers a URL longer than node's header limit with 431 saying to use POST", async ({ hub }) => {
  const path = `/api/graphql?${new URLSearchParams({ query: `{ __typename } #${'x'.repeat(20_000)}` })}`;
  const answer = await rawExchange(
    hub,
    `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${hub.token}\r\n\r\n`,
  );
  assert.match(answer, /^HTTP\/1\.1 431 /);
  assert.match(
    answer,
    /the request line and headers are larger than \d+ bytes; send a long GraphQL query as a POST with a JSON body/,
  );
});

getSuite('serves GET and POST reads from the response cache, never stale after a write', async ({ hub }) => {
  const params = { query: READ_DESCRIPTION, variables: JSON.stringify({ urn: ORDERS }) };
  const first = await get(hub, params);
  assert.is((await get(hub, params)).text, first.text);
  const post = await hub.gql(READ_DESCRIPTION, { urn: ORDERS });
  assert.is(post.text, first.text, 'the same read sent both ways answers the same');
  await hub.gql(
    `mutation { updateDataset(urn: "${ORDERS}", input: {editableProperties: {description: "written between reads"}}) { urn } }`,
  );
  assert.is((await get(hub, params)).json.data.dataset.properties.description, 'written between reads');
  assert.is(
    (await hub.gql(READ_DESCRIPTION, { urn: ORDERS })).json.data.dataset.properties.description,
    'written between reads',
  );
});

getSuite(
  'answers a validation error 400 under graphql-response+json and 200 under application/json, as POST does',
  async ({ hub }) => {
    const strict = await get(hub, { query: '{ nope }' }, hub.token, { Accept: GRAPHQL_RESPONSE });
    assert.is(strict.status, 400);
    assert.equal(Object.keys(strict.json), ['errors', 'extensions']);
    const datahub = await get(hub, { query: '{ nope }' }, hub.token, { Accept: 'application/json' });
    assert.is(datahub.status, 200);
    assert.is(datahub.json.data, null);
  },
);

getSuite('logs a GET by its path and operation, never its query string', async () => {
  const lines: string[] = [];
  const logged = await startTestServer({ seed: [SAMPLE], logRequest: (line) => lines.push(line) });
  try {
    await get(logged, { query: READ_DESCRIPTION, variables: JSON.stringify({ urn: ORDERS }) });
    assert.is(lines.length, 1);
    assert.match(lines[0] ?? '', /^GET \/api\/graphql 200 \d+\.\dms dataset$/);
  } finally {
    await logged.close();
  }
});

getSuite.run();
