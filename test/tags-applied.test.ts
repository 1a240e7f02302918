// Tags applied to datasets, columns and containers through DataHub's addTag/addTags/batchAddTags/
// removeTag/batchRemoveTags: read back, idempotent, refused for unknown tags and for a Reader, and
// still there after a restart. In process, except the restart, which needs a data directory.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { FORBIDDEN } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const SHOP_DB = 'urn:li:container:shop_db';
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';

const ADD_TAG = 'mutation a($input: TagAssociationInput!) { addTag(input: $input) }';
const ADD_TAGS = 'mutation a($input: AddTagsInput!) { addTags(input: $input) }';
const BATCH_ADD = 'mutation b($input: BatchAddTagsInput!) { batchAddTags(input: $input) }';
const REMOVE_TAG = 'mutation r($input: TagAssociationInput!) { removeTag(input: $input) }';
const BATCH_REMOVE = 'mutation b($input: BatchRemoveTagsInput!) { batchRemoveTags(input: $input) }';
const TAGS_QUERY = `query q($urn: String!) { dataset(urn: $urn) {
  tags { tags { tag { urn name properties { name description colorHex } } associatedUrn } }
  globalTags { tags { tag { urn } } }
  schemaMetadata { fields { fieldPath tags { tags { tag { urn } } } } }
  editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description globalTags { tags { tag { urn } } } tags { tags { tag { urn } } } } }
} }`;

// A Reader who owns nothing, in DataHub's file format.
const READER: JsonValue[] = [
  {
    entityType: 'corpuser',
    entityUrn: 'urn:li:corpuser:rita',
    changeType: 'UPSERT',
    aspectName: 'corpUserInfo',
    aspect: { json: { active: true } },
  },
  {
    entityType: 'corpuser',
    entityUrn: 'urn:li:corpuser:rita',
    changeType: 'UPSERT',
    aspectName: 'roleMembership',
    aspect: { json: { roles: ['urn:li:dataHubRole:Reader'] } },
  },
];

interface Gql {
  gql: InProcessHub['gql'];
}

async function ok(hub: Gql, query: string, input: unknown, token?: string) {
  const reply = await hub.gql(query, { input }, token);
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data;
}

async function tagsOf(hub: Gql, urn = ORDERS) {
  const reply = await hub.gql(TAGS_QUERY, { urn });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  const dataset = reply.json.data.dataset;
  const urns = (tags: { tags: { tag: { urn: string } }[] } | null) => tags?.tags.map((t) => t.tag.urn) ?? [];
  const columns: Record<string, string[]> = {};
  for (const info of dataset.editableSchemaMetadata?.editableSchemaFieldInfo ?? []) {
    assert.equal(urns(info.tags), urns(info.globalTags));
    columns[info.fieldPath] = urns(info.globalTags);
  }
  assert.equal(urns(dataset.tags), urns(dataset.globalTags));
  return { dataset: urns(dataset.tags), columns, raw: dataset };
}

type Context = { hub: InProcessHub };

const tags = suite<Context>('tags applied');
tags.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, READER] });
});
tags.after.each(async ({ hub }) => hub.close());

tags('addTags tags a dataset and a column; both read back with the tag itself', async ({ hub }) => {
  assert.equal(await ok(hub, ADD_TAGS, { tagUrns: [PII, GOLD], resourceUrn: ORDERS }), { addTags: true });
  const column = { tagUrns: [PII], resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'customer_id' };
  assert.equal(await ok(hub, ADD_TAGS, column), { addTags: true });
  const read = await tagsOf(hub);
  assert.equal(read.dataset, [PII, GOLD]);
  assert.equal(read.columns, { customer_id: [PII] });
  assert.equal(read.raw.tags.tags[0], {
    tag: {
      urn: PII,
      name: 'pii',
      properties: { name: 'pii', description: read.raw.tags.tags[0].tag.properties.description, colorHex: '#D4380D' },
    },
    associatedUrn: ORDERS,
  });
  // As DataHub answers it, SchemaField.tags is the ingested tags; the edited ones are in editableSchemaMetadata.
  const field = read.raw.schemaMetadata.fields.find((f: { fieldPath: string }) => f.fieldPath === 'customer_id');
  assert.is(field.tags, null);
});

tags('batchAddTags tags several columns and a container in one log record', async ({ hub }) => {
  const before = hub.store.recordCount;
  const resources = [
    { resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'order_id' },
    { resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'status' },
    { resourceUrn: SHOP_DB },
  ];
  assert.equal(await ok(hub, BATCH_ADD, { tagUrns: [GOLD], resources }), { batchAddTags: true });
  assert.is(hub.store.recordCount, before + 1);
  assert.equal((await tagsOf(hub)).columns, { order_id: [GOLD], status: [GOLD] });
  const container = await hub.gql(`{ container(urn: "${SHOP_DB}") { tags { tags { tag { urn } } } } }`);
  assert.equal(container.json.data.container.tags.tags, [{ tag: { urn: GOLD } }]);
});

tags('a column tag keeps the column description, and a description edit keeps the tag', async ({ hub }) => {
  const column = { resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'status' };
  await ok(hub, 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
    ...column,
    description: 'Edited.',
  });
  await ok(hub, ADD_TAG, { ...column, tagUrn: PII });
  await ok(hub, 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
    ...column,
    description: 'Edited again.',
  });
  const info = (await tagsOf(hub)).raw.editableSchemaMetadata.editableSchemaFieldInfo;
  assert.equal(info, [
    {
      fieldPath: 'status',
      description: 'Edited again.',
      globalTags: { tags: [{ tag: { urn: PII } }] },
      tags: { tags: [{ tag: { urn: PII } }] },
    },
  ]);
});

tags('adding a tag twice changes nothing and writes no record', async ({ hub }) => {
  const column = { tagUrn: PII, resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'order_id' };
  await ok(hub, ADD_TAG, { tagUrn: PII, resourceUrn: ORDERS });
  await ok(hub, ADD_TAG, column);
  const records = hub.store.recordCount;
  assert.equal(await ok(hub, ADD_TAG, { tagUrn: PII, resourceUrn: ORDERS }), { addTag: true });
  assert.equal(await ok(hub, ADD_TAG, column), { addTag: true });
  assert.equal(await ok(hub, ADD_TAGS, { tagUrns: [PII, PII], resourceUrn: ORDERS }), { addTags: true });
  assert.is(hub.store.recordCount, records);
  const read = await tagsOf(hub);
  assert.equal(read.dataset, [PII]);
  assert.equal(read.columns, { order_id: [PII] });
});

tags('removeTag and batchRemoveTags take tags off; removing an absent tag writes nothing', async ({ hub }) => {
  const column = { resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'order_id' };
  await ok(hub, ADD_TAGS, { tagUrns: [PII, GOLD], resourceUrn: ORDERS });
  await ok(hub, ADD_TAGS, { ...column, tagUrns: [PII, GOLD] });
  assert.equal(await ok(hub, REMOVE_TAG, { tagUrn: PII, resourceUrn: ORDERS }), { removeTag: true });
  assert.equal(await ok(hub, BATCH_REMOVE, { tagUrns: [GOLD], resources: [column, null] }), { batchRemoveTags: true });
  const read = await tagsOf(hub);
  assert.equal(read.dataset, [GOLD]);
  assert.equal(read.columns, { order_id: [PII] });
  const records = hub.store.recordCount;
  await ok(hub, REMOVE_TAG, { tagUrn: PII, resourceUrn: ORDERS });
  await ok(hub, REMOVE_TAG, { tagUrn: 'urn:li:tag:never_made', resourceUrn: ORDERS });
  await ok(hub, BATCH_REMOVE, { tagUrns: [GOLD], resources: [{ ...column, subResource: 'status' }] });
  assert.is(hub.store.recordCount, records);
});

tags('an unknown tag, target or column is refused with a 400 and nothing changes', async ({ hub }) => {
  const records = hub.store.recordCount;
  const cases: [unknown, string][] = [
    [
      { tagUrns: [GOLD, 'urn:li:tag:nope'], resourceUrn: ORDERS },
      'Failed to validate label with urn urn:li:tag:nope. Urn does not exist.',
    ],
    [
      { tagUrns: ['urn:li:corpuser:alice'], resourceUrn: ORDERS },
      'Failed to validate label with urn urn:li:corpuser:alice. Urn type does not match entity type tag..',
    ],
    [
      { tagUrns: [GOLD], resourceUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD)' },
      'Failed to update resource with urn urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD). Entity does not exist.',
    ],
    [
      { tagUrns: [GOLD], resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'nope' },
      `Failed to update ${ORDERS} & field nope. Field nope does not exist in the datasets schema.`,
    ],
  ];
  for (const [input, message] of cases) {
    const reply = await hub.gql(ADD_TAGS, { input });
    assert.is(reply.json.errors[0].message, message);
    assert.equal(reply.json.errors[0].extensions, {
      code: 400,
      type: 'BAD_REQUEST',
      classification: 'DataFetchingException',
    });
    assert.equal(reply.json.data, { addTags: null });
  }
  // A batch with one bad target lands nothing, not even on its good targets.
  const reply = await hub.gql(BATCH_ADD, {
    input: {
      tagUrns: [GOLD],
      resources: [
        { resourceUrn: SHOP_DB },
        { resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'nope' },
      ],
    },
  });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.is(hub.store.recordCount, records);
  assert.equal((await tagsOf(hub)).dataset, []);
});

tags('an over-long subResource or tag urn is refused with a 400 before anything else', async () => {
  const small = await openInProcess({ seed: [SAMPLE], limits: { maxTextBytes: 16 } });
  try {
    const records = small.store.recordCount;
    const input = { tagUrn: GOLD, resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'x'.repeat(17) };
    const reply = await small.gql(ADD_TAG, { input });
    assert.is(reply.json.errors[0].message, 'subResource is 17 bytes; the limit is 16');
    assert.is(reply.json.errors[0].extensions.code, 400);
    const urn = await small.gql(ADD_TAG, { input: { tagUrn: `urn:li:tag:${'x'.repeat(600)}`, resourceUrn: ORDERS } });
    assert.is(urn.json.errors[0].extensions.code, 400);
    assert.match(urn.json.errors[0].message, /the limit is 512 bytes/);
    assert.is(small.store.recordCount, records);
  } finally {
    await small.close();
  }
});

tags(
  'a Reader who owns nothing is refused with 403 and nothing changes; an Editor and an owner may tag',
  async ({ hub }) => {
    const rita = await hub.createToken('rita');
    const records = hub.store.recordCount;
    for (const [query, input] of [
      [ADD_TAG, { tagUrn: PII, resourceUrn: ORDERS }],
      [ADD_TAGS, { tagUrns: [PII], resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'order_id' }],
      [BATCH_ADD, { tagUrns: [PII], resources: [{ resourceUrn: ORDERS }] }],
      [REMOVE_TAG, { tagUrn: PII, resourceUrn: ORDERS }],
      [BATCH_REMOVE, { tagUrns: [PII], resources: [{ resourceUrn: ORDERS }] }],
      // Privileges come before existence, so a refused caller learns nothing about the tag.
      [ADD_TAG, { tagUrn: 'urn:li:tag:nope', resourceUrn: ORDERS }],
    ] as const) {
      const reply = await hub.gql(query, { input }, rita);
      assert.equal(reply.json.errors.length, 1);
      assert.equal({ message: reply.json.errors[0].message, extensions: reply.json.errors[0].extensions }, FORBIDDEN);
    }
    assert.is(hub.store.recordCount, records);
    assert.equal((await tagsOf(hub)).dataset, []);
    // bob is an Editor: he may tag anything, columns too.
    await ok(
      hub,
      ADD_TAGS,
      { tagUrns: [GOLD], resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'status' },
      await hub.createToken('bob'),
    );
    assert.equal((await tagsOf(hub)).columns, { status: [GOLD] });
    // carol is a Reader too, but an owner of orders: DataHub's asset-owner policy lets her tag it.
    await ok(hub, ADD_TAG, { tagUrn: PII, resourceUrn: ORDERS }, await hub.createToken('carol'));
    assert.equal((await tagsOf(hub)).dataset, [PII]);
  },
);

tags.run();

// ---

const restart = suite('tags after a restart');

restart('tags on a dataset and a column are there after the server is reopened on its data dir', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  try {
    await ok(first, ADD_TAG, { tagUrn: GOLD, resourceUrn: ORDERS });
    await ok(first, BATCH_ADD, {
      tagUrns: [PII],
      resources: [{ resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'customer_id' }],
    });
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  try {
    const read = await tagsOf(second);
    assert.equal(read.dataset, [GOLD]);
    assert.equal(read.columns, { customer_id: [PII] });
  } finally {
    await second.close();
  }
});

restart.run();
