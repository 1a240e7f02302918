// sortInput and searchFlags: the web app's "Name A to Z / Z to A" (case ignored, ties by URN), several
// criteria, a name sort over a text query, an unknown field refused by name; the SDK's scroll with a sort
// keeps its order across pages and writes; skipAggregates, maxAggValues and skipHighlighting are honoured.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { ingest } from '../src/datahub/ingest.ts';
import { SDK_SCROLL, sdkScroll } from './fixtures/sdk-scroll.ts';
import { mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { datasetUrn, HIVE_DEV, HIVE_PROD, ORDERS, REVENUE, searchCatalogue } from './fixtures/search-catalogue.ts';

const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
  total searchResults { entity { urn } matchedFields { name value } } facets { field aggregations { value count } } } }`;

interface Result {
  total: number;
  searchResults: { entity: { urn: string }; matchedFields: { name: string; value: string }[] }[];
  facets: { field: string; aggregations: { value: string; count: number }[] }[];
}

const ROOT = 'urn:li:corpuser:datahub';
const byName = (sortOrder: string) => ({ sortCriterion: { field: '_entityName', sortOrder } });

const test = suite<{ hub: InProcessHub }>('search: sortInput and searchFlags');

test.before(async (context) => {
  context.hub = await openInProcess({ seed: [searchCatalogue()] });
});
test.after(async ({ hub }) => hub.close());

async function search(hub: InProcessHub, input: Record<string, unknown>): Promise<Result> {
  const reply = await hub.gql(SEARCH, { input: { count: 100, ...input } });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data.searchAcrossEntities as Result;
}

const urns = (result: Result) => result.searchResults.map((entry) => entry.entity.urn);

/** The SDK's scroll document, page after page, with `sortInput`; `between` runs after the first page. */
async function sortedScroll(hub: InProcessHub, sortInput: unknown, between?: () => Promise<void>) {
  const variables = { types: ['DATASET'], orFilters: [], batchSize: 4, sortInput };
  const afterPage = async (listed: readonly string[]) => {
    if (listed.length === 4) await between?.();
  };
  return (await sdkScroll(hub, variables, { maxPages: 50, afterPage })).listed;
}

test("the web app's Name A to Z ignores case and breaks ties by URN; Z to A reverses the names only", async ({
  hub,
}) => {
  const ascending = urns(await search(hub, { query: '*', sortInput: byName('ASCENDING') }));
  // Alice Liddell, Analysts, db.table_00 (DEV, then PROD), ..., Finance, orders, PII, revenue, warehouse...
  assert.equal(ascending.slice(0, 4), [
    'urn:li:corpuser:alice',
    'urn:li:corpGroup:analysts',
    HIVE_DEV[0],
    HIVE_PROD[0],
  ]);
  assert.equal(ascending.slice(-8, -4), ['urn:li:container:finance', ORDERS, 'urn:li:tag:pii', REVENUE]);
  const descending = urns(await search(hub, { query: '*', sortInput: byName('DESCENDING') }));
  assert.is(descending[0], datasetUrn('snowflake', 'warehouse.fact_3'));
  assert.equal(descending.slice(-4), [HIVE_DEV[0], HIVE_PROD[0], 'urn:li:corpGroup:analysts', 'urn:li:corpuser:alice']);
  assert.is(descending.length, ascending.length);
});

test('sortCriteria apply in turn, and a name sort replaces the ranking of a text query', async ({ hub }) => {
  const sortInput = {
    sortCriteria: [
      { field: '_entityType', sortOrder: 'DESCENDING' },
      { field: 'name', sortOrder: 'ASCENDING' },
    ],
  };
  const sorted = urns(await search(hub, { query: '*', sortInput }));
  // TAG, DATASET, CORP_USER, CORP_GROUP, CONTAINER; the datasets by name.
  assert.equal(sorted.slice(0, 3), ['urn:li:tag:pii', HIVE_DEV[0], HIVE_PROD[0]]);
  assert.equal(sorted.slice(-3), ['urn:li:corpuser:alice', 'urn:li:corpGroup:analysts', 'urn:li:container:finance']);
  assert.equal(urns(await search(hub, { query: 'revenue', types: ['DATASET'] })), [REVENUE, ORDERS]);
  assert.equal(urns(await search(hub, { query: 'revenue', types: ['DATASET'], sortInput: byName('ASCENDING') })), [
    ORDERS,
    REVENUE,
  ]);
  // An empty list is the ranked order.
  assert.equal(urns(await search(hub, { query: 'revenue', sortInput: { sortCriteria: [] } })), [REVENUE, ORDERS]);
});

test('an unknown sort field is a 400 naming it', async ({ hub }) => {
  const reply = await hub.gql(SEARCH, {
    input: { query: '*', sortInput: { sortCriterion: { field: 'popularity', sortOrder: 'ASCENDING' } } },
  });
  assert.match(reply.json.errors[0].message, /"popularity"/);
  assert.match(reply.json.errors[0].message, /"_entityName"/);
  assert.is(reply.json.errors[0].extensions.code, 400);
});

test("the SDK's scroll keeps the sort across pages, through a write, and refuses a changed sort", async ({ hub }) => {
  const sortInput = { sortCriteria: [{ field: '_entityName', sortOrder: 'DESCENDING' }] };
  const all = urns(await search(hub, { query: '*', types: ['DATASET'], sortInput, count: 1000 }));
  assert.equal(await sortedScroll(hub, sortInput), all);
  // A dataset added after the first page, sorting before the position: not listed, nothing repeated or lost.
  const early = datasetUrn('hive', 'zzz.first');
  const listed = await sortedScroll(hub, sortInput, async () => {
    await ingest(hub.store, [mcp(early, 'status', { removed: false })], ROOT);
  });
  assert.equal(listed, all);
  const first = await hub.gql(SDK_SCROLL?.text as string, {
    ...SDK_SCROLL?.variables,
    types: ['DATASET'],
    orFilters: [],
    batchSize: 2,
    sortInput,
  });
  const scrollId = first.json.data.scrollAcrossEntities.nextScrollId as string;
  const changed = await hub.gql(SDK_SCROLL?.text as string, {
    ...SDK_SCROLL?.variables,
    types: ['DATASET'],
    orFilters: [],
    batchSize: 2,
    scrollId,
    sortInput: byName('ASCENDING'),
  });
  assert.match(changed.json.errors[0].message, /sortInput/);
  assert.is(changed.json.errors[0].extensions.code, 400);
  // A later page without a sort of its own follows the scroll id's.
  const next = await hub.gql(SDK_SCROLL?.text as string, {
    ...SDK_SCROLL?.variables,
    types: ['DATASET'],
    orFilters: [],
    batchSize: 2,
    scrollId,
    sortInput: null,
  });
  const page = next.json.data.scrollAcrossEntities.searchResults.map(
    (entry: { entity: { urn: string } }) => entry.entity.urn,
  );
  const now = urns(await search(hub, { query: '*', types: ['DATASET'], sortInput, count: 1000 }));
  assert.is(now[0], early);
  assert.equal(page, now.slice(2, 4));
});

test('skipAggregates, maxAggValues and skipHighlighting', async ({ hub }) => {
  const skipped = await search(hub, { query: 'revenue', searchFlags: { skipAggregates: true } });
  assert.equal(skipped.facets, []);
  const capped = await search(hub, { query: '*', searchFlags: { maxAggValues: 1 } });
  assert.ok(capped.facets.length > 0 && capped.facets.every((facet) => facet.aggregations.length <= 1));
  assert.equal(capped.facets.find((facet) => facet.field === '_entityType')?.aggregations, [
    { value: 'DATASET', count: capped.total - 4 },
  ]);
  const highlighted = await search(hub, { query: 'revenue' });
  assert.ok((highlighted.searchResults[0]?.matchedFields.length ?? 0) > 0);
  const plain = await search(hub, { query: 'revenue', searchFlags: { skipHighlighting: true } });
  assert.equal(urns(plain), urns(highlighted));
  assert.ok(plain.searchResults.every((entry) => entry.matchedFields.length === 0));
});

test.run();
