// The access-token lifecycle over GraphQL and HTTP: create for yourself or (as a token manager) for
// others, list, revoke, expire; and the 401 body naming why, without echoing the token.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

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

lifecycle('creates a token for yourself with DataHub\'s input and metadata; the token works', async ({ hub, carol }) => {
  const before = Date.now();
  const reply = await hub.gql(CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:carol', duration: 'ONE_HOUR', name: 'laptop', description: 'for curl' } }, carol);
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  const { accessToken, metadata } = reply.json.data.createAccessToken;
  assert.match(accessToken, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal({ ...metadata, createdAt: 0, expiresAt: 0 }, {
    urn: `urn:li:dataHubAccessToken:${metadata.id}`, type: 'ACCESS_TOKEN', id: metadata.id, name: 'laptop', description: 'for curl',
    actorUrn: 'urn:li:corpuser:carol', ownerUrn: 'urn:li:corpuser:carol', createdAt: 0, expiresAt: 0,
  });
  assert.ok(metadata.createdAt >= before);
  assert.ok(Math.abs(metadata.expiresAt - metadata.createdAt - 3_600_000) < 1000);
  assert.is((await hub.gql(ME, {}, accessToken)).json.data.me.corpUser.username, 'carol');
});

lifecycle('refuses a token for another user without MANAGE_ACCESS_TOKENS, and allows it to an admin', async ({ hub, carol }) => {
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
});

lifecycle('refuses a token for a user that does not exist', async ({ hub }) => {
  const reply = await hub.gql(CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:ghost', duration: 'ONE_DAY', name: 'x' } });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.match(reply.json.errors[0].message, /no user "ghost"/);
});

lifecycle('lists your own tokens through a filter on yourself, and all of them only for a token manager', async ({ hub, carol }) => {
  const own = await hub.gql(LIST, { input: { filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:carol'] }] } }, carol);
  assert.is(own.json.errors, undefined, JSON.stringify(own.json.errors));
  assert.ok(own.json.data.listAccessTokens.tokens.length >= 2);
  assert.ok(own.json.data.listAccessTokens.tokens.every((token: { actorUrn: string }) => token.actorUrn === 'urn:li:corpuser:carol'));
  const everything = await hub.gql(LIST, { input: {} }, carol);
  assert.equal(everything.json.errors[0].extensions, FORBIDDEN);
  const admin = await hub.gql(LIST, { input: { start: 0, count: 100 } });
  assert.ok(admin.json.data.listAccessTokens.total > own.json.data.listAccessTokens.total);
  assert.not.ok(JSON.stringify(admin.json).includes(carol), 'a listing never contains a token');
});

lifecycle('revokes your own token: it answers 401 revoked from then on', async ({ hub, carol }) => {
  const made = (await hub.gql(CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:carol', duration: 'ONE_DAY', name: 'short-lived' } }, carol)).json.data.createAccessToken;
  assert.is((await hub.gql(ME, {}, made.accessToken)).status, 200);
  assert.equal((await hub.gql(REVOKE, { id: made.metadata.id }, carol)).json.data, { revokeAccessToken: true });
  const after = await hub.gql(ME, {}, made.accessToken);
  assert.is(after.status, 401);
  assert.is(after.json.errors[0].extensions.reason, 'revoked');
  const listed = await hub.gql(LIST, { input: { filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:carol'] }] } }, carol);
  assert.not.ok(listed.json.data.listAccessTokens.tokens.some((token: { id: string }) => token.id === made.metadata.id));
});

lifecycle('refuses to revoke another user\'s token without MANAGE_ACCESS_TOKENS', async ({ hub, carol }) => {
  const bobs = (await hub.gql(CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'ONE_DAY', name: 'bob' } })).json.data.createAccessToken;
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

refusal.run();
