// The browsePathV2 filter as DataHub's clients send it: the SDK's get_urns_by_filter(container=...) scroll
// (CONTAIN on the container URN), the web app's EQUAL on a ␟-joined path, over the sample catalogue's nested
// containers and bootstrap_mce.json's; an ingested browsePathsV2 wins; moving a container moves its contents.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { ingest } from '../src/datahub/ingest.ts';
import { sdkScroll } from './fixtures/sdk-scroll.ts';
import { mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { BOOTSTRAP, bootstrapAvailable, SAMPLE } from './fixtures/server.ts';

const ROOT = 'urn:li:corpuser:datahub';
const SEP = '\u241f';
const ANALYTICS = 'urn:li:container:analytics';
const MARTS = 'urn:li:container:analytics_marts';
const STAGING = 'urn:li:container:analytics_staging';
const SHOP = 'urn:li:container:shop_db';
const DAILY_REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.marts.daily_revenue,PROD)';
const STG_ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.staging.stg_orders,PROD)';
const ORDER_EVENTS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,shop.order-events,PROD)';
const SHOP_ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const SHOP_CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.customers,PROD)';

/** get_urns_by_filter(entity_types, container): generate_filter's rules, sent by the SDK's scroll document. */
async function sdkUrnsByContainer(hub: InProcessHub, container: string, types: string[] | null): Promise<string[]> {
  const orFilters = [
    {
      and: [
        { field: 'browsePathV2', condition: 'CONTAIN', values: [container] },
        { field: 'removed', condition: 'EQUAL', values: ['true'], negated: true },
      ],
    },
  ];
  const { listed } = await sdkScroll(hub, { types, orFilters, batchSize: 2 }, { maxPages: 50 });
  return listed.sort();
}

const FIND = `query($filters: [FacetFilterInput!]) {
  searchAcrossEntities(input: {query: "*", count: 100, filters: $filters}) { searchResults { entity { urn } } } }`;

async function found(hub: InProcessHub, condition: string, value: string): Promise<string[]> {
  const reply = await hub.gql(FIND, { filters: [{ field: 'browsePathV2', condition, values: [value] }] });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return (reply.json.data.searchAcrossEntities.searchResults as { entity: { urn: string } }[])
    .map((entry) => entry.entity.urn)
    .sort();
}

const test = suite<{ hub: InProcessHub }>('search: the browsePathV2 filter');

test.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
test.after(async ({ hub }) => hub.close());

test("the SDK's get_urns_by_filter(container=...) lists what is anywhere under the container", async ({ hub }) => {
  assert.equal(await sdkUrnsByContainer(hub, ANALYTICS, ['DATASET']), [DAILY_REVENUE, STG_ORDERS].sort());
  assert.equal(await sdkUrnsByContainer(hub, MARTS, ['DATASET']), [DAILY_REVENUE]);
  assert.equal(await sdkUrnsByContainer(hub, SHOP, ['DATASET']), [SHOP_CUSTOMERS, SHOP_ORDERS].sort());
  // With no entity types, the containers inside come too, as their paths hold their parents.
  assert.equal(await sdkUrnsByContainer(hub, ANALYTICS, null), [DAILY_REVENUE, STG_ORDERS, MARTS, STAGING].sort());
  assert.equal(await sdkUrnsByContainer(hub, 'urn:li:container:nowhere', null), []);
});

test("the web app's EQUAL on a path prefix, and DataHub's default paths", async ({ hub }) => {
  assert.equal(await found(hub, 'EQUAL', `${SEP}${ANALYTICS}${SEP}${MARTS}`), [DAILY_REVENUE]);
  assert.equal(await found(hub, 'EQUAL', `${SEP}${ANALYTICS}`), [DAILY_REVENUE, STG_ORDERS, MARTS, STAGING].sort());
  assert.equal(await found(hub, 'EQUAL', `${SEP}urn:li:container:ANALYTICS`), [], 'EQUAL keeps case');
  assert.equal(await found(hub, 'IEQUAL', `${SEP}urn:li:container:ANALYTICS${SEP}${MARTS}`), [DAILY_REVENUE]);
  assert.equal(await found(hub, 'START_WITH', `${SEP}${SHOP}`), [SHOP_CUSTOMERS, SHOP_ORDERS].sort());
  // A dataset in no container: the lower-cased name parts before the last dot; a top container: Default.
  assert.equal(await found(hub, 'EQUAL', `${SEP}shop`), [ORDER_EVENTS]);
  assert.equal(await found(hub, 'EQUAL', `${SEP}Default`), [ANALYTICS, SHOP].sort());
  const reply = await hub.gql(FIND, { filters: [{ field: 'browsePathV2', condition: 'EXISTS' }] });
  const urns = (reply.json.data.searchAcrossEntities.searchResults as { entity: { urn: string } }[]).map(
    (e) => e.entity.urn,
  );
  assert.ok(urns.includes(ORDER_EVENTS) && urns.includes(SHOP));
  assert.not.ok(urns.some((urn) => urn.startsWith('urn:li:tag:') || urn.startsWith('urn:li:corpuser:')));
});

test('an ingested browsePathsV2 is used as it came, ids in order', async ({ hub }) => {
  await ingest(
    hub.store,
    [mcp(ORDER_EVENTS, 'browsePathsV2', { path: [{ id: 'streams' }, { id: SHOP, urn: SHOP }] })],
    ROOT,
  );
  assert.equal(await found(hub, 'EQUAL', `${SEP}streams${SEP}${SHOP}`), [ORDER_EVENTS]);
  assert.equal(await found(hub, 'EQUAL', `${SEP}shop`), [], 'the default path is gone');
  assert.ok((await sdkUrnsByContainer(hub, SHOP, ['DATASET'])).includes(ORDER_EVENTS));
});

test('moving a container moves everything under it by the next request', async ({ hub }) => {
  await ingest(hub.store, [mcp(MARTS, 'container', { container: SHOP })], ROOT);
  assert.equal(await sdkUrnsByContainer(hub, MARTS, ['DATASET']), [DAILY_REVENUE]);
  assert.ok((await sdkUrnsByContainer(hub, SHOP, ['DATASET'])).includes(DAILY_REVENUE));
  assert.equal(await found(hub, 'EQUAL', `${SEP}${ANALYTICS}`), [STG_ORDERS, STAGING].sort());
  assert.equal(await found(hub, 'EQUAL', `${SEP}${SHOP}${SEP}${MARTS}`), [DAILY_REVENUE]);
});

test.run();

const bootstrap = suite<{ hub: InProcessHub }>("search: browsePathV2 over DataHub's bootstrap_mce.json");
const available = bootstrapAvailable('browsePathV2 over bootstrap_mce.json');

bootstrap.before(async (context) => {
  if (available) context.hub = await openInProcess({ seed: [BOOTSTRAP] });
});
bootstrap.after(async ({ hub }) => hub?.close());

bootstrap('the SDK finds the hive dataset under DATABASE > SCHEMA', async ({ hub }) => {
  if (!available) return;
  const hive = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
  assert.equal(
    await sdkUrnsByContainer(hub, 'urn:li:container:DATABASE', null),
    [hive, 'urn:li:container:SCHEMA'].sort(),
  );
  assert.equal(await sdkUrnsByContainer(hub, 'urn:li:container:SCHEMA', ['DATASET']), [hive]);
  assert.equal(await found(hub, 'EQUAL', `${SEP}urn:li:container:DATABASE${SEP}urn:li:container:SCHEMA`), [hive]);
});

bootstrap.run();
