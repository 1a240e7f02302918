// Who may do what, through the GraphQL endpoint: five actors (Admin, Editor, Reader, a role-less owner,
// a role-less non-owner) against every operation on an owned and a not-owned dataset. Allowed cells
// succeed; denied cells answer DataHub's 403 and leave the store as it was. In process: the requests go
// through the same routes and handler as over HTTP, with no socket.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { FORBIDDEN, mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { BOOTSTRAP, bootstrapAvailable, DATASET_QUERY } from './fixtures/server.ts';

const OWNED = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)'; // jdoe owns it in bootstrap_mce.json
const NOT_OWNED = 'urn:li:dataset:(urn:li:dataPlatform:hive,unowned_events,PROD)';

// The users of the matrix and a dataset nobody owns, in DataHub's file format.
const EXTRA: JsonValue[] = [
  ...(['ada', 'ed', 'rita', 'nora'] as const).map((name) =>
    mcp(`urn:li:corpuser:${name}`, 'corpUserInfo', { active: true, displayName: name }),
  ),
  mcp('urn:li:corpuser:ada', 'roleMembership', { roles: ['urn:li:dataHubRole:Admin'] }),
  mcp('urn:li:corpuser:ed', 'roleMembership', { roles: ['urn:li:dataHubRole:Editor'] }),
  mcp('urn:li:corpuser:rita', 'roleMembership', { roles: ['urn:li:dataHubRole:Reader'] }),
  mcp(NOT_OWNED, 'datasetProperties', { description: 'nobody owns this' }),
  mcp(NOT_OWNED, 'schemaMetadata', {
    schemaName: 'unowned_events',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: [
      {
        fieldPath: 'user_name',
        nullable: false,
        type: { type: { 'com.linkedin.schema.StringType': {} } },
        nativeDataType: 'string',
        recursive: false,
      },
    ],
  }),
];

type Actor = 'ada' | 'ed' | 'rita' | 'jdoe' | 'nora';
type Operation = 'read' | 'description' | 'link' | 'column' | 'createTag';
const SAYS: Record<Operation, string> = {
  read: 'read',
  description: 'set the description of',
  link: 'add a link to',
  column: 'set a column description of',
  createTag: 'create a tag beside',
};

// true = allowed. createTag is a platform privilege, so the same on both datasets.
const MATRIX: Record<Actor, Record<'owned' | 'notOwned', Record<Operation, boolean>>> = {
  ada: { owned: all(true), notOwned: all(true) },
  ed: { owned: all(true), notOwned: all(true) },
  rita: { owned: readOnly(), notOwned: readOnly() },
  jdoe: { owned: { read: true, description: true, link: true, column: true, createTag: false }, notOwned: readOnly() },
  nora: { owned: readOnly(), notOwned: readOnly() },
};

function all(value: boolean): Record<Operation, boolean> {
  return { read: value, description: value, link: value, column: value, createTag: value };
}

function readOnly(): Record<Operation, boolean> {
  return { ...all(false), read: true };
}

const matrix = suite<{ hub: InProcessHub; tokens: Record<Actor, string> }>('authorization matrix');
const available = bootstrapAvailable('authorization matrix');

matrix.before(async (context) => {
  if (!available) return;
  context.hub = await openInProcess({ seed: [BOOTSTRAP, EXTRA] });
  const tokens = {} as Record<Actor, string>;
  for (const actor of ['ada', 'ed', 'rita', 'jdoe', 'nora'] as const)
    tokens[actor] = await context.hub.createToken(actor);
  context.tokens = tokens;
});
matrix.after(async ({ hub }) => hub?.close());

let cell = 0;
async function run(hub: InProcessHub, token: string, operation: Operation, urn: string) {
  cell++;
  switch (operation) {
    case 'read':
      return { field: 'dataset', reply: await hub.gql(DATASET_QUERY, { urn }, token) };
    case 'description':
      return {
        field: 'updateDataset',
        reply: await hub.gql(
          'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }',
          { urn, input: { editableProperties: { description: `description ${cell}` } } },
          token,
        ),
      };
    case 'link':
      return {
        field: 'updateDataset',
        reply: await hub.gql(
          'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }',
          {
            urn,
            input: {
              institutionalMemory: {
                elements: [
                  { author: 'urn:li:corpuser:jdoe', url: `https://links.example/${cell}`, description: `link ${cell}` },
                ],
              },
            },
          },
          token,
        ),
      };
    case 'column':
      return {
        field: 'updateDescription',
        reply: await hub.gql(
          'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }',
          {
            input: {
              description: `column ${cell}`,
              resourceUrn: urn,
              subResource: 'user_name',
              subResourceType: 'DATASET_FIELD',
            },
          },
          token,
        ),
      };
    case 'createTag':
      return {
        field: 'createTag',
        reply: await hub.gql(
          'mutation t($input: CreateTagInput!) { createTag(input: $input) }',
          { input: { id: `tag-${cell}`, name: `tag ${cell}` } },
          token,
        ),
      };
  }
}

async function snapshot(hub: InProcessHub, urn: string): Promise<unknown> {
  return (await hub.gql(DATASET_QUERY, { urn })).json.data.dataset;
}

for (const actor of Object.keys(MATRIX) as Actor[]) {
  for (const target of ['owned', 'notOwned'] as const) {
    for (const [operation, allowed] of Object.entries(MATRIX[actor][target]) as [Operation, boolean][]) {
      if (!available) continue;
      matrix(
        `${actor} ${allowed ? 'may' : 'may not'} ${SAYS[operation]} the ${target === 'owned' ? 'owned' : 'not-owned'} dataset`,
        async ({ hub, tokens }) => {
          const urn = target === 'owned' ? OWNED : NOT_OWNED;
          const before = await snapshot(hub, urn);
          const { field, reply } = await run(hub, tokens[actor], operation, urn);
          assert.is(reply.status, 200);
          if (allowed) {
            assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
            assert.ok(reply.json.data[field] !== null);
            if (operation !== 'read' && operation !== 'createTag')
              assert.not.equal(await snapshot(hub, urn), before, 'the write shows on read-back');
            if (operation === 'createTag') {
              const tag = await hub.gql(`{ tag(urn: "${reply.json.data.createTag}") { properties { name } } }`);
              assert.ok(tag.json.data.tag.properties !== null);
            }
          } else {
            assert.equal(reply.json.errors[0].message, FORBIDDEN.message);
            assert.equal(reply.json.errors[0].extensions, FORBIDDEN.extensions);
            assert.equal(reply.json.errors[0].path, [field]);
            assert.equal(reply.json.data, { [field]: null });
            assert.equal(await snapshot(hub, urn), before, 'the store is unchanged after a denial');
            if (operation === 'createTag') {
              const tag = await hub.gql(`{ tag(urn: "urn:li:tag:tag-${cell}") { properties { name } } }`);
              assert.is(tag.json.data.tag.properties, null);
            }
          }
        },
      );
    }
  }
}

matrix.run();

// ---

const rules = suite<{ hub: InProcessHub; tokens: Record<string, string> }>('privilege rules');
rules.before(async (context) => {
  if (!available) return;
  context.hub = await openInProcess({ seed: [BOOTSTRAP, EXTRA] });
  context.tokens = {
    rita: await context.hub.createToken('rita'),
    jdoe: await context.hub.createToken('jdoe'),
    ed: await context.hub.createToken('ed'),
  };
});
rules.after(async ({ hub }) => hub?.close());

function rule(
  name: string,
  body: (context: { hub: InProcessHub; tokens: Record<string, string> }) => Promise<void>,
): void {
  if (available) rules(name, body);
}

rule(
  'checks privileges before existence, so a denied caller learns nothing about the target',
  async ({ hub, tokens }) => {
    const ghost = 'urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)';
    const reply = await hub.gql(
      'mutation { updateDescription(input: {description: "x", resourceUrn: "' +
        ghost +
        '", subResource: "a", subResourceType: DATASET_FIELD}) }',
      {},
      tokens.rita,
    );
    assert.equal(reply.json.errors[0].extensions, FORBIDDEN.extensions);
    const admin = await hub.gql(
      'mutation { updateDescription(input: {description: "x", resourceUrn: "' +
        ghost +
        '", subResource: "a", subResourceType: DATASET_FIELD}) }',
    );
    assert.is(admin.json.errors[0].extensions.code, 400);
  },
);

rule('lets an owner edit the tag it owns but not tags it does not own', async ({ hub, tokens }) => {
  // jdoe owns urn:li:tag:Legacy in bootstrap_mce.json, and no other tag.
  const own = await hub.gql(
    'mutation { updateDescription(input: {description: "mine", resourceUrn: "urn:li:tag:Legacy"}) }',
    {},
    tokens.jdoe,
  );
  assert.equal(own.json.data, { updateDescription: true });
  const created = await hub.gql('mutation { createTag(input: {id: "admins", name: "admins"}) }');
  const other = await hub.gql(
    'mutation { updateDescription(input: {description: "not mine", resourceUrn: "' +
      created.json.data.createTag +
      '"}) }',
    {},
    tokens.jdoe,
  );
  assert.equal(other.json.errors[0].extensions, FORBIDDEN.extensions);
});

rule('denies link changes through addLink to a reader', async ({ hub, tokens }) => {
  const reply = await hub.gql(
    `mutation { addLink(input: {linkUrl: "https://x.example", label: "x", resourceUrn: "${OWNED}"}) }`,
    {},
    tokens.rita,
  );
  assert.equal(reply.json.errors[0].extensions, FORBIDDEN.extensions);
});

rule('shows each actor and its platform privileges in me', async ({ hub, tokens }) => {
  const query =
    '{ me { corpUser { username } platformPrivileges { generatePersonalAccessTokens manageTokens manageTags createTags } } }';
  assert.equal((await hub.gql(query)).json.data.me, {
    corpUser: { username: 'datahub' },
    platformPrivileges: { generatePersonalAccessTokens: true, manageTokens: true, manageTags: true, createTags: true },
  });
  // DataHub's createTags is CREATE_TAGS or MANAGE_TAGS, and an Editor holds MANAGE_TAGS.
  assert.equal((await hub.gql(query, {}, tokens.ed)).json.data.me.platformPrivileges, {
    generatePersonalAccessTokens: true,
    manageTokens: false,
    manageTags: true,
    createTags: true,
  });
  assert.equal((await hub.gql(query, {}, tokens.jdoe)).json.data.me, {
    corpUser: { username: 'jdoe' },
    platformPrivileges: {
      generatePersonalAccessTokens: true,
      manageTokens: false,
      manageTags: false,
      createTags: false,
    },
  });
});

rules.run();
