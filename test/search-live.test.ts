// Search follows every write by the next request: description edits, tags added and removed, links,
// ingests, a deleted tag, a soft delete, a reset; the response cache never serves an old answer; a search
// sent while the index is still building waits for it; a restart on the same data directory answers the same.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { ingest } from '../src/datahub/ingest.ts';
import { SearchIndex } from '../src/search/search-index.ts';
import { Store } from '../src/store/store.ts';
import { mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { datasetUrn, FINANCE, HIVE_PROD, ORDERS, PII, REVENUE, searchCatalogue } from './fixtures/search-catalogue.ts';
import { startTestServer, tempDataDir, type Reply } from './fixtures/server.ts';

const ROOT = 'urn:li:corpuser:datahub';
const FIND = `query($q: String!, $filters: [FacetFilterInput!]) {
  searchAcrossEntities(input: {query: $q, filters: $filters, count: 100}) { total searchResults { entity { urn } } } }`;

type Gql = (query: string, variables?: Record<string, unknown>) => Promise<Reply>;

async function found(gql: Gql, q: string, filters?: unknown[]): Promise<string[]> {
  const reply = await gql(FIND, { q, filters });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data.searchAcrossEntities.searchResults.map(
    (entry: { entity: { urn: string } }) => entry.entity.urn,
  );
}

async function mutate(hub: InProcessHub, mutation: string, input: Record<string, unknown>) {
  const reply = await hub.gql(mutation, { input });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
}

const live = suite<{ hub: InProcessHub }>('search: live after every kind of write');

live.before(async (context) => {
  context.hub = await openInProcess({ seed: [searchCatalogue()] });
});
live.after(async ({ hub }) => hub.close());

live('a description edit is found by the next request, and the old words no longer', async ({ hub }) => {
  const gql = hub.gql.bind(hub);
  assert.equal(await found(gql, 'zebra'), []);
  await mutate(hub, 'mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
    description: 'Striped like a *zebra*',
    resourceUrn: ORDERS,
  });
  assert.equal(await found(gql, 'zebra'), [ORDERS]);
  assert.equal(await found(gql, 'order row'), [], 'the ingested description is no longer the current one');
});

live('a tag added is found and filtered on; removed, it is gone', async ({ hub }) => {
  const gql = hub.gql.bind(hub);
  const byTag = [{ field: 'tags', values: [PII] }];
  assert.equal(await found(gql, '*', byTag), [REVENUE]);
  await mutate(hub, 'mutation($input: TagAssociationInput!) { addTag(input: $input) }', {
    tagUrn: PII,
    resourceUrn: ORDERS,
  });
  assert.equal((await found(gql, '*', byTag)).sort(), [ORDERS, REVENUE].sort());
  await mutate(hub, 'mutation($input: TagAssociationInput!) { removeTag(input: $input) }', {
    tagUrn: PII,
    resourceUrn: ORDERS,
  });
  assert.equal(await found(gql, '*', byTag), [REVENUE]);
});

live("a link's label is found", async ({ hub }) => {
  await mutate(hub, 'mutation($input: AddLinkInput!) { addLink(input: $input) }', {
    linkUrl: 'https://example.com/runbook',
    label: 'Kangaroo runbook',
    resourceUrn: REVENUE,
  });
  assert.equal(await found(hub.gql.bind(hub), 'kangaroo'), [REVENUE]);
});

live('a renamed tag or container is found under its new name on the entities that carry it', async ({ hub }) => {
  const gql = hub.gql.bind(hub);
  const renamed = await hub.gql(
    `mutation { updateTag(urn: "${PII}", input: {urn: "${PII}", name: "Sensitive"}) { urn } }`,
  );
  assert.is(renamed.json.errors, undefined, JSON.stringify(renamed.json.errors));
  assert.equal(await found(gql, 'sensitive'), [PII, REVENUE]);
  await ingest(hub.store, [mcp(FINANCE, 'containerProperties', { name: 'Treasury' })], ROOT);
  assert.equal((await found(gql, 'treasury')).sort(), [FINANCE, ORDERS, REVENUE].sort());
});

live('an ingest adds a dataset; an ingested soft delete removes it', async ({ hub }) => {
  const urn = datasetUrn('kafka', 'events.wombat_sightings');
  await ingest(hub.store, [mcp(urn, 'datasetProperties', { name: 'wombat_sightings' })], ROOT);
  assert.equal(await found(hub.gql.bind(hub), 'wombat'), [urn]);
  await ingest(hub.store, [mcp(urn, 'status', { removed: true })], ROOT);
  assert.equal(await found(hub.gql.bind(hub), 'wombat'), []);
});

live(
  'a column edit followed by a tags-only edit of the same column: search finds what the column shows',
  async ({ hub }) => {
    // An ingested file may list one column twice in editableSchemaFieldInfo; the later entry only tags it.
    const urn = datasetUrn('kafka', 'events.platypus_counts');
    await ingest(
      hub.store,
      [
        mcp(urn, 'datasetProperties', { name: 'platypus_counts' }),
        mcp(urn, 'schemaMetadata', {
          schemaName: 'platypus_counts',
          fields: [{ fieldPath: 'n', description: 'plain' }],
        }),
        mcp(urn, 'editableSchemaMetadata', {
          editableSchemaFieldInfo: [
            { fieldPath: 'n', description: 'echidna tally' },
            { fieldPath: 'n', globalTags: { tags: [] } },
          ],
        }),
      ],
      ROOT,
    );
    const column = await hub.gql(`{ dataset(urn: "${urn}") { schemaMetadata { fields { fieldPath description } } } }`);
    assert.equal(column.json.data.dataset.schemaMetadata.fields, [{ fieldPath: 'n', description: 'echidna tally' }]);
    assert.equal(await found(hub.gql.bind(hub), 'echidna'), [urn]);
    assert.equal(await found(hub.gql.bind(hub), 'plain platypus'), []);
  },
);

live(
  'a column tag edit followed by a description-only edit of the same column: its tag is still found',
  async ({ hub }) => {
    const urn = datasetUrn('kafka', 'events.quokka_counts');
    const tag = 'urn:li:tag:wallaby';
    await ingest(
      hub.store,
      [
        mcp(tag, 'tagProperties', { name: 'wallaby' }),
        mcp(urn, 'datasetProperties', { name: 'quokka_counts' }),
        mcp(urn, 'schemaMetadata', { schemaName: 'quokka_counts', fields: [{ fieldPath: 'n' }] }),
        mcp(urn, 'editableSchemaMetadata', {
          editableSchemaFieldInfo: [
            { fieldPath: 'n', globalTags: { tags: [{ tag }] } },
            { fieldPath: 'n', description: 'counted at dawn' },
          ],
        }),
      ],
      ROOT,
    );
    assert.equal(await found(hub.gql.bind(hub), 'wallaby quokka'), [urn]);
    assert.equal(await found(hub.gql.bind(hub), 'dawn quokka'), [urn]);
  },
);

live('a deleted tag disappears, and so do its associations', async ({ hub }) => {
  const gql = hub.gql.bind(hub);
  assert.equal(
    await found(gql, 'sensitive'),
    [PII, REVENUE],
    'the tag by its name (renamed above), then the dataset by its tag',
  );
  const reply = await hub.gql(`mutation { deleteTag(urn: "${PII}") }`);
  assert.is(reply.json.errors, undefined);
  assert.equal(await found(gql, 'sensitive'), []);
  assert.equal(await found(gql, '*', [{ field: 'tags', values: [PII] }]), []);
});

live('the response cache never answers a search from before a write', async ({ hub }) => {
  const both = `{ dataset(urn: "${ORDERS}") { urn } searchAcrossEntities(input: {query: "giraffe"}) { total } }`;
  const first = await hub.gql(both);
  assert.is(first.json.data.searchAcrossEntities.total, 0);
  assert.is((await hub.gql(both)).json.data.searchAcrossEntities.total, 0);
  await mutate(hub, 'mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
    description: 'Tall as a giraffe',
    resourceUrn: HIVE_PROD[0],
  });
  assert.is((await hub.gql(both)).json.data.searchAcrossEntities.total, 1);
  assert.equal(await found(hub.gql.bind(hub), 'giraffe'), [HIVE_PROD[0]]);
});

live.run();

const start = suite('search: while building, and across a restart');

start('a search sent as the store opens waits for the index and answers in full', async () => {
  const hub = await openInProcess({ seed: [searchCatalogue()] });
  try {
    const reply = await hub.gql('{ searchAcrossEntities(input: {query: "*", count: 0}) { total } }');
    const every = await hub.gql(
      '{ searchAcrossEntities(input: {query: "*", count: 0, filters: [{field: "removed", values: ["false"]}]}) { total } }',
    );
    assert.ok(reply.json.data.searchAcrossEntities.total > 30);
    assert.is(reply.json.data.searchAcrossEntities.total, every.json.data.searchAcrossEntities.total);
  } finally {
    await hub.close();
  }
});

start('a store that closes stops its index build; what was left is indexed if a search still asks', async () => {
  const store = await Store.open({ dataDir: null });
  const tags = 3000;
  await store.commit('test', ROOT, () =>
    Array.from({ length: tags }, (_, i) => ({
      urn: `urn:li:tag:closing-${i}`,
      aspect: 'tagProperties',
      value: { name: `closing ${i}` },
    })),
  );
  let reads = 0;
  const read = store.catalogue.aspect.bind(store.catalogue);
  store.catalogue.aspect = (urn, name) => (reads++, read(urn, name));
  const index = new SearchIndex(store);
  const building = index.start(); // its first slice runs on a later turn of the event loop
  await store.close();
  await building;
  assert.is(reads, 0, 'nothing was indexed after the store began to close');
  const { engine } = await index.current();
  assert.is(reads > 0, true, 'a search after all indexes what the build left');
  assert.is(engine.query('closing').size, tags);
  assert.is(engine.size, tags);
});

start('a build stopped midway by a closing store leaves nothing it had read out of the next search', async () => {
  const store = await Store.open({ dataDir: null });
  const tags = 3000;
  await store.commit('test', ROOT, () =>
    Array.from({ length: tags }, (_, i) => ({
      urn: `urn:li:tag:midway-${i}`,
      aspect: 'tagProperties',
      value: { name: `midway ${i}` },
    })),
  );
  // The store reads as closing once the build has described some entities (a server closed mid-build).
  let reads = 0;
  const read = store.catalogue.aspect.bind(store.catalogue);
  store.catalogue.aspect = (urn, name) => (reads++, read(urn, name));
  Object.defineProperty(store, 'closing', { get: () => reads > 100, configurable: true });
  const index = new SearchIndex(store);
  await index.start();
  assert.ok(reads > 100, 'the build began');
  const { engine } = await index.current();
  assert.is(engine.query('midway').size, tags, 'every entity, those described before the stop included');
  Object.defineProperty(store, 'closing', { get: () => false });
  await store.close();
});

start('a reset to the seeds is searchable by the next request', async () => {
  const hub = await startTestServer({ dataDir: null, seed: [searchCatalogue()] });
  try {
    const gql = hub.gql.bind(hub);
    const edit = await hub.gql(
      `mutation { updateDescription(input: {description: "About lynxes", resourceUrn: "${ORDERS}"}) }`,
    );
    assert.is(edit.json.errors, undefined);
    assert.equal(await found(gql, 'lynxes'), [ORDERS]);
    await hub.reset();
    assert.equal(await found(gql, 'lynxes'), []);
    assert.equal(await found(gql, 'order row'), [ORDERS], 'the ingested description is current again');
  } finally {
    await hub.close();
  }
});

start('a restart on the same data directory gives the same results', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [searchCatalogue()] });
  let before: string[];
  try {
    const edit = await first.gql(
      'mutation { updateDescription(input: {description: "About otters", resourceUrn: "' + ORDERS + '"}) }',
    );
    assert.is(edit.json.errors, undefined);
    before = await found(first.gql.bind(first), 'revenue otters');
    assert.equal(await found(first.gql.bind(first), 'otters'), [ORDERS]);
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  try {
    assert.equal(await found(second.gql.bind(second), 'revenue otters'), before);
    assert.equal(await found(second.gql.bind(second), 'otters'), [ORDERS]);
    assert.equal((await found(second.gql.bind(second), 'revenue')).slice(0, 2), [REVENUE, ORDERS]);
  } finally {
    await second.close();
  }
});

start.run();
