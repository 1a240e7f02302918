// Managing tags through DataHub's updateTag, setTagColor and deleteTag: the change read back, DataHub's
// 403 for a Reader and 400s for bad input with nothing written, idempotence, and a deleted tag gone from
// every carrier, also after a restart. In process, except the restart, which needs a data directory.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { dataOf, FORBIDDEN, type Gql } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.customers,PROD)';
const EVENTS = 'urn:li:dataset:(urn:li:dataPlatform:hive,events,PROD)';
const SHOP_DB = 'urn:li:container:shop_db';
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';

const UPDATE_TAG = `mutation u($urn: String!, $input: TagUpdateInput!) {
  updateTag(urn: $urn, input: $input) { urn properties { name description colorHex } }
}`;
const SET_COLOR = 'mutation s($urn: String!, $colorHex: String!) { setTagColor(urn: $urn, colorHex: $colorHex) }';
const DELETE_TAG = 'mutation d($urn: String!) { deleteTag(urn: $urn) }';
const ADD_TAGS = 'mutation a($input: AddTagsInput!) { addTags(input: $input) }';
const TAG = 'query t($urn: String!) { tag(urn: $urn) { urn properties { name description colorHex } } }';
const CARRIED = `query q($urn: String!) { dataset(urn: $urn) {
  globalTags { tags { tag { urn } } }
  schemaMetadata { fields { fieldPath globalTags { tags { tag { urn } } } } }
  editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn } } } } }
} }`;
const CONTAINER_TAGS = 'query c($urn: String!) { container(urn: $urn) { tags { tags { tag { urn } } } } }';

const mcp = (entityUrn: string, aspectName: string, json: JsonValue): JsonValue => ({
  entityType: entityUrn.split(':')[2] as string,
  entityUrn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { json },
});

// A Reader who owns nothing, and a dataset whose ingested column carries pii, in DataHub's file format.
const EXTRA: JsonValue[] = [
  mcp('urn:li:corpuser:rita', 'corpUserInfo', { active: true }),
  mcp('urn:li:corpuser:rita', 'roleMembership', { roles: ['urn:li:dataHubRole:Reader'] }),
  mcp(EVENTS, 'schemaMetadata', {
    schemaName: 'events',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: [
      {
        fieldPath: 'email',
        nativeDataType: 'string',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
        globalTags: { tags: [{ tag: PII }, { tag: GOLD }] },
      },
      { fieldPath: 'at', nativeDataType: 'bigint', type: { type: { 'com.linkedin.schema.NumberType': {} } } },
    ],
  }),
];

type Tags = { tags: { tag: { urn: string } }[] } | null;
const urns = (tags: Tags) => tags?.tags.map((t) => t.tag.urn) ?? [];

/** Every tag association of a dataset: its own, its ingested columns', its edited columns'. */
async function carried(hub: Gql, urn: string) {
  const { dataset } = await dataOf(hub, CARRIED, { urn });
  const columns = (list: { fieldPath: string; globalTags: Tags }[] | undefined) =>
    Object.fromEntries((list ?? []).map((entry) => [entry.fieldPath, urns(entry.globalTags)]));
  return {
    dataset: urns(dataset.globalTags),
    ingested: columns(dataset.schemaMetadata?.fields),
    edited: columns(dataset.editableSchemaMetadata?.editableSchemaFieldInfo),
  };
}

/** pii on ORDERS, one of its columns and SHOP_DB (CUSTOMERS and EVENTS carry it from the seed). */
async function tagEverywhere(hub: Gql) {
  await dataOf(hub, ADD_TAGS, { input: { tagUrns: [PII, GOLD], resourceUrn: ORDERS } });
  const column = { resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'order_id' };
  await dataOf(hub, ADD_TAGS, { input: { tagUrns: [PII], ...column } });
  await dataOf(hub, ADD_TAGS, { input: { tagUrns: [PII], resourceUrn: SHOP_DB } });
}

type Context = { hub: InProcessHub };

const manage = suite<Context>('tags managed');
manage.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, EXTRA] });
});
manage.after.each(async ({ hub }) => {
  await hub.close();
});

manage('updateTag sets name and description, keeps the color, and answers the Tag', async ({ hub }) => {
  await dataOf(hub, SET_COLOR, { urn: GOLD, colorHex: '#FFD700' });
  const input = { urn: GOLD, name: 'Gold tier', description: 'Curated, **trusted**.' };
  const data = await dataOf(hub, UPDATE_TAG, { urn: GOLD, input });
  const properties = { name: 'Gold tier', description: 'Curated, **trusted**.', colorHex: '#FFD700' };
  assert.equal(data.updateTag, { urn: GOLD, properties });
  assert.equal((await dataOf(hub, TAG, { urn: GOLD })).tag.properties, properties);
  // A description not given again is dropped, as DataHub rebuilds the properties from the input.
  await dataOf(hub, UPDATE_TAG, { urn: GOLD, input: { urn: GOLD, name: 'Gold' } });
  assert.equal((await dataOf(hub, TAG, { urn: GOLD })).tag.properties, {
    ...properties,
    name: 'Gold',
    description: null,
  });
});

manage('setTagColor sets the color; setting it again writes nothing', async ({ hub }) => {
  assert.equal(await dataOf(hub, SET_COLOR, { urn: PII, colorHex: '#ff0000' }), { setTagColor: true });
  assert.is((await dataOf(hub, TAG, { urn: PII })).tag.properties.colorHex, '#ff0000');
  const records = hub.store.recordCount;
  assert.equal(await dataOf(hub, SET_COLOR, { urn: PII, colorHex: '#ff0000' }), { setTagColor: true });
  assert.is(hub.store.recordCount, records);
});

manage('deleteTag removes the tag and every association with it, in one commit', async ({ hub }) => {
  await tagEverywhere(hub);
  const records = hub.store.recordCount;
  assert.equal(await dataOf(hub, DELETE_TAG, { urn: PII }), { deleteTag: true });
  assert.is(hub.store.recordCount, records + 1);
  assert.is((await dataOf(hub, TAG, { urn: PII })).tag.properties, null);
  assert.is(hub.store.catalogue.exists(PII), false);
  const orders = await carried(hub, ORDERS);
  assert.equal(orders.dataset, [GOLD]);
  assert.equal(orders.edited, { order_id: [] });
  assert.ok(Object.values(orders.ingested).every((tags) => !tags.includes(PII)));
  assert.equal((await carried(hub, CUSTOMERS)).dataset, []);
  assert.equal((await carried(hub, EVENTS)).ingested, { email: [GOLD], at: [] });
  assert.equal(urns((await dataOf(hub, CONTAINER_TAGS, { urn: SHOP_DB })).container.tags), []);
  // Deleting it again is no error and writes nothing; other tags are untouched.
  assert.equal(await dataOf(hub, DELETE_TAG, { urn: PII }), { deleteTag: true });
  assert.is(hub.store.recordCount, records + 1);
  assert.is((await dataOf(hub, TAG, { urn: GOLD })).tag.properties.name, 'gold');
});

manage('a Reader is refused with DataHub 403 and nothing changes', async ({ hub }) => {
  await tagEverywhere(hub);
  const rita = await hub.createToken('rita');
  const records = hub.store.recordCount;
  const attempts: [string, Record<string, unknown>][] = [
    [UPDATE_TAG, { urn: PII, input: { urn: PII, name: 'x' } }],
    [SET_COLOR, { urn: PII, colorHex: '#000000' }],
    [DELETE_TAG, { urn: PII }],
    // The refusal comes before the existence check, so a missing tag reveals nothing either.
    [SET_COLOR, { urn: 'urn:li:tag:nope', colorHex: '#000000' }],
    [UPDATE_TAG, { urn: 'urn:li:tag:nope', input: { urn: 'urn:li:tag:nope', name: 'x' } }],
  ];
  for (const [query, variables] of attempts) {
    const reply = await hub.gql(query, variables, rita);
    assert.equal(reply.json.errors?.[0]?.message, FORBIDDEN.message, query);
    assert.equal(reply.json.errors?.[0]?.extensions, FORBIDDEN.extensions);
  }
  assert.is(hub.store.recordCount, records);
  assert.is(hub.store.catalogue.exists(PII), true);
  assert.equal((await carried(hub, ORDERS)).dataset, [PII, GOLD]);
});

manage('a missing tag, a URN of another type or two different URNs are a 400, and nothing changes', async ({ hub }) => {
  const records = hub.store.recordCount;
  const cases: [string, Record<string, unknown>, string][] = [
    [
      UPDATE_TAG,
      { urn: 'urn:li:tag:nope', input: { urn: 'urn:li:tag:nope', name: 'x' } },
      'Failed to update urn:li:tag:nope. urn:li:tag:nope does not exist.',
    ],
    [
      SET_COLOR,
      { urn: 'urn:li:tag:nope', colorHex: '#000000' },
      'Failed to set Tag urn:li:tag:nope color. Tag does not exist.',
    ],
    [UPDATE_TAG, { urn: PII, input: { urn: GOLD, name: 'x' } }, 'name different tags'],
    [DELETE_TAG, { urn: ORDERS }, 'expected a tag urn'],
    [SET_COLOR, { urn: 'not a urn', colorHex: '#000000' }, 'not a urn'],
  ];
  for (const [query, variables, message] of cases) {
    const reply = await hub.gql(query, variables);
    const error = reply.json.errors?.[0];
    assert.ok(error?.message.includes(message), `${JSON.stringify(error)} should say ${message}`);
    assert.equal(error.extensions.code, 400);
  }
  assert.is(hub.store.recordCount, records);
});

manage.run();

const restart = suite('deleteTag after a restart');

restart('a deleted tag is still gone from the tag and every carrier after the server is reopened', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, EXTRA] });
  try {
    await tagEverywhere(first);
    await dataOf(first, DELETE_TAG, { urn: PII });
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  try {
    assert.is((await dataOf(second, TAG, { urn: PII })).tag.properties, null);
    assert.equal((await carried(second, ORDERS)).dataset, [GOLD]);
    assert.equal((await carried(second, ORDERS)).edited, { order_id: [] });
    assert.equal((await carried(second, CUSTOMERS)).dataset, []);
    assert.equal((await carried(second, EVENTS)).ingested, { email: [GOLD], at: [] });
    assert.equal(urns((await dataOf(second, CONTAINER_TAGS, { urn: SHOP_DB })).container.tags), []);
  } finally {
    await second.close();
  }
});

restart.run();
