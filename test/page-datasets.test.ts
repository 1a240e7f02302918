// What the web app's dataset and container pages read that minihub answers from its data: parent
// containers, a container's entities a page at a time, status, uri, foreign keys, platform info,
// glossary terms, domains and deprecation; null or empty where the aspect is absent. In process.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { dataOf, mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { BOOTSTRAP, bootstrapAvailable, SAMPLE } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const TERM = 'urn:li:glossaryTerm:Classification.Sensitive';
const GHOST_TERM = 'urn:li:glossaryTerm:Nowhere.Missing';
const DOMAIN = 'urn:li:domain:marketing';
const ROOT = 'urn:li:container:root';
const LEAF = 'urn:li:container:leaf';

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${name},PROD)`;
const inside = (urn: string, container: string) => mcp(urn, 'container', { container });
const named = (urn: string, name: string) => mcp(urn, 'datasetProperties', { name, customProperties: {} });

type Context = { hub: InProcessHub };

// root > leaf > five datasets (t0..t4); loop_a and loop_b name each other as their container.
const RECORDS: JsonValue[] = [
  mcp(ROOT, 'containerProperties', { name: 'root', customProperties: {} }),
  mcp(LEAF, 'containerProperties', { name: 'leaf', customProperties: {} }),
  inside(LEAF, ROOT),
  mcp(LEAF, 'status', { removed: false }), // not true: a removed container is left out of its parent's listing
  ...[0, 1, 2, 3, 4].flatMap((i) => [
    named(dataset(`db.s.t${i}`), i === 3 ? 'Orders_Archive' : `t${i}`),
    inside(dataset(`db.s.t${i}`), LEAF),
  ]),
  inside('urn:li:container:loop_a', 'urn:li:container:loop_b'),
  inside('urn:li:container:loop_b', 'urn:li:container:loop_a'),
  mcp(dataset('db.s.t0'), 'datasetProperties', { name: 't0', uri: 'postgres://db/s/t0' }),
  mcp(dataset('db.s.t0'), 'glossaryTerms', {
    terms: [{ urn: TERM }, { urn: GHOST_TERM, actor: 'urn:li:corpuser:alice' }],
    auditStamp: { time: 1, actor: 'urn:li:corpuser:alice' },
  }),
  mcp(TERM, 'glossaryTermInfo', { name: 'Sensitive', definition: 'Handle with care', termSource: 'INTERNAL' }),
  mcp(dataset('db.s.t0'), 'domains', { domains: [DOMAIN] }),
  mcp(LEAF, 'deprecation', { deprecated: true, note: 'Moved', actor: 'urn:li:corpuser:bob', decommissionTime: 42 }),
  mcp(dataset('db.s.t1'), 'schemaMetadata', {
    schemaName: 't1',
    platform: 'urn:li:dataPlatform:postgres',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
    fields: [
      {
        fieldPath: 'order_id',
        nullable: false,
        type: { type: { 'com.linkedin.schema.NumberType': {} } },
        glossaryTerms: { terms: [{ urn: TERM }], auditStamp: { time: 1 } },
      },
    ],
    foreignKeys: [
      {
        name: 'fk_order',
        foreignDataset: ORDERS,
        sourceFields: [`urn:li:schemaField:(${dataset('db.s.t1')},order_id)`],
        foreignFields: [`urn:li:schemaField:(${ORDERS},order_id)`],
      },
    ],
  }),
];

const pages = suite<Context>('dataset and container pages');
pages.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, RECORDS] });
});
pages.after(async ({ hub }) => hub.close());

pages('parentContainers lists the containers above, nearest first; none gives an empty list', async ({ hub }) => {
  const data = await dataOf(
    hub,
    `{ dataset(urn: "${dataset('db.s.t2')}") { container { urn } parentContainers { count containers { urn properties { name } } } }
       leaf: container(urn: "${LEAF}") { container { urn } parentContainers { count containers { urn } } }
       root: container(urn: "${ROOT}") { container { urn } parentContainers { count containers { urn } } } }`,
    {},
  );
  assert.equal(data.dataset.container, { urn: LEAF });
  assert.equal(data.dataset.parentContainers, {
    count: 2,
    containers: [
      { urn: LEAF, properties: { name: 'leaf' } },
      { urn: ROOT, properties: { name: 'root' } },
    ],
  });
  assert.equal(data.leaf.parentContainers, { count: 1, containers: [{ urn: ROOT }] });
  assert.equal(data.root, { container: null, parentContainers: { count: 0, containers: [] } });
});

pages('a cycle of container aspects ends the walk instead of looping', async ({ hub }) => {
  const data = await dataOf(
    hub,
    `{ container(urn: "urn:li:container:loop_a") { parentContainers { count containers { urn } }
       entities { total searchResults { entity { urn } } } } }`,
    {},
  );
  assert.equal(data.container.parentContainers, { count: 1, containers: [{ urn: 'urn:li:container:loop_b' }] });
  assert.equal(data.container.entities.total, 1);
  assert.equal(data.container.entities.searchResults, [{ entity: { urn: 'urn:li:container:loop_b' } }]);
});

const ENTITIES = `query e($urn: String!, $input: ContainerEntitiesInput) { container(urn: $urn) {
  entities(input: $input) { start count total facets { field } suggestions { text }
    searchResults { entity { urn type ... on Dataset { name } ... on Container { properties { name } } } matchedFields { name value } insights { text } extraProperties { name } } } } }`;

const entities = async (hub: InProcessHub, urn: string, input: Record<string, unknown> | null) =>
  (await dataOf(hub, ENTITIES, { urn, input })).container.entities;

pages('Container.entities pages through what the container holds, with the total', async ({ hub }) => {
  // A plain listing's hit, as DataHub answers one: no matched fields, insights or extra properties.
  const hit = (entity: object) => ({ entity, matchedFields: [], insights: [], extraProperties: [] });
  const first = await entities(hub, LEAF, { start: 0, count: 2 });
  assert.equal([first.start, first.count, first.total, first.facets, first.suggestions], [0, 2, 5, [], []]);
  assert.equal(first.searchResults, [
    hit({ urn: dataset('db.s.t0'), type: 'DATASET', name: 't0' }),
    hit({ urn: dataset('db.s.t1'), type: 'DATASET', name: 't1' }),
  ]);
  const last = await entities(hub, LEAF, { start: 4, count: 2 });
  assert.equal([last.start, last.total, last.searchResults.length], [4, 5, 1]);
  const past = await entities(hub, LEAF, { start: 9, count: 2 });
  assert.equal([past.total, past.searchResults], [5, []]);
  const byDefault = await entities(hub, LEAF, null);
  assert.equal([byDefault.start, byDefault.count, byDefault.searchResults.length], [0, 20, 5]);
  const capped = await entities(hub, LEAF, { count: 1_000_000, start: -3 });
  assert.equal([capped.start, capped.count], [0, 10_000]);
  const containers = await entities(hub, ROOT, { count: 5 });
  assert.equal(containers.searchResults, [hit({ urn: LEAF, type: 'CONTAINER', properties: { name: 'leaf' } })]);
});

pages('Container.entities matches query against names, any case; "*" matches all', async ({ hub }) => {
  const found = await entities(hub, LEAF, { query: 'orders_ARCH' });
  assert.is(found.total, 1);
  assert.is(found.searchResults[0].entity.name, 'Orders_Archive');
  assert.is((await entities(hub, LEAF, { query: '*' })).total, 5);
  assert.is((await entities(hub, LEAF, { query: 'no such name' })).total, 0);
});

pages("Container.entities filters on the entity type as DataHub's smoke test sends it", async ({ hub }) => {
  const totalOf = async (urn: string, filter: Record<string, unknown>) =>
    (await entities(hub, urn, { filters: [filter] })).total;
  assert.is(await totalOf(LEAF, { field: '_entityType', values: ['DATASET'] }), 5);
  assert.is(await totalOf(LEAF, { field: '_entityType', values: ['CHART'] }), 0);
  assert.is(await totalOf(LEAF, { field: '_entityType', values: ['DATASET'], negated: true }), 0);
  assert.is(await totalOf(ROOT, { field: 'entityType', value: 'CONTAINER', condition: 'IN' }), 1);
  const refused = await hub.gql(ENTITIES, { urn: LEAF, input: { filters: [{ field: 'platform', values: ['x'] }] } });
  assert.match(
    refused.json.errors[0].message,
    /cannot filter on "platform": a container's entities filter only on _entityType/,
  );
});

pages('a dataset joining a container shows in its listing at once, cached answers or not', async ({ hub }) => {
  assert.is((await entities(hub, ROOT, { count: 5 })).total, 1);
  await hub.store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: dataset('db.s.late'), aspect: 'container', value: { container: ROOT } },
  ]);
  assert.is((await entities(hub, ROOT, { count: 5 })).total, 2);
  await hub.store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: dataset('db.s.late'), aspect: 'container', value: { container: LEAF } },
  ]);
  assert.is((await entities(hub, ROOT, { count: 5 })).total, 1);
  assert.is((await entities(hub, LEAF, null)).total, 6);
  await hub.store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: dataset('db.s.late'), aspect: 'container', value: null },
  ]);
  assert.is((await entities(hub, LEAF, null)).total, 5);
});

pages('status, uri, deprecation, glossary terms and domain come from their aspects, null without', async ({ hub }) => {
  const data = await dataOf(
    hub,
    `{ dataset(urn: "${dataset('db.s.t0')}") { uri platformNativeType status { removed }
         glossaryTerms { terms { term { urn type name hierarchicalName exists properties { name description definition termSource } } actor { urn } associatedUrn } }
         domain { domain { urn type id properties { name } } associatedUrn } deprecation { deprecated } }
       container(urn: "${LEAF}") { status { removed } deprecation { deprecated note actor decommissionTime actorEntity { urn } } }
       bare: dataset(urn: "${dataset('db.s.t2')}") { uri status { removed } glossaryTerms { terms { associatedUrn } } domain { associatedUrn } deprecation { deprecated } }
       root: container(urn: "${ROOT}") { status { removed } glossaryTerms { terms { associatedUrn } } domain { associatedUrn } deprecation { deprecated } } }`,
    {},
  );
  assert.is(data.dataset.uri, 'postgres://db/s/t0');
  assert.is(data.dataset.platformNativeType, null);
  assert.is(data.dataset.status, null);
  assert.is(data.dataset.deprecation, null);
  const term = (urn: string, name: string, exists: boolean, properties: unknown) => ({
    urn,
    type: 'GLOSSARY_TERM',
    name,
    hierarchicalName: urn.slice('urn:li:glossaryTerm:'.length),
    exists,
    properties,
  });
  const definition = 'Handle with care';
  assert.equal(data.dataset.glossaryTerms.terms, [
    {
      term: term(TERM, 'Sensitive', true, {
        name: 'Sensitive',
        description: definition,
        definition,
        termSource: 'INTERNAL',
      }),
      actor: null,
      associatedUrn: dataset('db.s.t0'),
    },
    // A term with no aspects: its urn and names, properties null.
    {
      term: term(GHOST_TERM, 'Missing', false, null),
      actor: { urn: 'urn:li:corpuser:alice' },
      associatedUrn: dataset('db.s.t0'),
    },
  ]);
  assert.equal(data.dataset.domain, {
    domain: { urn: DOMAIN, type: 'DOMAIN', id: 'marketing', properties: null },
    associatedUrn: dataset('db.s.t0'),
  });
  assert.equal(data.container, {
    status: { removed: false },
    deprecation: {
      deprecated: true,
      note: 'Moved',
      actor: 'urn:li:corpuser:bob',
      decommissionTime: 42,
      actorEntity: { urn: 'urn:li:corpuser:bob' },
    },
  });
  assert.equal(data.bare, { uri: null, status: null, glossaryTerms: null, domain: null, deprecation: null });
  assert.equal(data.root, { status: null, glossaryTerms: null, domain: null, deprecation: null });
});

pages('foreign keys and column glossary terms come from schemaMetadata; [] and null without', async ({ hub }) => {
  const data = await dataOf(
    hub,
    `{ t1: dataset(urn: "${dataset('db.s.t1')}") { schemaMetadata { foreignKeys { name
         sourceFields { urn type fieldPath parent { urn } } foreignFields { fieldPath parent { urn ... on Dataset { name } } }
         foreignDataset { urn name } } } }
       terms: dataset(urn: "${dataset('db.s.t1')}") { schemaMetadata { fields { glossaryTerms { terms { term { urn } associatedUrn } } } } }
       orders: dataset(urn: "${ORDERS}") { schemaMetadata { foreignKeys { name } fields { glossaryTerms { terms { associatedUrn } } } } } }`,
    {},
  );
  assert.equal(data.t1.schemaMetadata.foreignKeys, [
    {
      name: 'fk_order',
      sourceFields: [
        {
          urn: `urn:li:schemaField:(${dataset('db.s.t1')},order_id)`,
          type: 'SCHEMA_FIELD',
          fieldPath: 'order_id',
          parent: { urn: dataset('db.s.t1') },
        },
      ],
      foreignFields: [{ fieldPath: 'order_id', parent: { urn: ORDERS, name: 'orders' } }],
      foreignDataset: { urn: ORDERS, name: 'orders' },
    },
  ]);
  assert.equal(data.orders.schemaMetadata.foreignKeys, []);
  const [column] = data.terms.schemaMetadata.fields;
  assert.equal(column.glossaryTerms.terms, [{ term: { urn: TERM }, associatedUrn: dataset('db.s.t1') }]);
  assert.is(data.orders.schemaMetadata.fields[0].glossaryTerms, null);
});

pages('the platform answers info and properties from the same dataPlatformInfo; null without it', async ({ hub }) => {
  const data = await dataOf(
    hub,
    `{ dataset(urn: "${ORDERS}") { platform { info { type displayName datasetNameDelimiter logoUrl } properties { type displayName datasetNameDelimiter logoUrl } } }
       other: dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:nothing,x,PROD)") { platform { info { type } properties { type } } } }`,
    {},
  );
  assert.is(data.dataset.platform.info.displayName, 'PostgreSQL');
  assert.equal(data.dataset.platform.info, data.dataset.platform.properties);
  assert.equal(data.other.platform, { info: null, properties: null });
});

pages(
  'the sample: a database holding schemas holding datasets, tags on a dataset and a column, a status',
  async ({ hub }) => {
    const data = await dataOf(
      hub,
      `{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.marts.daily_revenue,PROD)") {
         parentContainers { containers { urn subTypes { typeNames } } } tags { tags { tag { urn } } } }
       customers: dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.customers,PROD)") {
         schemaMetadata { fields { fieldPath tags { tags { tag { urn } } } } } }
       container(urn: "urn:li:container:analytics") { status { removed } entities { total searchResults { entity { urn } } } } }`,
      {},
    );
    const containers = data.dataset.parentContainers.containers;
    assert.equal(containers, [
      { urn: 'urn:li:container:analytics_marts', subTypes: { typeNames: ['Schema'] } },
      { urn: 'urn:li:container:analytics', subTypes: { typeNames: ['Database'] } },
    ]);
    assert.equal(data.dataset.tags.tags, [{ tag: { urn: 'urn:li:tag:gold' } }]);
    const email = data.customers.schemaMetadata.fields.find((f: { fieldPath: string }) => f.fieldPath === 'email');
    assert.equal(email.tags.tags, [{ tag: { urn: 'urn:li:tag:pii' } }]);
    assert.equal(data.container.status, { removed: false });
    assert.equal(data.container.entities.total, 2);
  },
);

const bootstrap = suite<Context>('pages over DataHub bootstrap_mce.json');
bootstrap.before(async (context) => {
  context.hub = await openInProcess({ seed: [BOOTSTRAP] });
});
bootstrap.after(async ({ hub }) => hub.close());

bootstrap('its dataset sits in SCHEMA inside DATABASE; DATABASE lists SCHEMA', async ({ hub }) => {
  const data = await dataOf(
    hub,
    `{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)") { parentContainers { count containers { urn } } }
       container(urn: "urn:li:container:DATABASE") { entities(input: {start: 0, count: 1}) { total searchResults { entity { urn } } } } }`,
    {},
  );
  assert.equal(data.dataset.parentContainers, {
    count: 2,
    containers: [{ urn: 'urn:li:container:SCHEMA' }, { urn: 'urn:li:container:DATABASE' }],
  });
  assert.equal(data.container.entities, { total: 1, searchResults: [{ entity: { urn: 'urn:li:container:SCHEMA' } }] });
});

pages.run();
if (bootstrapAvailable('pages over DataHub bootstrap_mce.json')) bootstrap.run();
