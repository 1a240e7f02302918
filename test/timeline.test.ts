// getTimeline, DataHub's change history: three edits by two users listed oldest first with actors and
// times, filtered by category, readable by a Reader, never a stale cached answer; the same after a
// restart and after a compaction (a real data directory). The diff itself: timeline-diff.test.ts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { schemaFieldUrn } from '../src/history/change-events.ts';
import type { LogRecord } from '../src/store/log-record.ts';
import { Store } from '../src/store/store.ts';
import { userWithRole } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const ROOT = 'urn:li:corpuser:datahub';
const ERIN = 'urn:li:corpuser:erin';
const PII = 'urn:li:tag:pii';
const USERS = [userWithRole('erin', 'Editor'), userWithRole('rita', 'Reader')];

// The web app's document (datahub-web-react/src/graphql/timeline.graphql), unchanged.
const GET_TIMELINE = `query getTimeline($input: GetTimelineInput!) {
    getTimeline(input: $input) {
        skippedVersionCount
        changeTransactions {
            timestampMillis
            lastSemanticVersion
            versionStamp
            changeType
            actor
            changes {
                urn
                category
                operation
                modifier
                parameters {
                    key
                    value
                }
                auditStamp {
                    actor
                    time
                }
                description
            }
        }
    }
}`;

interface Transaction {
  timestampMillis: number;
  lastSemanticVersion: string;
  actor: string;
  changes: { urn: string; category: string; operation: string; modifier: string | null }[];
}

interface Gql {
  gql(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<{ json: any }>;
}

async function ok(hub: Gql, query: string, variables: Record<string, unknown>, token?: string) {
  const reply = await hub.gql(query, variables, token);
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data;
}

async function transactionsOf(hub: Gql, input: Record<string, unknown>, token?: string): Promise<Transaction[]> {
  const data = await ok(hub, GET_TIMELINE, { input }, token);
  assert.is(data.getTimeline.skippedVersionCount, 0);
  return data.getTimeline.changeTransactions;
}

/** The three edits: the dataset's description (root), a column's description (erin), a tag (root). */
async function threeEdits(hub: Gql, erinToken: string): Promise<{ from: number; to: number }> {
  const from = Date.now();
  await ok(
    hub,
    'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }',
    {
      urn: ORDERS,
      input: { editableProperties: { description: 'One row per checkout.' } },
    },
  );
  await ok(
    hub,
    'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }',
    {
      input: {
        description: 'Who ordered.',
        resourceUrn: ORDERS,
        subResourceType: 'DATASET_FIELD',
        subResource: 'customer_id',
      },
    },
    erinToken,
  );
  await ok(hub, 'mutation t($input: TagAssociationInput!) { addTag(input: $input) }', {
    input: { tagUrn: PII, resourceUrn: ORDERS },
  });
  return { from, to: Date.now() };
}

/** What the three edits must show, oldest first. */
function assertThreeEdits(transactions: Transaction[], { from, to }: { from: number; to: number }): void {
  assert.is(transactions.length, 3, JSON.stringify(transactions));
  assert.equal(
    transactions.map(({ actor }) => actor),
    [ROOT, ERIN, ROOT],
  );
  const times = transactions.map(({ timestampMillis }) => timestampMillis);
  assert.equal(
    [...times].sort((a, b) => a - b),
    times,
    'oldest first',
  );
  for (const time of times) assert.ok(time >= from && time <= to, `${time} within the edits`);
  assert.equal(
    transactions.map(({ changes }) =>
      changes.map(({ urn, category, operation, modifier }) => [urn, category, operation, modifier]),
    ),
    [
      [[ORDERS, 'DOCUMENTATION', 'ADD', null]],
      [[schemaFieldUrn(ORDERS, 'customer_id'), 'DOCUMENTATION', 'ADD', 'customer_id']],
      [[ORDERS, 'TAG', 'ADD', PII]],
    ],
  );
  assert.equal(
    transactions.map(({ lastSemanticVersion }) => lastSemanticVersion),
    ['0.0.0-computed', '0.1.0-computed', '0.2.0-computed'],
  );
}

// ---

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

// ---

const restart = suite('getTimeline across restarts and compaction');

restart('the same history after a restart, and after a compaction and a restart', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, ...USERS] });
  let span: { from: number; to: number };
  let before: Transaction[];
  try {
    span = await threeEdits(first, await first.createToken('erin'));
    before = await transactionsOf(first, { urn: ORDERS });
    assertThreeEdits(before, span);
  } finally {
    await first.close();
  }

  const second = await startTestServer({ dataDir });
  let state: unknown;
  try {
    assert.is(second.store.history.built, false, 'nothing read at start-up');
    assert.equal(await transactionsOf(second, { urn: ORDERS }), before);
    assert.is(second.store.history.built, true);
    state = second.store.export();
    const report = await second.store.compact();
    assert.is(report.records, second.store.catalogue.entityCount, 'the state: one record per entity');
    assert.ok(report.historyRecords >= 3, `${report.historyRecords} history records`);
    // The history in memory is the same after the compaction as before it.
    assert.equal(await transactionsOf(second, { urn: ORDERS }), before);
  } finally {
    await second.close();
  }

  const lines = readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8').trimEnd().split('\n');
  const records = lines.map((line) => JSON.parse(line) as LogRecord);
  const history = records.filter((record) => record.history !== undefined);
  assert.ok(history.length >= 3, `${history.length} history records`);
  assert.ok(
    history.every((record) => record.changes.length === 0),
    'history records change nothing on replay',
  );
  assert.equal(
    records.map(({ seq }) => seq),
    records.map((_, index) => index + 1),
  );

  const third = await startTestServer({ dataDir });
  try {
    assert.equal(third.store.export(), state, 'replay of the compacted log ends at the same state');
    assert.equal(await transactionsOf(third, { urn: ORDERS }), before);
  } finally {
    await third.close();
  }
  // Replayed on two threads, the history records change nothing either.
  const twoThreads = await Store.open({ dataDir, parallelReplayBytes: 1 });
  try {
    assert.ok(twoThreads.replayedInWorker);
    assert.equal(twoThreads.export(), state);
  } finally {
    await twoThreads.close();
  }
});

restart('a history read while commits land counts each of them once', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, ...USERS] });
  const span = await threeEdits(first, await first.createToken('erin'));
  await first.close();
  const store = await Store.open({ dataDir });
  try {
    const descriptions = ['first', 'second', 'third'];
    const commits = descriptions.map((description) =>
      store.commit('updateDataset', ROOT, () => [
        { urn: ORDERS, aspect: 'editableDatasetProperties', value: { description } },
      ]),
    );
    const steps = store.history.steps(ORDERS);
    await Promise.all(commits);
    const read = await steps;
    assert.is(read.length, 6, 'three edits, then three commits');
    assert.ok(span.from <= (read[0]?.time ?? 0));
    assert.equal(
      read.slice(3).map(({ changes }) => changes.map(({ value }) => value)),
      descriptions.map((description) => [{ description }]),
    );
  } finally {
    await store.close();
  }
});

restart.run();
