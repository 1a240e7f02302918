// getTimeline, DataHub's change history: three edits by two users listed oldest first with actors and
// times, filtered by category, readable by a Reader, never a stale cached answer. After a restart and a
// compaction: timeline-durability.test.ts; the diff itself: timeline-diff.test.ts.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import {
  assertThreeEdits,
  GET_TIMELINE,
  ok,
  ORDERS,
  PII,
  ROOT,
  threeEdits,
  transactionsOf,
  USERS,
} from './fixtures/timeline.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE } from './fixtures/server.ts';

const inProcess = suite<{ hub: InProcessHub; erin: string; rita: string; span: { from: number; to: number } }>(
  'getTimeline in process',
);

inProcess.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, ...USERS] });
  context.erin = await context.hub.createToken('erin');
  context.rita = await context.hub.createToken('rita');
  context.span = await threeEdits(context.hub, context.erin);
});

inProcess.after.each(async ({ hub }) => {
  await hub.close();
});

inProcess('lists three edits by two users oldest first, with actors, times and what changed', async ({ hub, span }) => {
  const transactions = await transactionsOf(hub, { urn: ORDERS });
  assertThreeEdits(transactions, span);
  const [description] = (await ok(hub, GET_TIMELINE, { input: { urn: ORDERS } })).getTimeline.changeTransactions;
  assert.equal(description.changes[0].parameters, [{ key: 'description', value: 'One row per checkout.' }]);
  assert.equal(description.changes[0].auditStamp, { actor: ROOT, time: description.timestampMillis });
  assert.is(description.versionStamp, 'none');
  assert.is(description.changeType, 'MODIFY');
});

inProcess(
  'answers only the asked categories; unsupported ones and an empty list answer no changes',
  async ({ hub }) => {
    const tags = await transactionsOf(hub, { urn: ORDERS, changeCategories: ['TAG'] });
    assert.equal(
      tags.map(({ changes }) => changes.map(({ modifier }) => modifier)),
      [[PII]],
    );
    assert.is((await transactionsOf(hub, { urn: ORDERS, changeCategories: ['DOCUMENTATION'] })).length, 2);
    assert.equal(await transactionsOf(hub, { urn: ORDERS, changeCategories: ['GLOSSARY_TERM', 'OWNERSHIP'] }), []);
    assert.equal(await transactionsOf(hub, { urn: ORDERS, changeCategories: [] }), []);
  },
);

inProcess('a Reader reads the same history: reading needs a token and no privilege', async ({ hub, rita }) => {
  assert.equal(await transactionsOf(hub, { urn: ORDERS }, rita), await transactionsOf(hub, { urn: ORDERS }));
});

inProcess('a repeated query sees the next edit: no stale cached answer', async ({ hub }) => {
  const mixed = `query m($urn: String!, $input: GetTimelineInput!) {
    dataset(urn: $urn) { editableProperties { description } }
    getTimeline(input: $input) { changeTransactions { actor } }
  }`;
  const variables = { urn: ORDERS, input: { urn: ORDERS } };
  assert.is((await transactionsOf(hub, { urn: ORDERS })).length, 3);
  assert.is((await ok(hub, mixed, variables)).getTimeline.changeTransactions.length, 3);
  await ok(hub, 'mutation l($input: AddLinkInput!) { addLink(input: $input) }', {
    input: { linkUrl: 'https://wiki.example.com/orders', label: 'Runbook', resourceUrn: ORDERS },
  });
  const after = await transactionsOf(hub, { urn: ORDERS });
  assert.is(after.length, 4);
  assert.equal(
    after[3]?.changes.map(({ operation, modifier }) => [operation, modifier]),
    [['ADD', 'https://wiki.example.com/orders']],
  );
  assert.is((await ok(hub, mixed, variables)).getTimeline.changeTransactions.length, 4);
});

inProcess(
  'an unknown dataset has no changes, another entity type answers null, a malformed urn fails',
  async ({ hub }) => {
    const unknown = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.nothing,PROD)';
    assert.equal(await transactionsOf(hub, { urn: unknown }), []);
    assert.equal(await ok(hub, GET_TIMELINE, { input: { urn: PII } }), { getTimeline: null });
    assert.equal(await transactionsOf(hub, { urn: 'urn:li:glossaryTerm:Classification.PII' }), []);
    const reply = await hub.gql(GET_TIMELINE, { input: { urn: 'not-an-urn' } });
    assert.is(reply.json.errors?.[0]?.extensions?.code, 400, JSON.stringify(reply.json));
    assert.match(reply.json.errors[0].message, /not-an-urn/);
    assert.equal(reply.json.data, { getTimeline: null });
  },
);

inProcess('a store in memory replaced whole (the library reset) starts its history again', async ({ hub }) => {
  await hub.store.resetTo([{ urn: ORDERS, aspect: 'globalTags', value: { tags: [{ tag: PII }] } }]);
  const [reset, ...rest] = await transactionsOf(hub, { urn: ORDERS });
  assert.equal(rest, []);
  assert.is(reset?.actor, ROOT);
  assert.equal(
    reset?.changes.map(({ operation, modifier }) => [operation, modifier]),
    [['ADD', PII]],
  );
});

inProcess.run();
