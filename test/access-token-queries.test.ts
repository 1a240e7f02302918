// DataHub's access-token queries: getAccessToken (a token for yourself, never stored), getAccessTokenMetadata
// (a raw token's stored record, for token managers) and AccessTokenMetadata.owner; DataHub's 403s, a
// token that matches nothing, and nothing written by either. In process.

import { suite } from 'uvu';
import { randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { Store } from '../src/store/store.ts';
import { dataOf, FORBIDDEN, userWithRole } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE } from './fixtures/server.ts';

const GET_TOKEN =
  'query g($input: GetAccessTokenInput!) { getAccessToken(input: $input) { accessToken metadata { id } } }';
const METADATA = `query m($token: String!) { getAccessTokenMetadata(token: $token) {
  urn type id name actorUrn ownerUrn expiresAt owner { urn username }
} }`;
const CREATE = `mutation c($input: CreateAccessTokenInput!) { createAccessToken(input: $input) {
  accessToken metadata { id owner { username } }
} }`;
const REVOKE = 'mutation r($tokenId: String!) { revokeAccessToken(tokenId: $tokenId) }';
const LIST = 'query l { listAccessTokens(input: {}) { total tokens { id ownerUrn owner { urn username } } } }';
const ME = '{ me { corpUser { username } } }';

// A Reader, in DataHub's file format.
const READER: JsonValue[] = [userWithRole('rita', 'Reader')];

async function refused(hub: InProcessHub, query: string, variables: Record<string, unknown>, token: string) {
  const reply = await hub.gql(query, variables, token);
  assert.equal(reply.json.errors?.[0]?.message, FORBIDDEN.message, JSON.stringify(reply.json));
  assert.equal(reply.json.errors?.[0]?.extensions, FORBIDDEN.extensions);
}

const forUser = (name: string, duration = 'ONE_HOUR') => ({
  input: { type: 'PERSONAL', actorUrn: `urn:li:corpuser:${name}`, duration },
});

type Context = { hub: InProcessHub };

const queries = suite<Context>('access-token queries');
queries.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, READER] });
});
queries.after.each(async ({ hub }) => {
  await hub.close();
});

queries('getAccessToken issues a working token for yourself, new each time, stored nowhere', async ({ hub }) => {
  const bob = await hub.createToken('bob');
  const records = hub.store.recordCount;
  const before = (await dataOf(hub, LIST, {})).listAccessTokens.total;
  const first = (await dataOf(hub, GET_TOKEN, forUser('bob'), bob)).getAccessToken;
  const second = (await dataOf(hub, GET_TOKEN, forUser('bob'), bob)).getAccessToken;
  assert.is(first.metadata, null);
  assert.is.not(first.accessToken, second.accessToken);
  assert.equal(await dataOf(hub, ME, {}, first.accessToken), { me: { corpUser: { username: 'bob' } } });
  // It expires when the duration asked for ends.
  const claims = JSON.parse(Buffer.from(first.accessToken.split('.')[1], 'base64url').toString());
  assert.ok(Math.abs(claims.exp * 1000 - (Date.now() + 3_600_000)) < 60_000, JSON.stringify(claims));
  const forever = (await dataOf(hub, GET_TOKEN, forUser('bob', 'NO_EXPIRY'), bob)).getAccessToken.accessToken;
  assert.is(JSON.parse(Buffer.from(forever.split('.')[1], 'base64url').toString()).exp, undefined);
  assert.is(hub.store.recordCount, records);
  assert.is((await dataOf(hub, LIST, {})).listAccessTokens.total, before);
  // Metadata is only for stored tokens.
  const reply = await hub.gql(METADATA, { token: first.accessToken });
  assert.is(reply.json.errors?.[0]?.extensions.code, 404);
});

queries('getAccessToken for someone else is DataHub 403, also for an Admin', async ({ hub }) => {
  await refused(hub, GET_TOKEN, forUser('carol'), await hub.createToken('bob'));
  await refused(hub, GET_TOKEN, forUser('bob'), await hub.createToken('alice'));
  await refused(hub, GET_TOKEN, { input: { ...forUser('x').input, actorUrn: 'not a urn' } }, hub.token);
  // A Reader may have one for herself: everyone holds GENERATE_PERSONAL_ACCESS_TOKENS.
  const rita = await hub.createToken('rita');
  assert.type((await dataOf(hub, GET_TOKEN, forUser('rita'), rita)).getAccessToken.accessToken, 'string');
});

queries('getAccessTokenMetadata answers the stored record and its owner; a revoked token is a 404', async ({ hub }) => {
  const alice = await hub.createToken('alice');
  const input = { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:bob', duration: 'ONE_MONTH', name: 'for bob' };
  const created = (await dataOf(hub, CREATE, { input }, alice)).createAccessToken;
  assert.equal(created.metadata.owner, { username: 'alice' });
  const metadata = (await dataOf(hub, METADATA, { token: created.accessToken }, alice)).getAccessTokenMetadata;
  assert.equal(
    { ...metadata, expiresAt: typeof metadata.expiresAt },
    {
      urn: `urn:li:dataHubAccessToken:${created.metadata.id}`,
      type: 'ACCESS_TOKEN',
      id: created.metadata.id,
      name: 'for bob',
      actorUrn: 'urn:li:corpuser:bob',
      ownerUrn: 'urn:li:corpuser:alice',
      expiresAt: 'number',
      owner: { urn: 'urn:li:corpuser:alice', username: 'alice' },
    },
  );
  const listed = (await dataOf(hub, LIST, {})).listAccessTokens.tokens;
  for (const token of listed) assert.equal(token.owner.urn, token.ownerUrn);
  await dataOf(hub, REVOKE, { tokenId: created.metadata.id });
  const reply = await hub.gql(METADATA, { token: created.accessToken });
  assert.equal(reply.json.errors?.[0]?.extensions, {
    code: 404,
    type: 'NOT_FOUND',
    classification: 'DataFetchingException',
  });
});

queries('getAccessTokenMetadata needs MANAGE_ACCESS_TOKENS; a token that matches nothing is a 404', async ({ hub }) => {
  const bob = await hub.createToken('bob');
  const rita = await hub.createToken('rita');
  const records = hub.store.recordCount;
  await refused(hub, METADATA, { token: bob }, bob);
  await refused(hub, METADATA, { token: bob }, rita);
  const reply = await hub.gql(METADATA, { token: 'not.a.token' });
  assert.is(reply.json.errors?.[0]?.extensions.code, 404);
  assert.is(reply.json.data, null);
  assert.is(hub.store.recordCount, records);
});

queries.run();

const sessions = suite('unstored session tokens');

sessions('are bounded: past the cap a new one is refused in one message, and expired ones make room', async () => {
  const store = await Store.open({ dataDir: null });
  const tokens = new TokenService(randomBytes(32), store, { maxSessionTokens: 3 });
  tokens.createSessionToken('datahub');
  tokens.createSessionToken('datahub');
  tokens.createSessionToken('datahub', 1);
  await new Promise((resolve) => setTimeout(resolve, 10));
  // The expired one is swept, so this fits.
  const fourth = tokens.createSessionToken('datahub');
  assert.ok(fourth.startsWith('eyJ'));
  assert.throws(
    () => tokens.createSessionToken('datahub'),
    (error: Error) => /3 unstored session tokens are live in this process; .*createAccessToken/.test(error.message),
  );
  await store.close();
});

sessions.run();
