// Where minihub and DataHub could differ and a decision was made (README "Differences from DataHub"):
// updateDescription on a dataset itself and on a group, and updateDataset's links added rather than
// replaced. In process.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { DATASET_QUERY, SAMPLE } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const GHOST = 'urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)';
const UPDATE_DESCRIPTION = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const UPDATE_DATASET =
  'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }';
const FORBIDDEN = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

// A Reader (no edit rights on a dataset it does not own) and an Editor.
const USERS: JsonValue[] = [
  mcp('urn:li:corpuser:rita', 'corpUserInfo', { active: true, displayName: 'rita' }),
  mcp('urn:li:corpuser:rita', 'roleMembership', { roles: ['urn:li:dataHubRole:Reader'] }),
  mcp('urn:li:corpuser:ed', 'corpUserInfo', { active: true, displayName: 'ed' }),
  mcp('urn:li:corpuser:ed', 'roleMembership', { roles: ['urn:li:dataHubRole:Editor'] }),
];

type Context = { hub: InProcessHub; rita: string; ed: string };

async function dataset(hub: InProcessHub, urn: string) {
  const reply = await hub.gql(DATASET_QUERY, { urn });
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data.dataset;
}

const datasetDescription = suite<Context>('updateDescription on a dataset without a sub-resource');
datasetDescription.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, USERS] });
  context.rita = await context.hub.createToken('rita');
  context.ed = await context.hub.createToken('ed');
});
datasetDescription.after.each(async ({ hub }) => hub.close());

datasetDescription(
  'sets the editable description, read back by editableProperties and properties',
  async ({ hub, ed }) => {
    const before = await dataset(hub, ORDERS);
    const reply = await hub.gql(
      UPDATE_DESCRIPTION,
      { input: { description: 'Orders, *edited*', resourceUrn: ORDERS } },
      ed,
    );
    assert.equal(reply.json, { data: { updateDescription: true }, extensions: {} });
    const after = await dataset(hub, ORDERS);
    assert.equal(after.editableProperties, { description: 'Orders, *edited*' });
    assert.is(after.properties.description, 'Orders, *edited*');
    // The columns and their edit layer are untouched.
    assert.equal(after.schemaMetadata, before.schemaMetadata);
    assert.equal(after.editableSchemaMetadata, before.editableSchemaMetadata);
  },
);

datasetDescription(
  'keeps what updateDataset stored beside the description, and the later edit wins',
  async ({ hub }) => {
    await hub.gql(UPDATE_DATASET, {
      urn: ORDERS,
      input: { editableProperties: { description: 'first', name: 'Orders' } },
    });
    await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'second', resourceUrn: ORDERS } });
    const aspect = hub.store.catalogue.aspect(ORDERS, 'editableDatasetProperties') as Record<string, unknown>;
    assert.is(aspect.description, 'second');
    assert.is(aspect.name, 'Orders');
    assert.is((await dataset(hub, ORDERS)).properties.description, 'second');
  },
);

datasetDescription("a dataset that does not exist gets DataHub's 400 and nothing is written", async ({ hub }) => {
  const reply = await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn: GHOST } });
  assert.equal(reply.json.data, { updateDescription: null });
  assert.is(reply.json.errors[0].message, `Failed to update ${GHOST}. ${GHOST} does not exist.`);
  assert.is(reply.json.errors[0].extensions.code, 400);
  assert.is(hub.store.catalogue.exists(GHOST), false);
});

datasetDescription('a Reader is refused with the 403, before existence, and nothing changes', async ({ hub, rita }) => {
  const before = await dataset(hub, ORDERS);
  for (const resourceUrn of [ORDERS, GHOST]) {
    const reply = await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn } }, rita);
    assert.is(reply.json.errors[0].message, FORBIDDEN);
    assert.is(reply.json.errors[0].extensions.code, 403);
  }
  assert.equal(await dataset(hub, ORDERS), before);
});

datasetDescription("a column named without subResourceType is still refused with DataHub's 400", async ({ hub }) => {
  const reply = await hub.gql(UPDATE_DESCRIPTION, {
    input: { description: 'x', resourceUrn: ORDERS, subResource: 'order_id' },
  });
  assert.is(reply.json.errors[0].message, 'Update description without subresource is not currently supported');
  assert.is((await dataset(hub, ORDERS)).editableProperties, null);
});

datasetDescription('a description over the text limit is refused before anything is checked', async () => {
  const hub = await openInProcess({ seed: [SAMPLE], limits: { maxTextBytes: 8 } });
  try {
    const reply = await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'x'.repeat(9), resourceUrn: GHOST } });
    assert.is(reply.json.errors[0].message, 'description is 9 bytes; the limit is 8');
  } finally {
    await hub.close();
  }
});

const GROUP = 'urn:li:corpGroup:analytics';
const GROUP_SEED: JsonValue[] = [
  mcp(GROUP, 'corpGroupInfo', { displayName: 'Analytics', admins: [], members: [], groups: [] }),
  mcp(ORDERS, 'ownership', {
    owners: [{ owner: GROUP, type: 'TECHNICAL_OWNER' }],
    lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
  }),
];
const GROUP_OWNER = `query q($urn: String!) { dataset(urn: $urn) { ownership { owners { owner {
  ... on CorpGroup { urn name editableProperties { description slack email pictureLink } } } } } } }`;

const groups = suite<Context>('updateDescription on a corpGroup');
groups.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, USERS, GROUP_SEED] });
  context.rita = await context.hub.createToken('rita');
  context.ed = await context.hub.createToken('ed');
});
groups.after.each(async ({ hub }) => hub.close());

groups('stores corpGroupEditableInfo.description, read back on the group', async ({ hub, ed }) => {
  const owner = async () => (await hub.gql(GROUP_OWNER, { urn: ORDERS })).json.data.dataset.ownership.owners[0].owner;
  assert.equal(await owner(), { urn: GROUP, name: 'analytics', editableProperties: null });
  // The input DataHub's clients send for a group: the group URN, no sub-resource.
  const reply = await hub.gql(
    UPDATE_DESCRIPTION,
    { input: { description: 'The analytics team', resourceUrn: GROUP } },
    ed,
  );
  assert.equal(reply.json, { data: { updateDescription: true }, extensions: {} });
  assert.equal((await owner()).editableProperties, {
    description: 'The analytics team',
    slack: null,
    email: null,
    pictureLink: null,
  });
  assert.equal(hub.store.catalogue.aspect(GROUP, 'corpGroupEditableInfo'), { description: 'The analytics team' });
});

groups('keeps the other edited fields of the group', async ({ hub }) => {
  await hub.store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: GROUP, aspect: 'corpGroupEditableInfo', value: { slack: '#analytics', description: 'old' } },
  ]);
  await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'new', resourceUrn: GROUP } });
  assert.equal(hub.store.catalogue.aspect(GROUP, 'corpGroupEditableInfo'), { slack: '#analytics', description: 'new' });
});

groups('a missing group gets the 400; a Reader the 403; nothing is written', async ({ hub, rita }) => {
  const ghost = 'urn:li:corpGroup:ghost';
  const missing = await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn: ghost } });
  assert.is(missing.json.errors[0].message, `Failed to update ${ghost}. ${ghost} does not exist.`);
  const denied = await hub.gql(UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn: GROUP } }, rita);
  assert.is(denied.json.errors[0].message, FORBIDDEN);
  assert.is(hub.store.catalogue.exists(ghost), false);
  assert.is(hub.store.catalogue.aspect(GROUP, 'corpGroupEditableInfo'), undefined);
});

const links = suite<Context>('updateDataset institutionalMemory');
links.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
});
links.after.each(async ({ hub }) => hub.close());

links(
  "adds links to the ones already there (the specification's rule 3), where DataHub replaces the list",
  async ({ hub }) => {
    const author = 'urn:li:corpuser:alice';
    const update = (url: string, description: string) =>
      hub.gql(UPDATE_DATASET, {
        urn: ORDERS,
        input: { institutionalMemory: { elements: [{ author, url, description }] } },
      });
    const before = (await dataset(hub, ORDERS)).institutionalMemory?.elements ?? [];
    await update('https://wiki.example/a', 'A');
    await update('https://wiki.example/b', 'B');
    await update('https://wiki.example/a', 'A again');
    const after = (await dataset(hub, ORDERS)).institutionalMemory.elements;
    assert.equal(
      after.map((link: { url: string; description: string }) => [link.url, link.description]),
      [
        ...before.map((link: { url: string; description: string }) => [link.url, link.description]),
        ['https://wiki.example/a', 'A again'],
        ['https://wiki.example/b', 'B'],
      ],
    );
  },
);

datasetDescription.run();
groups.run();
links.run();
