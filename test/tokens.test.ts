// The access-token lifecycle over GraphQL and HTTP: create for yourself or (as a token manager) for
// others, list, revoke, expire; tokens of removed users; and the 401 body naming why, without echoing the token.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { addUserChanges } from '../src/auth/users.ts';
import { ingest } from '../src/datahub/ingest.ts';
import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

const CREATE = `mutation c($input: CreateAccessTokenInput!) {
  createAccessToken(input: $input) { accessToken metadata { urn type id name description actorUrn ownerUrn createdAt expiresAt } }
}`;
const LIST = `query l($input: ListAccessTokenInput!) {
  listAccessTokens(input: $input) { start count total tokens { id name actorUrn ownerUrn expiresAt } }
}`;
const REVOKE = 'mutation r($id: String!) { revokeAccessToken(tokenId: $id) }';
const ME = '{ me { corpUser { username } } }';
const FORBIDDEN = { code: 403, type: 'UNAUTHORIZED', classification: 'DataFetchingException' };

type Context = { hub: TestServer; carol: string };

const lifecycle = suite<Context>('access tokens over GraphQL');
lifecycle.before(async (context) => {
  // In the sample, carol is a Reader and alice an Admin.
  context.hub = await startTestServer({ seed: [SAMPLE] });
  context.carol = await context.hub.createToken('carol');
});
lifecycle.after(async ({ hub }) => hub.close());

lifecycle("creates a token for yourself with DataHub's input and metadata; the token works", async ({ hub, carol }) => {
  const before = Date.now();
  const reply = await hub.gql(
    CREATE,
    {
      input: {
        type: 'PERSONAL',
        actorUrn: 'urn:li:corpuser:carol',
        duration: 'ONE_HOUR',
        name: 'laptop',
        description: 'for curl',
      },
    },
    carol,
  );
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  const { accessToken, metadata } = reply.json.data.createAccessToken;
  assert.match(accessToken, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(
    { ...metadata, createdAt: 0, expiresAt: 0 },
    {
      urn: `urn:li:dataHubAccessToken:${metadata.id}`,
      type: 'ACCESS_TOKEN',
      id: metadata.id,
      name: 'laptop',
      description: 'for curl',
      actorUrn: 'urn:li:corpuser:carol',
      ownerUrn: 'urn:li:corpuser:carol',
      createdAt: 0,
      expiresAt: 0,
    },
  );
  assert.ok(metadata.createdAt >= before);
  assert.ok(Math.abs(metadata.expiresAt - metadata.createdAt - 3_600_000) < 1000);
  assert.is((await hub.gql(ME, {}, accessToken)).json.data.me.corpUser.username, 'carol');
});

lifecycle(
  'refuses a token for another user without MANAGE_ACCESS_TOKENS, and allows it to an admin',
  async ({ hub, carol }) => {
    const input = { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'NO_EXPIRY', name: 'for bob' };
    const denied = await hub.gql(CREATE, { input }, carol);
    assert.equal(denied.json.errors[0].extensions, FORBIDDEN);
    assert.equal(denied.json.data, { createAccessToken: null });
    const allowed = await hub.gql(CREATE, { input });
    const { accessToken, metadata } = allowed.json.data.createAccessToken;
    assert.is(metadata.actorUrn, 'urn:li:corpuser:bob');
    assert.is(metadata.ownerUrn, 'urn:li:corpuser:datahub');
    assert.is(metadata.expiresAt, null);
    assert.is((await hub.gql(ME, {}, accessToken)).json.data.me.corpUser.username, 'bob');
  },
);

lifecycle('refuses a token for a user that does not exist', async ({ hub }) => {
  const reply = await hub.gql(CREATE, {
    input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:ghost', duration: 'ONE_DAY', name: 'x' },
  });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.match(reply.json.errors[0].message, /no user "ghost"/);
});

lifecycle(
  'lists your own tokens through a filter on yourself, and all of them only for a token manager',
  async ({ hub, carol }) => {
    const own = await hub.gql(
      LIST,
      { input: { filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:carol'] }] } },
      carol,
    );
    assert.is(own.json.errors, undefined, JSON.stringify(own.json.errors));
    assert.ok(own.json.data.listAccessTokens.tokens.length >= 2);
    assert.ok(
      own.json.data.listAccessTokens.tokens.every(
        (token: { actorUrn: string }) => token.actorUrn === 'urn:li:corpuser:carol',
      ),
    );
    const everything = await hub.gql(LIST, { input: {} }, carol);
    assert.equal(everything.json.errors[0].extensions, FORBIDDEN);
    const admin = await hub.gql(LIST, { input: { start: 0, count: 100 } });
    assert.ok(admin.json.data.listAccessTokens.total > own.json.data.listAccessTokens.total);
    assert.not.ok(JSON.stringify(admin.json).includes(carol), 'a listing never contains a token');
  },
);

lifecycle('revokes your own token: it answers 401 revoked from then on', async ({ hub, carol }) => {
  const made = (
    await hub.gql(
      CREATE,
      { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:carol', duration: 'ONE_DAY', name: 'short-lived' } },
      carol,
    )
  ).json.data.createAccessToken;
  assert.is((await hub.gql(ME, {}, made.accessToken)).status, 200);
  assert.equal((await hub.gql(REVOKE, { id: made.metadata.id }, carol)).json.data, { revokeAccessToken: true });
  const after = await hub.gql(ME, {}, made.accessToken);
  assert.is(after.status, 401);
  assert.is(after.json.errors[0].extensions.reason, 'revoked');
  const listed = await hub.gql(
    LIST,
    { input: { filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:carol'] }] } },
    carol,
  );
  assert.not.ok(
    listed.json.data.listAccessTokens.tokens.some((token: { id: string }) => token.id === made.metadata.id),
  );
});

lifecycle("refuses to revoke another user's token without MANAGE_ACCESS_TOKENS", async ({ hub, carol }) => {
  const bobs = (
    await hub.gql(CREATE, {
      input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'ONE_DAY', name: 'bob' },
    })
  ).json.data.createAccessToken;
  const denied = await hub.gql(REVOKE, { id: bobs.metadata.id }, carol);
  assert.equal(denied.json.errors[0].extensions, FORBIDDEN);
  assert.is((await hub.gql(ME, {}, bobs.accessToken)).status, 200, 'still valid');
  // An unknown id looks the same to a non-manager, so ids cannot be probed.
  assert.equal((await hub.gql(REVOKE, { id: 'no-such-id' }, carol)).json.errors[0].extensions, FORBIDDEN);
  assert.is((await hub.gql(REVOKE, { id: 'no-such-id' })).json.errors[0].extensions.code, 400);
  assert.equal((await hub.gql(REVOKE, { id: bobs.metadata.id })).json.data, { revokeAccessToken: true });
  assert.is((await hub.gql(ME, {}, bobs.accessToken)).status, 401);
});

lifecycle.run();

// ---

const refusal = suite<Context>('401 reasons');
refusal.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
refusal.after(async ({ hub }) => hub.close());

refusal('says missing, malformed, expired or revoked without echoing the token', async ({ hub }) => {
  const expiring = await hub.createToken('bob', { lifetimeMs: 300 });
  assert.is((await hub.gql(ME, {}, expiring)).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const cases: [string | null, string][] = [
    [null, 'missing'],
    ['abc.def', 'malformed'],
    [expiring, 'expired'],
  ];
  for (const [token, reason] of cases) {
    const reply = await hub.gql(ME, {}, token);
    assert.is(reply.status, 401, reason);
    assert.equal(reply.json.errors[0].extensions, { code: 401, type: 'UNAUTHENTICATED', reason });
    if (token !== null) assert.not.ok(reply.text.includes(token));
  }
});

refusal('judges each Authorization header by its form, also after its token was accepted', async ({ hub }) => {
  const token = await hub.createToken('bob');
  const send = async (authorization: string) => {
    const response = await fetch(`${hub.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query: ME }),
    });
    return { status: response.status, json: (await response.json()) as { errors?: { extensions: unknown }[] } };
  };
  // Accepted first, so the token's check is remembered; the malformed headers around it must still be refused.
  assert.is((await send(`Bearer ${token}`)).status, 200);
  assert.is((await send(`bearer   ${token}  `)).status, 200);
  for (const header of [`Token ${token}`, `Bearer ${token} extra`, `BEARER ${token}`, `Bearer${token}`]) {
    const reply = await send(header);
    assert.is(reply.status, 401, header.slice(0, 12));
    assert.equal(reply.json.errors?.[0]?.extensions, { code: 401, type: 'UNAUTHENTICATED', reason: 'malformed' });
  }
});

refusal.run();

// ---

const removed = suite<{ hub: TestServer }>('tokens of removed users');
removed.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
removed.after(async ({ hub }) => hub.close());

/** Ingests DataHub's soft delete (or its undoing) of a corpuser, as `datahub delete` or an ingest file writes it. */
const setRemoved = (hub: TestServer, username: string, value: boolean) =>
  ingest(
    hub.store,
    [
      {
        entityType: 'corpuser',
        entityUrn: `urn:li:corpuser:${username}`,
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { json: { removed: value } },
      },
    ],
    'urn:li:corpuser:datahub',
  );

removed(
  'refuses the token of a user removed by an ingested status at once, with reason user_removed, and again once restored',
  async ({ hub }) => {
    const bob = await hub.createToken('bob');
    // Twice, so the token's signature check is remembered: the removal must count all the same.
    for (let i = 0; i < 2; i++)
      assert.equal((await hub.gql(ME, {}, bob)).json.data, { me: { corpUser: { username: 'bob' } } });
    await setRemoved(hub, 'bob', true);
    const reply = await hub.gql(ME, {}, bob);
    assert.is(reply.status, 401);
    assert.equal(reply.json.errors[0].extensions, { code: 401, type: 'UNAUTHENTICATED', reason: 'user_removed' });
    assert.match(reply.json.errors[0].message, /the bearer token's user "bob" has been removed from this catalogue/);
    assert.is(reply.headers.get('www-authenticate'), 'Bearer realm="minihub", error="invalid_token"');
    assert.not.ok(reply.text.includes(bob));
    // Also over GET, and no new token is issued for the removed user.
    assert.is(
      (
        await hub.request(`/api/graphql?query=${encodeURIComponent(ME)}`, {
          headers: { Authorization: `Bearer ${bob}` },
        })
      ).status,
      401,
    );
    try {
      await hub.createToken('bob');
      assert.unreachable('a token was made for a removed user');
    } catch (error) {
      assert.match((error as Error).message, /user "bob" has been removed from this catalogue/);
    }
    await setRemoved(hub, 'bob', false);
    assert.is((await hub.gql(ME, {}, bob)).status, 200);
  },
);

removed('refuses the token of a user whose entity is gone from the catalogue', async ({ hub }) => {
  const change = (value: { active: boolean; displayName: string } | null) => [
    { urn: 'urn:li:corpuser:dave', aspect: 'corpUserInfo', value },
  ];
  await hub.store.commit('addUser', 'urn:li:corpuser:datahub', () => change({ active: true, displayName: 'dave' }));
  const dave = await hub.createToken('dave');
  assert.is((await hub.gql(ME, {}, dave)).status, 200);
  // Its only aspect removed, the entity no longer exists (a reset() to a seed without it also drops its tokens).
  await hub.store.commit('removeUser', 'urn:li:corpuser:datahub', () => change(null));
  const reply = await hub.gql(ME, {}, dave);
  assert.is(reply.status, 401);
  assert.is(reply.json.errors[0].extensions.reason, 'user_removed');
});

removed('takes a removed user back with user add, and its old tokens work again', async ({ hub }) => {
  const carol = await hub.createToken('carol');
  await setRemoved(hub, 'carol', true);
  assert.is((await hub.gql(ME, {}, carol)).status, 401);
  await hub.store.commit('addUser', 'urn:li:corpuser:datahub', (reader) => addUserChanges(reader, 'carol', 'Reader'));
  assert.equal((await hub.gql(ME, {}, carol)).json.data, { me: { corpUser: { username: 'carol' } } });
  assert.throws(() => addUserChanges(hub.store.catalogue, 'carol', null), /user "carol" already exists/);
});

removed('never counts the root user datahub as removed', async ({ hub }) => {
  const root = await hub.createToken('datahub');
  await setRemoved(hub, 'datahub', true);
  assert.is((await hub.gql(ME)).status, 200, 'the session token');
  assert.is((await hub.gql(ME, {}, root)).status, 200, 'a stored token');
});

removed.run();
