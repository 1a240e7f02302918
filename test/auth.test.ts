// Authentication over HTTP: every way a bearer token can be wrong answers 401 before GraphQL runs,
// and --no-auth acts as the root user.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';

import { signJwt, TOKEN_ISSUER } from '../src/auth/jwt.ts';
import { SAMPLE, startTestServer, tempDataDir, type TestServer } from './fixtures/server.ts';

const ME = '{ me { corpUser { username } } }';
const CREATE_TAG = 'mutation { createTag(input: {id: "sneaky", name: "sneaky"}) }';

function reencode(token: string, edit: (part: Record<string, unknown>) => void, index: 0 | 1): string {
  const parts = token.split('.');
  const decoded = JSON.parse(Buffer.from(parts[index] as string, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  edit(decoded);
  parts[index] = Buffer.from(JSON.stringify(decoded)).toString('base64url');
  return parts.join('.');
}

const auth = suite<{ hub: TestServer }>('bearer tokens');

auth.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
auth.after(async ({ hub }) => hub.close());

auth('accepts the root token and acts as datahub', async ({ hub }) => {
  const reply = await hub.gql(ME);
  assert.is(reply.status, 200);
  assert.equal(reply.json.data.me.corpUser.username, 'datahub');
});

auth('accepts the scheme written bearer, as DataHub does', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `bearer ${hub.token}` },
    body: JSON.stringify({ query: ME }),
  });
  assert.is(reply.status, 200);
});

const forgeries: [string, (token: string) => string, RegExp][] = [
  ['a garbage string', () => 'not-a-token', /malformed/],
  [
    'a token with alg none',
    (token) =>
      reencode(
        token,
        (header) => {
          header.alg = 'none';
        },
        0,
      )
        .split('.')
        .slice(0, 2)
        .join('.') + '.',
    /algorithm "none"/,
  ],
  [
    'a token signed with another key',
    () =>
      signJwt(
        {
          actorType: 'USER',
          actorId: 'datahub',
          type: 'PERSONAL',
          version: '2',
          jti: 'x',
          sub: 'datahub',
          iss: TOKEN_ISSUER,
          iat: 1,
        },
        randomBytes(32),
      ),
    /signature/,
  ],
  [
    'a token with altered claims',
    (token) =>
      reencode(
        token,
        (claims) => {
          claims.actorId = 'alice';
        },
        1,
      ),
    /signature/,
  ],
];

for (const [what, forge, reason] of forgeries) {
  auth(`answers ${what} with 401 and WWW-Authenticate: Bearer`, async ({ hub }) => {
    const token = forge(hub.token);
    const reply = await hub.gql(CREATE_TAG, {}, token);
    assert.is(reply.status, 401);
    assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.match(reply.json.errors[0].message, reason);
    assert.not.ok(reply.text.includes(token), 'the 401 body must not echo the token');
    const tag = await hub.gql('{ tag(urn: "urn:li:tag:sneaky") { properties { name } } }');
    assert.is(tag.json.data.tag.properties, null, 'GraphQL must not have run');
  });
}

auth('answers a missing Authorization header with 401 saying it is missing', async ({ hub }) => {
  const reply = await hub.gql(ME, {}, null);
  assert.is(reply.status, 401);
  assert.match(reply.json.errors[0].message, /no Authorization header/);
  assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer/);
});

auth('answers a header without the Bearer scheme with 401', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Basic ${hub.token}` },
    body: JSON.stringify({ query: ME }),
  });
  assert.is(reply.status, 401);
  assert.match(reply.json.errors[0].message, /expected "Bearer <token>"/);
});

auth('refuses the scheme in capitals, as DataHub does', async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `BEARER ${hub.token}` },
    body: JSON.stringify({ query: ME }),
  });
  assert.is(reply.status, 401);
  assert.is(reply.json.errors[0].extensions.reason, 'malformed');
});

auth('refuses a correctly signed token that has no record: a session token of an earlier run', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  const stale = first.token;
  await first.close();
  // Same data directory, so the same signing key: only the missing record can refuse the token.
  const second = await startTestServer({ dataDir });
  try {
    const reply = await second.gql(ME, {}, stale);
    assert.is(reply.status, 401);
    assert.match(reply.json.errors[0].message, /revoked or was not issued/);
    assert.is((await second.gql(ME)).status, 200);
  } finally {
    await second.close();
  }
});

auth.run();

// ---

const noAuth = suite<{ hub: TestServer }>('--no-auth');

noAuth.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE], auth: false });
});
noAuth.after(async ({ hub }) => hub.close());

noAuth('runs requests without a token as the root user datahub', async ({ hub }) => {
  const reply = await hub.gql(ME, {}, null);
  assert.is(reply.status, 200);
  assert.is(reply.json.data.me.corpUser.username, 'datahub');
});

noAuth('records writes without a token as made by datahub', async ({ hub }) => {
  const reply = await hub.gql('mutation { createTag(input: {id: "open", name: "open"}) }', {}, null);
  assert.is(reply.json.data.createTag, 'urn:li:tag:open');
  const owner = await hub.gql(
    '{ tag(urn: "urn:li:tag:open") { ownership { owners { owner { ... on CorpUser { urn } } } } } }',
    {},
    null,
  );
  assert.equal(owner.json.data.tag.ownership.owners, [{ owner: { urn: 'urn:li:corpuser:datahub' } }]);
});

noAuth.run();
