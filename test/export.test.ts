// Export to DataHub: store.export() record by record, and the round trip through the command line
// (edit, export, ingest into an empty directory, and every read answers the same) over the sample
// and over DataHub's bootstrap_mce.json. Access tokens must never appear in an export.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { AspectChange } from '../src/store/catalogue.ts';
import { mcpFileText } from '../src/datahub/export.ts';
import { Store } from '../src/store/store.ts';
import { ingestedSample, runCli } from './fixtures/cli.ts';
import {
  BOOTSTRAP,
  bootstrapAvailable,
  SAMPLE,
  startTestServer,
  tempDataDir,
  type TestServer,
} from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const SHOP_DB = 'urn:li:container:shop_db';
const FCT_USERS_CREATED = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const FCT_USERS_DELETED = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';

const UPDATE_DATASET =
  'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }';
const UPDATE_DESCRIPTION = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const CREATE_TAG = 'mutation t($input: CreateTagInput!) { createTag(input: $input) }';
const CREATE_ACCESS_TOKEN = `mutation {
  createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_MONTH, name: "export test"}) { accessToken }
}`;

const OWNERSHIP = `ownership {
  owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } type associatedUrn }
  lastModified { time actor }
}`;
const LINKS = `institutionalMemory {
  elements { url label description author { urn } actor { ... on CorpUser { urn } ... on CorpGroup { urn } } created { time actor } associatedUrn }
}`;
const TAGS = 'tags { tags { tag { urn name properties { name description colorHex } } associatedUrn } }';

/** Everything the schema lets a client read of a dataset. */
const READ_DATASET = `query dataset($urn: String!) {
  dataset(urn: $urn) {
    urn type exists name origin
    platform { urn name properties { type displayName datasetNameDelimiter logoUrl } }
    container { urn properties { name description } }
    properties { name qualifiedName origin description customProperties { key value associatedUrn } externalUrl created lastModified { time actor } }
    editableProperties { description name }
    schemaMetadata {
      name platformUrn version hash cluster primaryKeys
      platformSchema { ... on TableSchema { schema } ... on KeyValueSchema { keySchema valueSchema } }
      fields { fieldPath jsonPath label nullable description type nativeDataType recursive isPartOfKey isPartitioningKey jsonProps ${TAGS} }
    }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description ${TAGS} } }
    ${OWNERSHIP}
    ${LINKS}
    ${TAGS}
    status { removed }
    subTypes { typeNames }
  }
}`;

const READ_CONTAINER = `query container($urn: String!) {
  container(urn: $urn) {
    urn type exists
    platform { urn name }
    properties { name description customProperties { key value } externalUrl qualifiedName }
    editableProperties { description }
    container { urn }
    ${OWNERSHIP}
    ${LINKS}
    subTypes { typeNames }
    ${TAGS}
  }
}`;

const READ_TAG = `query tag($urn: String!) {
  tag(urn: $urn) { urn type name description properties { name description colorHex } ${OWNERSHIP} }
}`;

const READ_USER = `query user($urn: String!) {
  corpUser(urn: $urn) { urn type username exists properties { active displayName email title firstName lastName fullName } }
}`;

const READ_ME =
  '{ me { corpUser { urn username } platformPrivileges { generatePersonalAccessTokens manageTokens manageTags createTags } } }';

interface Urns {
  datasets: string[];
  containers: string[];
  tags: string[];
  users: string[];
}

/** The parts of readEverything's answers the tests look into; the comparison covers all of it. */
interface Reads {
  datasets: {
    dataset: {
      urn: string;
      properties: { description: string | null } | null;
      editableProperties: { description: string | null } | null;
      institutionalMemory: { elements: { url: string }[] } | null;
      schemaMetadata: { fields: { description: string | null }[] } | null;
      editableSchemaMetadata: { editableSchemaFieldInfo: { description: string | null }[] } | null;
    };
  }[];
  containers: { container: { properties: { description: string | null } | null } }[];
  tags: { tag: { properties: { name: string; description: string | null } | null } }[];
  users: unknown[];
  privileges: { me: { platformPrivileges: { createTags: boolean } } }[];
}

/** The URNs to compare, taken from the original catalogue before export. */
function urnsOf(hub: TestServer): Urns {
  const { catalogue } = hub.store;
  return {
    datasets: [...catalogue.urnsOfType('dataset')],
    containers: [...catalogue.urnsOfType('container')],
    tags: [...catalogue.urnsOfType('tag')],
    users: [...catalogue.urnsOfType('corpuser')],
  };
}

/** Every read of `urns`, plus what each user's token may do (which shows the roles came along). */
async function readEverything(hub: TestServer, urns: Urns): Promise<Reads> {
  const read = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const reply = await hub.gql(query, variables, token);
    assert.is(reply.json.errors, undefined, `${JSON.stringify(variables)}: ${JSON.stringify(reply.json.errors)}`);
    return reply.json.data;
  };
  const each = (query: string, list: string[]) => Promise.all(list.map((urn) => read(query, { urn })));
  const privileges = [];
  for (const urn of urns.users) {
    const token = await hub.createToken(urn.slice('urn:li:corpuser:'.length));
    privileges.push(await read(READ_ME, {}, token));
  }
  return {
    datasets: await each(READ_DATASET, urns.datasets),
    containers: await each(READ_CONTAINER, urns.containers),
    tags: await each(READ_TAG, urns.tags),
    users: await each(READ_USER, urns.users),
    privileges,
  };
}

async function mutate<T = unknown>(hub: TestServer, query: string, variables: Record<string, unknown>): Promise<T> {
  const reply = await hub.gql(query, variables);
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data as T;
}

/** Issues two stored tokens (library and GraphQL) and returns every trace of them an export could leak. */
async function issueTokens(hub: TestServer, dataDir: string): Promise<string[]> {
  const library = await hub.createToken('datahub', { name: 'library' });
  const graphql = (await mutate<{ createAccessToken: { accessToken: string } }>(hub, CREATE_ACCESS_TOKEN, {}))
    .createAccessToken.accessToken;
  const ids = [...hub.store.catalogue.urnsOfType('dataHubAccessToken')].map((urn) =>
    urn.slice('urn:li:dataHubAccessToken:'.length),
  );
  assert.is(ids.length, 2);
  return [library, graphql, ...ids, readFileSync(join(dataDir, 'signing.key'), 'utf8').trim()];
}

/** Exports `from` with the CLI, ingests the file into a new directory, and returns both directories' reads. */
async function roundTrip(from: string, urns: Urns): Promise<{ text: string; before: Reads; after: Reads; to: string }> {
  const file = join(tempDataDir(), 'export.json');
  const exported = await runCli(['export', '--data', from, '--out', file]);
  assert.is(exported.code, 0, exported.stderr);
  assert.ok(
    exported.stdout.startsWith('exported ') && exported.stdout.includes(` entities to ${file} (`),
    exported.stdout,
  );
  assert.match(
    exported.stdout,
    new RegExp(`dataset ${urns.datasets.length}.*\\); 2 access tokens left out \\(never exported\\)\n$`),
  );
  const to = tempDataDir();
  const ingested = await runCli(['ingest', file, '--data', to]);
  assert.is(ingested.code, 0, ingested.stderr);
  assert.match(ingested.stdout, / 0 unchanged, 0 rejected/);

  const original = await startTestServer({ dataDir: from });
  try {
    const copy = await startTestServer({ dataDir: to });
    try {
      const [before, after] = await Promise.all([readEverything(original, urns), readEverything(copy, urns)]);
      return { text: readFileSync(file, 'utf8'), before, after, to };
    } finally {
      await copy.close();
    }
  } finally {
    await original.close();
  }
}

// ---

const library = suite('store.export()');

library(
  'lists one UPSERT per aspect in entity then aspect order, with the entity type from the urn, leaving tokens out',
  async () => {
    const store = await Store.open({ dataDir: null });
    try {
      await store.commit('test', 'urn:li:corpuser:datahub', (): AspectChange[] => [
        { urn: 'urn:li:tag:b', aspect: 'tagProperties', value: { name: 'b' } },
        { urn: 'urn:li:corpuser:alice', aspect: 'corpUserInfo', value: { active: true } },
        {
          urn: 'urn:li:dataHubAccessToken:abc',
          aspect: 'dataHubAccessTokenInfo',
          value: { name: 'secret', actorUrn: 'urn:li:corpuser:alice' },
        },
        { urn: 'urn:li:tag:b', aspect: 'ownership', value: { owners: [] } },
        { urn: 'urn:li:corpuser:alice', aspect: 'roleMembership', value: { roles: ['urn:li:dataHubRole:Editor'] } },
      ]);
      const records = store.export();
      assert.equal(records, [
        {
          entityType: 'tag',
          entityUrn: 'urn:li:tag:b',
          changeType: 'UPSERT',
          aspectName: 'tagProperties',
          aspect: { json: { name: 'b' } },
        },
        {
          entityType: 'tag',
          entityUrn: 'urn:li:tag:b',
          changeType: 'UPSERT',
          aspectName: 'ownership',
          aspect: { json: { owners: [] } },
        },
        {
          entityType: 'corpuser',
          entityUrn: 'urn:li:corpuser:alice',
          changeType: 'UPSERT',
          aspectName: 'corpUserInfo',
          aspect: { json: { active: true } },
        },
        {
          entityType: 'corpuser',
          entityUrn: 'urn:li:corpuser:alice',
          changeType: 'UPSERT',
          aspectName: 'roleMembership',
          aspect: { json: { roles: ['urn:li:dataHubRole:Editor'] } },
        },
      ]);
      // The records are copies: changing one must not change the catalogue.
      (records[0]?.aspect.json as { name: string }).name = 'changed';
      assert.equal(store.catalogue.aspect('urn:li:tag:b', 'tagProperties'), { name: 'b' });
      assert.equal(JSON.parse(mcpFileText(store.export())), store.export());
      assert.is(mcpFileText([]), '[]\n');
    } finally {
      await store.close();
    }
  },
);

library.run();

// ---

const sample = suite('export round trip over the sample');

sample(
  'exports the sample with its edits, and a directory ingested from the file answers every read the same',
  async () => {
    const from = tempDataDir();
    const hub = await startTestServer({ dataDir: from, seed: [SAMPLE] });
    let secrets: string[];
    let urns: Urns;
    try {
      await mutate(hub, UPDATE_DATASET, {
        urn: ORDERS,
        input: {
          editableProperties: { description: '## Orders, edited\nOne row per *paid* order. ✓' },
          institutionalMemory: {
            elements: [
              {
                author: 'urn:li:corpuser:alice',
                url: 'https://wiki.example.com/orders',
                description: 'Orders runbook',
              },
            ],
          },
        },
      });
      await mutate(hub, UPDATE_DESCRIPTION, {
        input: {
          description: 'Order number, unique per shop.',
          resourceUrn: ORDERS,
          subResource: 'order_id',
          subResourceType: 'DATASET_FIELD',
        },
      });
      await mutate(hub, UPDATE_DESCRIPTION, {
        input: { description: 'The shop database, edited.', resourceUrn: SHOP_DB },
      });
      await mutate(hub, UPDATE_DESCRIPTION, {
        input: { description: 'Personal data, edited.', resourceUrn: 'urn:li:tag:pii' },
      });
      await mutate(hub, CREATE_TAG, {
        input: {
          id: 'deprecated',
          name: 'Deprecated',
          description: 'Having this tag means this column or table is deprecated.',
        },
      });
      secrets = await issueTokens(hub, from);
      urns = urnsOf(hub);
    } finally {
      await hub.close();
    }
    assert.is(urns.datasets.length, 5);
    assert.equal(urns.tags, ['urn:li:tag:pii', 'urn:li:tag:gold', 'urn:li:tag:deprecated']);
    assert.is(urns.users.length, 3);

    const { text, before, after } = await roundTrip(from, urns);
    assert.equal(after, before);

    // The comparison is not vacuous: the copy shows every edit.
    const orders = after.datasets.find((entry) => entry.dataset.urn === ORDERS)?.dataset;
    assert.is(orders?.editableProperties?.description, '## Orders, edited\nOne row per *paid* order. ✓');
    assert.is(orders?.institutionalMemory?.elements.at(-1)?.url, 'https://wiki.example.com/orders');
    assert.is(orders?.schemaMetadata?.fields[0]?.description, 'Order number, unique per shop.');
    assert.is(
      orders?.editableSchemaMetadata?.editableSchemaFieldInfo[0]?.description,
      'Order number, unique per shop.',
    );
    assert.is(after.containers[0]?.container.properties?.description, 'The shop database, edited.');
    assert.is(after.tags[0]?.tag.properties?.description, 'Personal data, edited.');
    assert.is(after.tags[2]?.tag.properties?.name, 'Deprecated');
    assert.equal(
      after.privileges.map((entry) => entry.me.platformPrivileges.createTags),
      [true, true, false],
    );

    assert.not.ok(text.includes('dataHubAccessToken'), 'no token entity or aspect in the export');
    for (const secret of secrets)
      assert.not.ok(text.includes(secret), 'no token, token id or signing key in the export');
    for (const record of JSON.parse(text) as { aspect: object }[])
      assert.equal(Object.keys(record), ['entityType', 'entityUrn', 'changeType', 'aspectName', 'aspect']);
  },
);

sample('writes JSON alone to stdout, and ingesting it into the same directory writes nothing', async () => {
  const dataDir = tempDataDir();
  const hub = await startTestServer({ dataDir, seed: [SAMPLE] });
  try {
    await mutate(hub, UPDATE_DESCRIPTION, {
      input: { description: 'Edited.', resourceUrn: ORDERS, subResource: 'order_id', subResourceType: 'DATASET_FIELD' },
    });
    await hub.createToken('alice');
  } finally {
    await hub.close();
  }
  const exported = await runCli(['export', '--data', dataDir]);
  assert.is(exported.code, 0, exported.stderr);
  const records = JSON.parse(exported.stdout) as { changeType: string; aspect: { json: unknown } }[];
  assert.ok(Array.isArray(records) && records.length === 55, `${records.length} records`);
  for (const record of records) assert.is(record.changeType, 'UPSERT');
  assert.match(
    exported.stderr,
    /^exported 55 aspects of 18 entities to stdout \(dataPlatform 3, corpuser 3, tag 2, container 4, dataset 5, corpGroup 1\); 1 access token left out/,
  );

  const file = join(tempDataDir(), 'stdout.json');
  writeFileSync(file, exported.stdout);
  const log = join(dataDir, 'catalogue.jsonl');
  const linesBefore = readFileSync(log, 'utf8');
  const again = await runCli(['ingest', file, '--data', dataDir]);
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /55 records, 0 aspects written, 55 unchanged, 0 rejected/);
  assert.is(readFileSync(log, 'utf8'), linesBefore, 'the log is untouched');
});

sample('exports the ingested copy to the same bytes as the original, so the order is stable', async () => {
  const from = await ingestedSample();
  const first = await runCli(['export', '--data', from]);
  const file = join(tempDataDir(), 'first.json');
  writeFileSync(file, first.stdout);
  const to = tempDataDir();
  assert.is((await runCli(['ingest', file, '--data', to])).code, 0);
  assert.is((await runCli(['export', '--data', to])).stdout, first.stdout);
  assert.match(
    first.stdout,
    /^\[\n\{\n {4}"entityType": "dataPlatform",\n {4}"entityUrn": "urn:li:dataPlatform:postgres",/,
  );
});

sample('refuses a data directory without a catalogue, stray arguments, and an unwritable --out', async () => {
  const empty = tempDataDir();
  const dataDir = await ingestedSample();
  const [missing, stray, help, unwritable] = await Promise.all([
    runCli(['export', '--data', join(empty, 'no-such-dir')]),
    runCli(['export', 'out.json', '--data', empty]),
    runCli(['export', '--help']),
    runCli(['export', '--data', dataDir, '--out', join(dataDir, 'no', 'such', 'dir.json')]),
  ]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /no catalogue in .*no-such-dir .*nothing to export/);
  assert.is(missing.stdout, '');
  assert.is(stray.code, 2);
  assert.match(stray.stderr, /export takes no arguments, got "out\.json"; use --out FILE/);
  assert.is(help.code, 0);
  assert.match(help.stdout, /^Usage: minihub export \[--data DIR\] \[--out FILE\]/);
  assert.is(unwritable.code, 1);
  assert.match(unwritable.stderr, /cannot write .*dir\.json: its directory does not exist/);
});

sample.run();

// ---

const bootstrap = suite('export round trip over bootstrap_mce.json');

bootstrap(
  "exports bootstrap_mce.json with the docs' edits, and the ingested copy answers every read the same",
  async () => {
    const from = tempDataDir();
    const hub = await startTestServer({ dataDir: from, seed: [BOOTSTRAP] });
    let urns: Urns;
    try {
      await mutate(hub, UPDATE_DATASET, {
        urn: FCT_USERS_CREATED,
        input: {
          editableProperties: {
            description: '## The Real Estate Sales Dataset\nThis is a really important Dataset.\n',
          },
          institutionalMemory: {
            elements: [
              {
                author: 'urn:li:corpuser:jdoe',
                url: 'https://wikipedia.com/real_estate',
                description: 'This is the definition of what real estate means',
              },
            ],
          },
        },
      });
      await mutate(hub, UPDATE_DESCRIPTION, {
        input: {
          description: 'Name of the user who was deleted. Edited.',
          resourceUrn: FCT_USERS_DELETED,
          subResource: 'user_name',
          subResourceType: 'DATASET_FIELD',
        },
      });
      await mutate(hub, UPDATE_DESCRIPTION, {
        input: { description: 'The Root DataHub DB, edited.', resourceUrn: 'urn:li:container:DATABASE' },
      });
      await mutate(hub, UPDATE_DESCRIPTION, {
        input: { description: 'No longer supported, edited.', resourceUrn: 'urn:li:tag:Legacy' },
      });
      await mutate(hub, CREATE_TAG, { input: { id: 'deprecated', name: 'Deprecated' } });
      await issueTokens(hub, from);
      urns = urnsOf(hub);
    } finally {
      await hub.close();
    }
    assert.is(urns.datasets.length, 7);
    assert.equal(urns.containers, ['urn:li:container:DATABASE', 'urn:li:container:SCHEMA']);
    assert.equal(urns.tags, ['urn:li:tag:Legacy', 'urn:li:tag:NeedsDocumentation', 'urn:li:tag:deprecated']);

    const { text, before, after, to } = await roundTrip(from, urns);
    assert.equal(after, before);
    const created = after.datasets.find((entry) => entry.dataset.urn === FCT_USERS_CREATED)?.dataset;
    assert.match(created?.properties?.description ?? '', /^## The Real Estate Sales Dataset/);
    assert.is(after.containers[0]?.container.properties?.description, 'The Root DataHub DB, edited.');
    assert.not.ok(text.includes('dataHubAccessToken'));

    // Aspects minihub keeps without reading them (profiles, assertions, posts, …) travel too.
    for (const aspect of [
      'datasetProfile',
      'upstreamLineage',
      'postInfo',
      'glossaryTermInfo',
      'mlFeatureProperties',
      'assertionInfo',
    ]) {
      assert.ok(text.includes(`"aspectName": "${aspect}"`), `${aspect} is exported`);
    }
    const again = await runCli(['export', '--data', to]);
    assert.is(again.stdout, text, 'the copy exports to the same bytes');
  },
);

// Run only with DataHub's file beside the project, so npm test counts it as skipped, not passed.
if (bootstrapAvailable('export round trip over bootstrap_mce.json')) bootstrap.run();
