// Search as DataHub's clients use it, in process: the SDK's scroll document lists every dataset of a
// platform and environment exactly once, facets count the matches, ranking puts names first, accepts a
// prefix and a typo, filters refuse what they do not know, pages stay in bounds, autocomplete completes.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { SDK_SCROLL, sdkScroll } from './fixtures/sdk-scroll.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import {
  ALICE,
  FINANCE,
  HIVE_DEV,
  HIVE_PROD,
  ORDERS,
  PII,
  REMOVED,
  REVENUE,
  searchCatalogue,
  SNOWFLAKE,
} from './fixtures/search-catalogue.ts';

const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
  start count total searchResults { entity { urn type } matchedFields { name value } }
  facets { field displayName aggregations { value count displayName entity { urn } } } } }`;

interface Result {
  start: number;
  count: number;
  total: number;
  searchResults: { entity: { urn: string; type: string }; matchedFields: { name: string; value: string }[] }[];
  facets: { field: string; aggregations: { value: string; count: number; displayName: string | null }[] }[];
}

const test = suite<{ hub: InProcessHub }>('search: documents, facets, ranking, filters and paging');

test.before(async (context) => {
  context.hub = await openInProcess({ seed: [searchCatalogue()] });
});
test.after(async ({ hub }) => hub.close());

async function search(hub: InProcessHub, input: Record<string, unknown>): Promise<Result> {
  const reply = await hub.gql(SEARCH, { input });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data.searchAcrossEntities as Result;
}

const urns = (result: Result) => result.searchResults.map((entry) => entry.entity.urn);
const facet = (result: Result, field: string) =>
  Object.fromEntries(result.facets.find((f) => f.field === field)?.aggregations.map((a) => [a.value, a.count]) ?? []);

/** get_urns_by_filter's loop: the same document, page after page, until nextScrollId is null. */
async function scrollAll(hub: InProcessHub, platform: string, env: string, batchSize: number) {
  const variables = JSON.parse(JSON.stringify(SDK_SCROLL?.variables)) as Record<string, unknown> & {
    orFilters: { and: { field: string; value?: string; values?: string[] }[] }[];
  };
  for (const group of variables.orFilters) {
    for (const rule of group.and) {
      if (rule.field === 'platform.keyword') rule.values = [`urn:li:dataPlatform:${platform}`];
      if (rule.value !== undefined) rule.value = rule.value.replace('PROD', env);
    }
  }
  return sdkScroll(hub, { ...variables, batchSize });
}

test("DataHub SDK's get_urns_by_filter scrolls until nextScrollId is null and lists every hive PROD dataset once", async ({
  hub,
}) => {
  const { listed, pages } = await scrollAll(hub, 'hive', 'PROD', 5);
  assert.equal([...listed].sort(), [...HIVE_PROD].sort());
  assert.is(new Set(listed).size, listed.length);
  assert.is(pages, 5);
  assert.not.ok(listed.includes(REMOVED), 'the soft-deleted dataset is left out');
});

test('the same scroll for DEV, and for snowflake, lists exactly those', async ({ hub }) => {
  assert.equal((await scrollAll(hub, 'hive', 'DEV', 2)).listed.sort(), [...HIVE_DEV].sort());
  assert.equal((await scrollAll(hub, 'snowflake', 'PROD', 100)).listed.sort(), [...SNOWFLAKE, ORDERS, REVENUE].sort());
});

test('a filter on removed finds the soft-deleted dataset', async ({ hub }) => {
  const result = await search(hub, { query: '*', orFilters: [{ and: [{ field: 'removed', values: ['true'] }] }] });
  assert.equal(urns(result), [REMOVED]);
});

test('facets count the filtered matches, the filtered value included', async ({ hub }) => {
  const all = await search(hub, { query: '*', count: 0 });
  const types = facet(all, '_entityType');
  assert.is(types.DATASET, HIVE_PROD.length + HIVE_DEV.length + SNOWFLAKE.length + 2);
  assert.is(types.TAG, 1);
  assert.is(types.CONTAINER, 1);
  assert.is(types.CORP_GROUP, 1);
  assert.is(
    Object.values(types).reduce((a, b) => a + b, 0),
    all.total,
  );
  const snowflake = await search(hub, {
    query: '*',
    types: ['DATASET'],
    orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }] }],
  });
  assert.is(snowflake.total, SNOWFLAKE.length + 2);
  assert.equal(facet(snowflake, 'platform'), { 'urn:li:dataPlatform:snowflake': SNOWFLAKE.length + 2 });
  assert.equal(facet(snowflake, 'container'), { [FINANCE]: 2 });
  assert.equal(facet(snowflake, 'tags'), { [PII]: 1 });
  assert.equal(facet(snowflake, 'owners'), { [ALICE]: 1 });
  const tags = snowflake.facets.find((f) => f.field === 'tags');
  assert.is(tags?.aggregations[0]?.displayName, 'PII');
  const none = await search(hub, { query: '*', filters: [{ field: 'platform', value: 'urn:li:dataPlatform:mysql' }] });
  assert.is(none.total, 0);
  assert.equal(facet(none, 'platform'), { 'urn:li:dataPlatform:mysql': 0 });
});

test('a name match beats a column match; matchedFields say where', async ({ hub }) => {
  const result = await search(hub, { query: 'revenue', types: ['DATASET'] });
  assert.equal(urns(result), [REVENUE, ORDERS]);
  assert.ok(result.searchResults[0]?.matchedFields.some((m) => m.name === 'name' && m.value === 'revenue'));
  assert.ok(
    result.searchResults[1]?.matchedFields.some((m) => m.name === 'fieldPaths' && m.value === 'revenue_amount'),
  );
});

test('prefix as you type, a typo on a longer word, case and markdown ignored', async ({ hub }) => {
  assert.is(urns(await search(hub, { query: 'reve' }))[0], REVENUE);
  assert.is(urns(await search(hub, { query: 'revnue' }))[0], REVENUE);
  assert.is(urns(await search(hub, { query: 'REVENUE' }))[0], REVENUE);
  assert.equal(urns(await search(hub, { query: 'region' })), [REVENUE]);
  assert.equal(urns(await search(hub, { query: 'daily revenue region' })), [REVENUE]);
  assert.equal(urns(await search(hub, { query: 'ordr' })), [], 'no typo allowed on a four-letter word');
});

test('an unknown filter field and an unsupported condition are errors naming them', async ({ hub }) => {
  const field = await hub.gql(SEARCH, {
    input: { query: '*', orFilters: [{ and: [{ field: 'colour', values: ['red'] }] }] },
  });
  assert.match(field.json.errors[0].message, /"colour"/);
  assert.is(field.json.errors[0].extensions.code, 400);
  const condition = await hub.gql(SEARCH, {
    input: { query: '*', orFilters: [{ and: [{ field: 'origin', values: ['PROD'], condition: 'GREATER_THAN' }] }] },
  });
  assert.match(condition.json.errors[0].message, /GREATER_THAN/);
  assert.is(condition.json.errors[0].extensions.code, 400);
  // A name every object answers is unknown too, never a crash.
  const inherited = await hub.gql(SEARCH, {
    input: { query: '*', orFilters: [{ and: [{ field: 'toString', values: ['x'] }] }] },
  });
  assert.match(inherited.json.errors[0].message, /Unknown search filter field "toString"/);
  assert.is(inherited.json.errors[0].extensions.code, 400);
});

test('a query of more than 32 different words is a 400 saying so; 32 repeated a thousand times is searched', async ({
  hub,
}) => {
  const words = Array.from({ length: 33 }, (_, i) => `word${i}`);
  const long = await hub.gql(SEARCH, { input: { query: words.join(' ') } });
  assert.match(long.json.errors[0].message, /33 different words; minihub searches at most 32/);
  assert.is(long.json.errors[0].extensions.code, 400);
  const repeated = await hub.gql(SEARCH, { input: { query: 'orders '.repeat(1000) } });
  assert.is(repeated.json.errors, undefined);
  assert.ok(repeated.json.data.searchAcrossEntities.total > 0);
});

test('paging: start past the end is empty, count is capped at 10000, a negative count is refused', async ({ hub }) => {
  const past = await search(hub, { query: '*', start: 1000, count: 10 });
  assert.is(past.searchResults.length, 0);
  assert.ok(past.total > 30);
  const capped = await search(hub, { query: '*', count: 20000 });
  assert.is(capped.count, 10000);
  assert.is(capped.searchResults.length, capped.total);
  const page = await search(hub, { query: '*', start: 3, count: 4 });
  assert.equal(urns(page), urns(capped).slice(3, 7));
  const negative = await hub.gql(SEARCH, { input: { query: '*', count: -1 } });
  assert.is(negative.json.errors[0].extensions.code, 400);
  const scroll = await hub.gql('{ scrollAcrossEntities(input: {query: "*", scrollId: "nonsense"}) { total } }');
  assert.match(scroll.json.errors[0].message, /scrollId/);
});

test('search, autoComplete and autoCompleteForMultiple', async ({ hub }) => {
  const tag = await hub.gql('{ search(input: {type: TAG, query: "pii"}) { total searchResults { entity { urn } } } }');
  assert.equal(tag.json.data.search.searchResults, [{ entity: { urn: PII } }]);
  const one = await hub.gql(
    '{ autoComplete(input: {type: DATASET, query: "rev"}) { query suggestions entities { urn } } }',
  );
  assert.equal(one.json.data.autoComplete, { query: 'rev', suggestions: ['revenue'], entities: [{ urn: REVENUE }] });
  const many = await hub.gql('{ autoCompleteForMultiple(input: {query: "ali"}) { suggestions { type suggestions } } }');
  assert.equal(many.json.data.autoCompleteForMultiple.suggestions, [
    { type: 'CORP_USER', suggestions: ['Alice Liddell'] },
  ]);
});

test.run();
