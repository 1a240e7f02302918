// me and listAccessTokens as DataHub's web app and smoke tests ask for them: every PlatformPrivileges flag
// worked out from the caller's role through PLATFORM_FLAGS, the smoke tests' me and corpUser documents,
// and listAccessTokens with the filters the web app's token pages send. In process, seeded with the sample.

import { GraphQLNonNull, GraphQLObjectType, parse, validate } from 'graphql';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { PLATFORM_FLAGS, type PlatformPrivilege } from '../src/auth/privileges.ts';
import { minihubSchema } from '../src/graphql/schema.ts';
import { dataHubDocuments } from './fixtures/datahub-documents.ts';
import { dataOf, FORBIDDEN } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE } from './fixtures/server.ts';

// What DataHub's default policies (metadata-service/war/src/main/resources/boot/policies.json) give each
// role on the platform, besides what every user gets; Admin "has all platform privileges".
const EVERYONE: PlatformPrivilege[] = ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'];
const ROLES: Record<string, { username: string; holds: PlatformPrivilege[] }> = {
  Admin: {
    username: 'alice',
    holds: [
      ...['MANAGE_POLICIES', 'MANAGE_INGESTION', 'MANAGE_SECRETS', 'MANAGE_USERS_AND_GROUPS', 'MANAGE_ACCESS_TOKENS'],
      ...['CREATE_DOMAINS', 'MANAGE_DOMAINS', 'MANAGE_GLOBAL_ANNOUNCEMENTS', 'VIEW_TESTS', 'MANAGE_TESTS'],
      ...['MANAGE_GLOSSARIES', 'MANAGE_USER_CREDENTIALS', 'CREATE_TAGS', 'MANAGE_TAGS', 'MANAGE_GLOBAL_VIEWS'],
      ...['MANAGE_GLOBAL_OWNERSHIP_TYPES', 'CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'],
      ...['MANAGE_STRUCTURED_PROPERTIES', 'VIEW_STRUCTURED_PROPERTIES_PAGE'],
    ] as PlatformPrivilege[],
  },
  Editor: {
    username: 'bob',
    holds: ['MANAGE_DOMAINS', 'MANAGE_GLOBAL_ANNOUNCEMENTS', 'MANAGE_GLOSSARIES', 'MANAGE_TAGS'],
  },
  Reader: { username: 'carol', holds: [] },
};

type Context = { hub: InProcessHub; tokens: Record<string, string> };
const me = suite<Context>('me and access tokens');
me.before(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
  context.tokens = {};
  for (const username of ['alice', 'bob', 'carol']) context.tokens[username] = await context.hub.createToken(username);
});
me.after(async ({ hub }) => hub.close());

me('has every flag of DataHub PlatformPrivileges, each a Boolean!, and nothing else', () => {
  const type = minihubSchema().getType('PlatformPrivileges') as GraphQLObjectType;
  const fields = Object.values(type.getFields());
  assert.equal(fields.map((field) => field.name).sort(), Object.keys(PLATFORM_FLAGS).sort());
  for (const field of fields) {
    assert.ok(field.type instanceof GraphQLNonNull && String(field.type.ofType) === 'Boolean', field.name);
  }
});

me(
  'answers each flag from the role, walking the flag -> privilege table for Admin, Editor and Reader',
  async ({ hub, tokens }) => {
    const query = `{ me { corpUser { username } platformPrivileges { ${Object.keys(PLATFORM_FLAGS).join(' ')} } } }`;
    for (const [role, { username, holds }] of Object.entries(ROLES)) {
      const held = new Set([...EVERYONE, ...holds]);
      const expected = Object.fromEntries(
        Object.entries(PLATFORM_FLAGS).map(([flag, privileges]) => [flag, privileges.some((p) => held.has(p))]),
      );
      const data = await dataOf(hub, query, {}, tokens[username]);
      assert.is(data.me.corpUser.username, username);
      assert.equal(data.me.platformPrivileges, expected, role);
    }
    // The root user is Admin.
    const root = (await dataOf(hub, query, {})).me.platformPrivileges;
    assert.equal(root, (await dataOf(hub, query, {}, tokens.alice)).me.platformPrivileges);
  },
);

// DataHub's own documents, verbatim (fixtures/datahub-documents).
const documents = new Map(dataHubDocuments().map((document) => [document.name, document.text]));
function documentOf(name: string): string {
  const text = documents.get(name);
  assert.ok(text, `no ${name} document`);
  return text;
}
const SMOKE_ME = documentOf('smoke-me');
const SMOKE_USER_INFO = documentOf('smoke-corpuser-info');
const SMOKE_USER_PROPERTIES = documentOf('smoke-corpuser-properties');
const SMOKE_GROUP_RELATIONSHIPS = documentOf('smoke-corpuser-group-relationships');

me("runs the smoke tests' me and corpUser documents with no errors", async ({ hub, tokens }) => {
  const schema = minihubSchema();
  for (const doc of [SMOKE_ME, SMOKE_USER_INFO, SMOKE_USER_PROPERTIES])
    assert.equal(validate(schema, parse(doc)), [], doc);
  const mine = (await dataOf(hub, SMOKE_ME, {}, tokens.carol)).me;
  assert.equal(mine.corpUser.info, {
    firstName: null,
    fullName: null,
    title: 'Head of Data Governance',
    email: 'carol@example.com',
  });
  assert.equal(mine.platformPrivileges.generatePersonalAccessTokens, true);
  const root = (await dataOf(hub, SMOKE_USER_INFO, { urn: 'urn:li:corpuser:datahub' })).corpUser;
  assert.equal(root, { urn: 'urn:li:corpuser:datahub', username: 'datahub', editableInfo: null, info: null });
  const removed = (await dataOf(hub, SMOKE_USER_PROPERTIES, { urn: 'urn:li:corpuser:jdoe' })).corpUser;
  assert.equal(removed, { urn: 'urn:li:corpuser:jdoe', properties: null });
  // Relationships are answered as an empty page by the schema's absent fields, as DataHub answers none.
  const relationships = (await dataOf(hub, SMOKE_GROUP_RELATIONSHIPS, { urn: 'urn:li:corpuser:jdoe' })).corpUser;
  assert.equal(relationships.relationships, { total: 0 });
});

const GET_ME = documentOf('getMe');

me("runs the web app's getMe unchanged", async ({ hub, tokens }) => {
  const { corpUser, platformPrivileges } = (await dataOf(hub, GET_ME, {}, tokens.bob)).me;
  assert.equal(corpUser.info, {
    active: true,
    displayName: 'Bob Okafor',
    title: corpUser.info.title,
    firstName: null,
    lastName: null,
    fullName: null,
    email: 'bob@example.com',
  });
  assert.is(corpUser.editableProperties, null);
  assert.equal(
    [platformPrivileges.manageTags, platformPrivileges.createTags, platformPrivileges.managePolicies],
    [true, true, false],
  );
});

const LIST_ACCESS_TOKENS = documentOf('listAccessTokens');
const CREATE = `mutation c($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { metadata { id } } }`;

me("lists tokens with the filters the web app's token pages send", async ({ hub, tokens }) => {
  const create = (as: string, actor: string, duration: string) =>
    dataOf(
      hub,
      CREATE,
      { input: { type: 'PERSONAL', actorUrn: `urn:li:corpuser:${actor}`, duration, name: `${as}-${actor}` } },
      tokens[as],
    );
  await create('bob', 'bob', 'ONE_HOUR');
  await create('alice', 'carol', 'NO_EXPIRY');
  const list = async (filters: unknown[], as = tokens.alice) => {
    const data = await dataOf(hub, LIST_ACCESS_TOKENS, { input: { start: 0, count: 20, filters } }, as);
    return data.listAccessTokens.tokens.map((token: { name: string }) => token.name).sort();
  };
  const everyone = await list([]);
  assert.equal(
    everyone,
    ['bob-bob', 'minihub library token', 'minihub library token', 'minihub library token', 'alice-carol'].sort(),
  );
  // The personal page: the caller's own tokens, by a filter on its ownerUrn (values, or the older value).
  assert.equal(await list([{ field: 'ownerUrn', values: ['urn:li:corpuser:bob'] }], tokens.bob), ['bob-bob']);
  assert.equal(await list([{ field: 'ownerUrn', value: 'urn:li:corpuser:bob' }], tokens.bob), ['bob-bob']);
  // The manage page: an owner picked by an admin, and the expired ones (expiresAt before now).
  assert.equal(await list([{ field: 'ownerUrn', values: ['urn:li:corpuser:alice'] }]), ['alice-carol']);
  assert.equal(await list([{ field: 'actorUrn', values: ['urn:li:corpuser:carol'], condition: 'EQUAL' }]), [
    'alice-carol',
    'minihub library token',
  ]);
  const later = `${Date.now() + 2 * 3_600_000}`;
  assert.equal(await list([{ field: 'expiresAt', values: [later], condition: 'LESS_THAN' }]), ['bob-bob']);
  assert.equal(await list([{ field: 'expiresAt', values: [`${Date.now() - 1000}`], condition: 'LESS_THAN' }]), []);
  assert.equal(await list([{ field: 'ownerUrn', values: ['urn:li:corpuser:datahub'], negated: true }]), [
    'alice-carol',
    'bob-bob',
  ]);

  // Without MANAGE_ACCESS_TOKENS only a filter on yourself lists anything.
  for (const filters of [[], [{ field: 'ownerUrn', values: ['urn:li:corpuser:bob'], negated: true }]]) {
    const reply = await hub.gql(LIST_ACCESS_TOKENS, { input: { filters } }, tokens.bob);
    assert.equal(reply.json.errors?.[0]?.extensions, FORBIDDEN.extensions, JSON.stringify(reply.json));
  }
  const refused = await hub.gql(LIST_ACCESS_TOKENS, {
    input: { filters: [{ field: 'ownerUrn', values: ['x'], condition: 'CONTAIN' }] },
  });
  assert.match(refused.json.errors?.[0]?.message, /condition CONTAIN; expected EQUAL, IN/);
});

me.run();
