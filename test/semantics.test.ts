// The operations of decisions §4 against the sample catalogue: reads, the edit layer, each
// mutation's success and failure, and exact round trips of markdown and unicode. In process: the
// requests go through the same routes and handler as over HTTP, with no socket.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { DATASET_QUERY, SAMPLE } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const SHOP_DB = 'urn:li:container:shop_db';

const UPDATE_DATASET =
  'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }';
const UPDATE_DESCRIPTION = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const CREATE_TAG = 'mutation t($input: CreateTagInput!) { createTag(input: $input) }';

type Context = { hub: InProcessHub };

async function dataset(hub: InProcessHub, urn: string) {
  const reply = await hub.gql(DATASET_QUERY, { urn });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data.dataset;
}

const reads = suite<Context>('dataset reads');
reads.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
reads.after(async ({ hub }) => hub.close());

reads('returns the ingested description and columns in ingested order', async ({ hub }) => {
  const orders = await dataset(hub, ORDERS);
  assert.is(orders.exists, true);
  assert.match(orders.properties.description, /One row per order/);
  assert.is(orders.editableProperties, null);
  assert.ok(orders.schemaMetadata.fields.length >= 4);
  assert.is(orders.schemaMetadata.fields[0].fieldPath, 'order_id');
});

reads('returns a shell with exists false for an unknown but well-formed urn', async ({ hub }) => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,never_ingested,DEV)';
  const reply = await hub.gql(
    `query q($urn: String!) { dataset(urn: $urn) {
    urn type name origin exists platform { urn name } properties { description } schemaMetadata { name }
    editableProperties { description } institutionalMemory { elements { url } } ownership { owners { type } } } }`,
    { urn },
  );
  assert.equal(reply.json.data.dataset, {
    urn,
    type: 'DATASET',
    name: 'never_ingested',
    origin: 'DEV',
    exists: false,
    platform: { urn: 'urn:li:dataPlatform:hive', name: 'hive' },
    properties: null,
    schemaMetadata: null,
    editableProperties: null,
    institutionalMemory: null,
    ownership: null,
  });
});

reads('answers the unknown tag, container and user with shells too', async ({ hub }) => {
  const reply = await hub.gql(`{ tag(urn: "urn:li:tag:nope") { urn name properties { name } }
    container(urn: "urn:li:container:nope") { urn exists properties { name } }
    corpUser(urn: "urn:li:corpuser:nobody") { urn username exists } }`);
  assert.equal(reply.json.data, {
    tag: { urn: 'urn:li:tag:nope', name: 'nope', properties: null },
    container: { urn: 'urn:li:container:nope', exists: false, properties: null },
    corpUser: { urn: 'urn:li:corpuser:nobody', username: 'nobody', exists: false },
  });
});

reads('reads the container, its platform and the datasets inside it', async ({ hub }) => {
  const reply =
    await hub.gql(`{ container(urn: "${SHOP_DB}") { exists properties { name description } subTypes { typeNames } platform { name } }
    dataset(urn: "${ORDERS}") { container { urn } platform { properties { displayName type } } } }`);
  assert.is(reply.json.data.container.exists, true);
  assert.is(reply.json.data.container.properties.name, 'shop');
  assert.equal(reply.json.data.container.subTypes.typeNames, ['Database']);
  assert.is(reply.json.data.dataset.container.urn, SHOP_DB);
  assert.is(reply.json.data.dataset.platform.properties.type, 'RELATIONAL_DB');
});

reads("accepts the version argument of schemaMetadata as DataHub's UI sends it", async ({ hub }) => {
  const reply = await hub.gql(
    `{ dataset(urn: "${ORDERS}") { schemaMetadata(version: 0) { name fields { fieldPath } } } }`,
  );
  assert.is(reply.json.errors, undefined);
  assert.ok(reply.json.data.dataset.schemaMetadata.fields.length > 0);
});

reads.run();

// ---

const updateDataset = suite<Context>('updateDataset');
updateDataset.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
updateDataset.after(async ({ hub }) => hub.close());

updateDataset('replaces the description and adds a link in one call, returning the urn', async ({ hub }) => {
  const before = await dataset(hub, ORDERS);
  const linksBefore = before.institutionalMemory?.elements.length ?? 0;
  const reply = await hub.gql(UPDATE_DATASET, {
    urn: ORDERS,
    input: {
      editableProperties: { description: 'Orders, edited.' },
      institutionalMemory: {
        elements: { author: 'urn:li:corpuser:alice', url: 'https://wiki.example/orders', description: 'Runbook' },
      },
    },
  });
  assert.equal(reply.json, { data: { updateDataset: { urn: ORDERS } }, extensions: {} });
  const after = await dataset(hub, ORDERS);
  assert.is(after.properties.description, 'Orders, edited.');
  assert.is(after.editableProperties.description, 'Orders, edited.');
  assert.is(after.institutionalMemory.elements.length, linksBefore + 1);
  const link = after.institutionalMemory.elements.find(
    (element: { url: string }) => element.url === 'https://wiki.example/orders',
  );
  assert.equal(link, {
    url: 'https://wiki.example/orders',
    label: 'Runbook',
    description: 'Runbook',
    author: { urn: 'urn:li:corpuser:alice' },
    created: { actor: 'urn:li:corpuser:alice' },
    associatedUrn: ORDERS,
  });
});

updateDataset('updates a link with the same url instead of adding it twice', async ({ hub }) => {
  const element = { author: 'urn:li:corpuser:bob', url: 'https://wiki.example/orders', description: 'Runbook v2' };
  await hub.gql(UPDATE_DATASET, { urn: ORDERS, input: { institutionalMemory: { elements: [element] } } });
  const links = (await dataset(hub, ORDERS)).institutionalMemory.elements.filter(
    (e: { url: string }) => e.url === element.url,
  );
  assert.is(links.length, 1);
  assert.is(links[0].label, 'Runbook v2');
});

updateDataset('fails on a dataset that does not exist and creates nothing', async ({ hub }) => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)';
  const reply = await hub.gql(UPDATE_DATASET, { urn, input: { editableProperties: { description: 'boo' } } });
  assert.equal(reply.json.data, { updateDataset: null });
  assert.is(reply.json.errors[0].message, `Failed to update ${urn}. ${urn} does not exist.`);
  assert.equal(reply.json.errors[0].extensions, {
    code: 400,
    type: 'BAD_REQUEST',
    classification: 'DataFetchingException',
  });
  assert.is((await dataset(hub, urn)).exists, false);
});

updateDataset('applies nothing when one section is invalid', async ({ hub }) => {
  const before = await dataset(hub, ORDERS);
  const reply = await hub.gql(UPDATE_DATASET, {
    urn: ORDERS,
    input: {
      editableProperties: { description: 'must not land' },
      institutionalMemory: {
        elements: [{ author: 'urn:li:tag:pii', url: 'https://x.example', description: 'bad author' }],
      },
    },
  });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.match(reply.json.errors[0].message, /author/);
  assert.equal(await dataset(hub, ORDERS), before);
});

updateDataset('refuses a link without a description or with a url that is not absolute', async ({ hub }) => {
  for (const element of [
    { author: 'urn:li:corpuser:alice', url: 'https://x.example' },
    { author: 'urn:li:corpuser:alice', url: 'wiki/page', description: 'd' },
  ]) {
    const reply = await hub.gql(UPDATE_DATASET, {
      urn: ORDERS,
      input: { institutionalMemory: { elements: [element] } },
    });
    assert.is(reply.json.errors[0].extensions.code, 400, JSON.stringify(element));
  }
});

updateDataset.run();

// ---

const updateDescription = suite<Context>('updateDescription');
updateDescription.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
updateDescription.after(async ({ hub }) => hub.close());

updateDescription('sets a column description: the current description and the edit layer show it', async ({ hub }) => {
  const reply = await hub.gql(UPDATE_DESCRIPTION, {
    input: {
      description: 'The order number.',
      resourceUrn: ORDERS,
      subResource: 'order_id',
      subResourceType: 'DATASET_FIELD',
    },
  });
  assert.equal(reply.json, { data: { updateDescription: true }, extensions: {} });
  const after = await dataset(hub, ORDERS);
  assert.is(after.schemaMetadata.fields[0].description, 'The order number.');
  assert.equal(after.editableSchemaMetadata.editableSchemaFieldInfo, [
    { fieldPath: 'order_id', description: 'The order number.' },
  ]);
});

updateDescription("keeps other columns' edits when a second column is edited", async ({ hub }) => {
  const field = (await dataset(hub, ORDERS)).schemaMetadata.fields[1].fieldPath;
  await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: 'second', resourceUrn: ORDERS, subResource: field, subResourceType: 'DATASET_FIELD' },
  });
  const infos = (await dataset(hub, ORDERS)).editableSchemaMetadata.editableSchemaFieldInfo;
  assert.equal(
    infos.map((info: { fieldPath: string }) => info.fieldPath),
    ['order_id', field],
  );
});

const failures: [string, Record<string, unknown>, string][] = [
  [
    'a column that is not in the schema',
    { description: 'x', resourceUrn: ORDERS, subResource: 'no_such_column', subResourceType: 'DATASET_FIELD' },
    `Failed to update ${ORDERS} & field no_such_column. Field no_such_column does not exist in the datasets schema.`,
  ],
  [
    'a dataset column without subResourceType',
    { description: 'x', resourceUrn: ORDERS, subResource: 'order_id' },
    'Update description without subresource is not currently supported',
  ],
  [
    'a dataset that does not exist',
    {
      description: 'x',
      resourceUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)',
      subResource: 'a',
      subResourceType: 'DATASET_FIELD',
    },
    'Failed to update urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD). urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD) does not exist.',
  ],
  [
    'a container that does not exist',
    { description: 'x', resourceUrn: 'urn:li:container:ghost' },
    'Failed to update urn:li:container:ghost. urn:li:container:ghost does not exist.',
  ],
];
for (const [what, input, message] of failures) {
  updateDescription(`fails with DataHub's 400 on ${what}`, async ({ hub }) => {
    const reply = await hub.gql(UPDATE_DESCRIPTION, { input });
    assert.equal(reply.json.data, { updateDescription: null });
    assert.is(reply.json.errors[0].message, message);
    assert.equal(reply.json.errors[0].extensions, {
      code: 400,
      type: 'BAD_REQUEST',
      classification: 'DataFetchingException',
    });
  });
}

updateDescription('fails on a dataset without a schema naming the dataset', async ({ hub }) => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:s3,no_schema,PROD)';
  await hub.store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn, aspect: 'status', value: { removed: false } },
  ]);
  const reply = await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: 'x', resourceUrn: urn, subResource: 'a', subResourceType: 'DATASET_FIELD' },
  });
  assert.is(reply.json.errors[0].message, `Failed to update ${urn} & field a. ${urn} has no schema.`);
});

updateDescription('answers an unsupported entity type with a 400 naming the supported ones', async ({ hub }) => {
  const reply = await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: 'x', resourceUrn: 'urn:li:corpuser:alice' },
  });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.match(
    reply.json.errors[0].message,
    /Unsupported resource type urn:li:corpuser:alice.*containers, tags and groups/,
  );
});

updateDescription('sets a container description: properties show it, the edit layer holds it', async ({ hub }) => {
  const reply = await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: 'The shop database.', resourceUrn: SHOP_DB },
  });
  assert.is(reply.json.data.updateDescription, true);
  const container = await hub.gql(
    `{ container(urn: "${SHOP_DB}") { properties { name description } editableProperties { description } } }`,
  );
  assert.equal(container.json.data.container, {
    properties: { name: 'shop', description: 'The shop database.' },
    editableProperties: { description: 'The shop database.' },
  });
});

updateDescription('sets a tag description', async ({ hub }) => {
  const reply = await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: 'Personal data.', resourceUrn: 'urn:li:tag:pii' },
  });
  assert.is(reply.json.data.updateDescription, true);
  const tag = await hub.gql('{ tag(urn: "urn:li:tag:pii") { properties { name description } } }');
  assert.equal(tag.json.data.tag.properties, { name: 'pii', description: 'Personal data.' });
});

updateDescription.run();

// ---

const createTag = suite<Context>('createTag');
createTag.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
createTag.after(async ({ hub }) => hub.close());

createTag('creates a tag with the given id, name and description and returns its urn', async ({ hub }) => {
  const reply = await hub.gql(CREATE_TAG, {
    input: { id: 'deprecated', name: 'Deprecated', description: 'Do not use.' },
  });
  assert.equal(reply.json, { data: { createTag: 'urn:li:tag:deprecated' }, extensions: {} });
  const tag = await hub.gql(
    '{ tag(urn: "urn:li:tag:deprecated") { name properties { name description colorHex } ownership { owners { owner { ... on CorpUser { urn } } type } } } }',
  );
  assert.equal(tag.json.data.tag, {
    name: 'deprecated',
    properties: { name: 'Deprecated', description: 'Do not use.', colorHex: null },
    ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' }] },
  });
});

createTag('creates a tag with a random uuid when no id is given', async ({ hub }) => {
  const reply = await hub.gql(CREATE_TAG, { input: { name: 'Anonymous' } });
  assert.match(reply.json.data.createTag, /^urn:li:tag:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

createTag('refuses an id that exists with This Tag already exists! and keeps the old tag', async ({ hub }) => {
  const reply = await hub.gql(CREATE_TAG, { input: { id: 'deprecated', name: 'Other', description: 'other' } });
  assert.is(reply.json.errors[0].message, 'This Tag already exists!');
  const tag = await hub.gql('{ tag(urn: "urn:li:tag:deprecated") { properties { name } } }');
  assert.is(tag.json.data.tag.properties.name, 'Deprecated');
});

createTag('lets exactly one of many concurrent creates of one id win', async ({ hub }) => {
  const replies = await Promise.all(
    Array.from({ length: 12 }, (_, i) => hub.gql(CREATE_TAG, { input: { id: 'race', name: `racer ${i}` } })),
  );
  const winners = replies.filter((reply) => reply.json.data.createTag === 'urn:li:tag:race');
  assert.is(winners.length, 1);
  assert.is(replies.filter((reply) => reply.json.errors?.[0].message === 'This Tag already exists!').length, 11);
});

createTag('refuses an id that makes an invalid urn', async ({ hub }) => {
  const reply = await hub.gql(CREATE_TAG, { input: { id: ' padded', name: 'x' } });
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.match(reply.json.errors[0].message, /whitespace/);
});

createTag.run();

// ---

const links = suite<Context>('addLink and removeLink');
links.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
links.after(async ({ hub }) => hub.close());

links('adds a link as the caller and removes it again', async ({ hub }) => {
  const added = await hub.gql(
    'mutation { addLink(input: {linkUrl: "https://dash.example/orders", label: "Dashboard", resourceUrn: "' +
      ORDERS +
      '"}) }',
  );
  assert.equal(added.json.data, { addLink: true });
  let elements = (await dataset(hub, ORDERS)).institutionalMemory.elements;
  const link = elements.find((e: { url: string }) => e.url === 'https://dash.example/orders');
  assert.is(link.label, 'Dashboard');
  assert.is(link.author.urn, 'urn:li:corpuser:datahub');
  const removed = await hub.gql(
    'mutation { removeLink(input: {linkUrl: "https://dash.example/orders", resourceUrn: "' + ORDERS + '"}) }',
  );
  assert.equal(removed.json.data, { removeLink: true });
  elements = (await dataset(hub, ORDERS)).institutionalMemory?.elements ?? [];
  assert.not.ok(elements.some((e: { url: string }) => e.url === 'https://dash.example/orders'));
});

links('fails on an entity that does not exist', async ({ hub }) => {
  const reply = await hub.gql(
    'mutation { addLink(input: {linkUrl: "https://x.example", label: "x", resourceUrn: "urn:li:container:ghost"}) }',
  );
  assert.is(
    reply.json.errors[0].message,
    'Failed to update urn:li:container:ghost. urn:li:container:ghost does not exist.',
  );
});

links.run();

// ---

const text = suite<Context>('descriptions round-trip byte for byte');
text.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
text.after(async ({ hub }) => hub.close());

const MARKDOWN =
  '## Orders 🧾\n\nOne row per order.\n\n| col | meaning |\n|---|---|\n| `id` | «primary» key |\n\n- ünïcödé, 中文, עברית, emoji 👩‍💻\n- tab\there, trailing spaces   \n\r\nCRLF line\n';

text('returns multi-line markdown and unicode exactly as written, via variables', async ({ hub }) => {
  await hub.gql(UPDATE_DATASET, { urn: ORDERS, input: { editableProperties: { description: MARKDOWN } } });
  await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: MARKDOWN, resourceUrn: ORDERS, subResource: 'order_id', subResourceType: 'DATASET_FIELD' },
  });
  const after = await dataset(hub, ORDERS);
  assert.is(after.properties.description, MARKDOWN);
  assert.is(after.schemaMetadata.fields[0].description, MARKDOWN);
});

text('follows the GraphQL spec for block strings written in the document', async ({ hub }) => {
  const reply = await hub.gql(`mutation updateDescription {
    updateDescription(input: {
      description: """
      ### User Name
      The \`order_id\` column is the "primary" key.
          Indented line.
      """,
      resourceUrn: "${ORDERS}", subResource: "order_id", subResourceType: DATASET_FIELD })
  }`);
  assert.is(reply.json.data.updateDescription, true);
  const after = await dataset(hub, ORDERS);
  assert.is(
    after.schemaMetadata.fields[0].description,
    '### User Name\nThe `order_id` column is the "primary" key.\n    Indented line.',
  );
});

text.run();
