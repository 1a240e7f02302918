// Users, groups, ownership, me and access tokens as DataHub's web app and smoke tests ask for them:
// each field answers from the stored aspects, null or empty where the aspect is absent. In process,
// seeded with the sample catalogue plus the records below (and bootstrap_mce.json where present).

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { dataOf, mcp } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { BOOTSTRAP, bootstrapAvailable, SAMPLE } from './fixtures/server.ts';

const REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.marts.daily_revenue,PROD)';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.customers,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const GROUP = 'urn:li:corpGroup:analytics';
const ALICE = 'urn:li:corpuser:alice';
const STEWARD_PLUS = 'urn:li:ownershipType:steward-plus';

const ALICE_EDITS = {
  displayName: 'Alice M.',
  title: 'Data lead',
  aboutMe: 'Keeps the marts honest.',
  teams: ['analytics'],
  skills: ['sql', 'dbt'],
  pictureLink: 'https://x.example/alice.png',
  slack: '@alice',
  phone: '+33 1 00 00 00 00',
  email: 'alice@work.example',
};

// An owner group, a custom ownership type, alice's edited profile, a removed user with credentials and a
// link with settings and an update stamp, in DataHub's file format (the sample has none of these).
const RECORDS: JsonValue[] = [
  mcp(GROUP, 'corpGroupInfo', {
    displayName: 'Analytics',
    description: 'Owns the revenue marts.',
    email: 'analytics@example.com',
    slack: '#analytics',
    admins: [ALICE],
    members: [ALICE, 'urn:li:corpuser:bob'],
    groups: [],
  }),
  mcp(GROUP, 'corpGroupEditableInfo', {
    description: 'Revenue marts and their dashboards.',
    pictureLink: 'https://x.example/a.png',
  }),
  mcp(STEWARD_PLUS, 'ownershipTypeInfo', { name: 'Steward plus', description: 'Looks after quality.' }),
  mcp(REVENUE, 'ownership', {
    owners: [
      { owner: 'urn:li:corpuser:bob', type: 'TECHNICAL_OWNER' },
      {
        owner: GROUP,
        type: 'BUSINESS_OWNER',
        typeUrn: 'urn:li:ownershipType:__system__business_owner',
        source: { type: 'MANUAL' },
      },
      { owner: 'urn:li:corpuser:carol', type: 'CUSTOM', typeUrn: STEWARD_PLUS },
    ],
    lastModified: { time: 1735725600000, actor: 'urn:li:corpuser:bob' },
  }),
  mcp(ALICE, 'corpUserEditableInfo', ALICE_EDITS),
  mcp(ALICE, 'corpUserStatus', { status: 'ACTIVE', lastModified: { time: 1, actor: ALICE } }),
  mcp('urn:li:corpuser:dora', 'corpUserInfo', { active: false, managerUrn: ALICE, departmentId: 7, countryCode: 'FR' }),
  mcp('urn:li:corpuser:dora', 'corpUserCredentials', { salt: 's', hashedPassword: 'h' }),
  mcp('urn:li:corpuser:dora', 'status', { removed: true }),
  mcp(ORDERS, 'institutionalMemory', {
    elements: [
      {
        url: 'https://wiki.example/orders',
        description: 'Orders wiki',
        createStamp: { time: 10, actor: ALICE },
        updateStamp: { time: 20, actor: 'urn:li:corpuser:bob' },
        settings: { showInAssetPreview: true },
      },
      { url: 'https://wiki.example/plain', description: 'Plain', createStamp: { time: 30, actor: ALICE } },
    ],
  }),
];

// The web app's ownershipFields fragment (datahub-web-react/src/graphql/fragments.graphql), trimmed to
// the fields minihub answers from data.
const OWNERSHIP = `query o($urn: String!) { dataset(urn: $urn) { ownership {
  owners {
    owner {
      ... on CorpUser { __typename urn type username properties { displayName } editableProperties { email } }
      ... on CorpGroup { __typename urn type name properties { displayName description email slack }
        info { displayName description email admins { urn username } members { urn info { displayName } } groups }
        editableProperties { description pictureLink } ownership { owners { associatedUrn } } exists }
    }
    type
    ownershipType { urn type info { name description } status { removed } }
    source { type url }
    associatedUrn
  }
  lastModified { time actor }
} } }`;

type Context = { hub: InProcessHub };
const pages = suite<Context>('user, group and ownership pages');
pages.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, RECORDS] });
});
pages.after(async ({ hub }) => hub.close());

pages('answers owners as users or groups, with ownership types from typeUrn or the legacy type', async ({ hub }) => {
  const { ownership } = (await dataOf(hub, OWNERSHIP, { urn: REVENUE })).dataset;
  assert.equal(ownership.lastModified, { time: 1735725600000, actor: 'urn:li:corpuser:bob' });
  const [bob, group, carol] = ownership.owners;
  assert.equal(bob.owner, {
    __typename: 'CorpUser',
    urn: 'urn:li:corpuser:bob',
    type: 'CORP_USER',
    username: 'bob',
    properties: { displayName: 'Bob Okafor' },
    editableProperties: null,
  });
  assert.is(bob.type, 'TECHNICAL_OWNER');
  assert.equal(bob.ownershipType.urn, 'urn:li:ownershipType:__system__technical_owner');
  assert.is(bob.ownershipType.info.name, 'Technical Owner');
  assert.is(bob.source, null);
  assert.equal(group.owner, {
    __typename: 'CorpGroup',
    urn: GROUP,
    type: 'CORP_GROUP',
    name: 'analytics',
    properties: {
      displayName: 'Analytics',
      description: 'Owns the revenue marts.',
      email: 'analytics@example.com',
      slack: '#analytics',
    },
    info: {
      displayName: 'Analytics',
      description: 'Owns the revenue marts.',
      email: 'analytics@example.com',
      admins: [{ urn: ALICE, username: 'alice' }],
      members: [
        { urn: ALICE, info: { displayName: 'Alice Moreau' } },
        { urn: 'urn:li:corpuser:bob', info: { displayName: 'Bob Okafor' } },
      ],
      groups: [],
    },
    editableProperties: { description: 'Revenue marts and their dashboards.', pictureLink: 'https://x.example/a.png' },
    ownership: null,
    exists: true,
  });
  assert.equal(group.ownershipType, {
    urn: 'urn:li:ownershipType:__system__business_owner',
    type: 'CUSTOM_OWNERSHIP_TYPE',
    info: { name: 'Business Owner', description: group.ownershipType.info.description },
    status: null,
  });
  assert.equal(group.source, { type: 'MANUAL', url: null });
  assert.equal(group.associatedUrn, REVENUE);
  assert.is(carol.type, 'CUSTOM');
  assert.equal(carol.ownershipType.info, { name: 'Steward plus', description: 'Looks after quality.' });
});

pages(
  'maps a legacy type without a typeUrn as DataHub does, and answers null ownership where none',
  async ({ hub }) => {
    const { owners } = (await dataOf(hub, OWNERSHIP, { urn: CUSTOMERS })).dataset.ownership;
    assert.equal(
      owners.map((owner: { type: string; ownershipType: { urn: string; info: unknown } }) => [
        owner.type,
        owner.ownershipType.urn,
        owner.ownershipType.info,
      ]),
      [
        ['TECHNICAL_OWNER', 'urn:li:ownershipType:__system__technical_owner', owners[0].ownershipType.info],
        // DataHub creates no ownership type for the deprecated DATAOWNER: its entity has no info.
        ['DATAOWNER', 'urn:li:ownershipType:__system__dataowner', null],
      ],
    );
    assert.ok(owners[0].ownershipType.info.name);
    const unowned = 'urn:li:dataset:(urn:li:dataPlatform:hive,nowhere,PROD)';
    assert.is((await dataOf(hub, OWNERSHIP, { urn: unowned })).dataset.ownership, null);
    const group =
      '{ corpGroup(urn: "urn:li:corpGroup:nobody") { name exists properties { email } info { email } editableProperties { email } ownership { lastModified { time } } } }';
    assert.equal((await dataOf(hub, group, {})).corpGroup, {
      name: 'nobody',
      exists: false,
      properties: null,
      info: null,
      editableProperties: null,
      ownership: null,
    });
  },
);

const USER = `query u($urn: String!) { corpUser(urn: $urn) {
  urn username exists isNativeUser status
  properties { active displayName email title firstName fullName manager { urn username } departmentId countryCode customProperties { key } }
  info { active displayName fullName }
  editableProperties { displayName title aboutMe teams skills pictureLink slack phone email }
  editableInfo { displayName title aboutMe teams skills pictureLink }
} }`;

pages('answers a user from corpUserInfo, corpUserEditableInfo and corpUserStatus', async ({ hub }) => {
  const alice = (await dataOf(hub, USER, { urn: ALICE })).corpUser;
  assert.is(alice.isNativeUser, true);
  assert.is(alice.status, 'ACTIVE');
  assert.equal(alice.info, { active: true, displayName: 'Alice Moreau', fullName: null });
  assert.is(alice.properties.displayName, 'Alice Moreau');
  assert.is(alice.properties.manager, null);
  assert.equal(alice.editableProperties, ALICE_EDITS);
  const { slack, phone, email, ...older } = alice.editableProperties;
  assert.equal(alice.editableInfo, older, `${slack}${phone}${email} are not in the deprecated twin`);

  const bob = (await dataOf(hub, USER, { urn: 'urn:li:corpuser:bob' })).corpUser;
  assert.equal([bob.editableProperties, bob.editableInfo, bob.status, bob.isNativeUser], [null, null, null, true]);
  const root = (await dataOf(hub, USER, { urn: 'urn:li:corpuser:datahub' })).corpUser;
  assert.equal([root.exists, root.isNativeUser, root.properties], [true, true, null]);
});

pages('answers what DataHub answers for a removed or unknown user', async ({ hub }) => {
  const dora = (await dataOf(hub, USER, { urn: 'urn:li:corpuser:dora' })).corpUser;
  // Removed, so not one of minihub's users: DataHub's rule, credentials with a salt and a hash.
  assert.is(dora.isNativeUser, true);
  assert.equal(dora.properties.manager, { urn: ALICE, username: 'alice' });
  assert.equal([dora.properties.active, dora.properties.departmentId, dora.properties.countryCode], [false, 7, 'FR']);
  assert.is(dora.properties.customProperties, null);
  const nobody = (await dataOf(hub, USER, { urn: 'urn:li:corpuser:nobody' })).corpUser;
  assert.equal(nobody, {
    urn: 'urn:li:corpuser:nobody',
    username: 'nobody',
    exists: false,
    isNativeUser: null,
    status: null,
    properties: null,
    info: null,
    editableProperties: null,
    editableInfo: null,
  });
});

pages('answers links with their settings and update stamp, null where not stored', async ({ hub }) => {
  const query = `query l($urn: String!) { dataset(urn: $urn) { institutionalMemory { elements {
    url created { time actor } updated { time actor } settings { showInAssetPreview }
  } } } }`;
  const { elements } = (await dataOf(hub, query, { urn: ORDERS })).dataset.institutionalMemory;
  assert.equal(elements, [
    {
      url: 'https://wiki.example/orders',
      created: { time: 10, actor: ALICE },
      updated: { time: 20, actor: 'urn:li:corpuser:bob' },
      settings: { showInAssetPreview: true },
    },
    { url: 'https://wiki.example/plain', created: { time: 30, actor: ALICE }, updated: null, settings: null },
  ]);
});

pages.run();

const bootstrap = suite<Context>('users and groups of bootstrap_mce.json');
const available = bootstrapAvailable('users and groups of bootstrap_mce.json');
bootstrap.before(async (context) => {
  if (available) context.hub = await openInProcess({ seed: [BOOTSTRAP] });
});
bootstrap.after(async ({ hub }) => hub?.close());

if (available) {
  bootstrap("answers DataHub's sample owners and groups as its web app reads them", async ({ hub }) => {
    const kafka = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
    const { ownership } = (await dataOf(hub, OWNERSHIP, { urn: kafka })).dataset;
    assert.equal(
      ownership.owners.map((owner: { owner: { urn: string }; type: string; ownershipType: { urn: string } }) => [
        owner.owner.urn,
        owner.type,
        owner.ownershipType.urn,
      ]),
      [
        ['urn:li:corpuser:jdoe', 'DATAOWNER', 'urn:li:ownershipType:__system__dataowner'],
        ['urn:li:corpuser:datahub', 'DATAOWNER', 'urn:li:ownershipType:__system__dataowner'],
      ],
    );
    const group = `{ corpGroup(urn: "urn:li:corpGroup:bfoo") {
      name exists properties { displayName description email slack } info { members { username } groups }
    } }`;
    assert.equal((await dataOf(hub, group, {})).corpGroup, {
      name: 'bfoo',
      exists: true,
      properties: {
        displayName: null,
        description: 'This group is full of bfoos!',
        email: 'bfoo@linkedin.com',
        slack: null,
      },
      info: { members: [{ username: 'jdoe' }, { username: 'datahub' }], groups: ['urn:li:corpGroup:jdoe'] },
    });
    const jdoe = (await dataOf(hub, USER, { urn: 'urn:li:corpuser:jdoe' })).corpUser;
    assert.equal(jdoe.info, { active: true, displayName: 'John Doe', fullName: 'John Doe' });
    assert.is(jdoe.isNativeUser, true);
  });
}

bootstrap.run();
