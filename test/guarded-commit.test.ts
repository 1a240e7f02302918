// Every mutation checks who may write inside its commit builder, in log order: a role change committed
// just before a mutation is seen by it, even when it was only queued when the mutation began. The
// resolvers are called in process, so the role change is still queued when they start.

import { randomBytes } from 'node:crypto';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { TokenService } from '../src/auth/tokens.ts';
import { setRoleChanges } from '../src/auth/users.ts';
import { MinihubError } from '../src/errors.ts';
import { resolveLimits } from '../src/limits.ts';
import { accessTokenMutations } from '../src/resolvers/access-tokens.ts';
import { mutations } from '../src/resolvers/mutations.ts';
import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

type Context = { hub: TestServer; tokens: TokenService };
type ResolverContext = Parameters<typeof accessTokenMutations.createAccessToken>[1];

// Owned by others than alice, so a demoted alice holds no privilege on it as an owner either.
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.marts.daily_revenue,PROD)';

const race = suite<Context>('checks in log order');
race.before.each(async (context) => {
  // In the sample, alice is an Admin and carol a Reader.
  context.hub = await startTestServer({ seed: [SAMPLE] });
  context.tokens = new TokenService(randomBytes(32), context.hub.store);
});
race.after.each(async ({ hub }) => hub.close());

function as(actor: string, { hub, tokens }: Context): ResolverContext {
  return { store: hub.store, limits: resolveLimits(), tokens, actor };
}

/** Queues alice's demotion to Reader without waiting for it: it is not applied yet when this returns. */
function demoteAlice({ hub }: Context): Promise<unknown> {
  return hub.store.commit('setRole', 'urn:li:corpuser:datahub', (reader) => setRoleChanges(reader, 'alice', 'Reader'));
}

async function refusal(promise: Promise<unknown>): Promise<MinihubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MinihubError) return error;
    throw error;
  }
  throw new Error('expected the mutation to be refused');
}

race('a token for another user is refused to an admin demoted by the commit queued just before', async (context) => {
  const demoted = demoteAlice(context);
  const input = { type: 'PERSONAL' as const, actorUrn: 'urn:li:corpuser:carol', duration: 'ONE_HOUR', name: 'raced' };
  const error = await refusal(accessTokenMutations.createAccessToken({ input }, as('alice', context)));
  await demoted;
  assert.is(error.code, 'UNAUTHORIZED');
  assert.equal(
    context.tokens.list().map((token) => token.name),
    [],
  );
});

race("another user's token cannot be revoked by an admin demoted by the commit queued just before", async (context) => {
  const issued = await context.tokens.createPersonalToken({
    username: 'carol',
    name: 'kept',
    lifetimeMs: null,
    requestedBy: 'urn:li:corpuser:carol',
  });
  const demoted = demoteAlice(context);
  const error = await refusal(
    accessTokenMutations.revokeAccessToken({ tokenId: issued.metadata.id }, as('alice', context)),
  );
  await demoted;
  assert.is(error.code, 'UNAUTHORIZED');
  assert.ok(context.tokens.lookup(issued.metadata.id) !== null);
});

race('a link edit is refused to an admin demoted by the commit queued just before', async (context) => {
  const links = () => JSON.stringify(context.hub.store.catalogue.aspect(DATASET, 'institutionalMemory'));
  const before = links();
  const demoted = demoteAlice(context);
  const input = { linkUrl: 'https://example.com/raced', label: 'raced', resourceUrn: DATASET };
  const error = await refusal(mutations.addLink({ input }, as('alice', context)));
  await demoted;
  assert.is(error.code, 'UNAUTHORIZED');
  assert.is(links(), before);
});

race('an admin not demoted still creates the token, so the refusals above are the demotion', async (context) => {
  const input = { type: 'PERSONAL' as const, actorUrn: 'urn:li:corpuser:carol', duration: 'ONE_HOUR', name: 'allowed' };
  await accessTokenMutations.createAccessToken({ input }, as('alice', context));
  assert.equal(
    context.tokens.list().map((token) => token.name),
    ['allowed'],
  );
});

race.run();
