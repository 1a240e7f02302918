// DataHub's own documentation examples, sent unchanged against DataHub's bootstrap_mce.json, with the
// answers the docs show (reference/datahub.md §7). Skipped when that file is not beside the project.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { DOCS_UPDATE_DATASET } from './fixtures/datahub-docs.ts';
import { SMOKE_KAFKA, SMOKE_KAFKA_FIELD, SMOKE_KAFKA_SCHEMA } from './fixtures/datahub-records.ts';
import { BOOTSTRAP, bootstrapAvailable, startTestServer, type TestServer } from './fixtures/server.ts';

const DELETED = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';
const CREATED = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const SMOKE = SMOKE_KAFKA;
const SMOKE_FIELD = SMOKE_KAFKA_FIELD;

// The smoke test's own dataset, as its fixture ingests it: one Kafka v2 field that already carries an
// editable field info (from an earlier tag add) without a description.
const SMOKE_RECORDS: JsonValue[] = [
  SMOKE_KAFKA_SCHEMA,
  {
    entityType: 'dataset',
    entityUrn: SMOKE,
    changeType: 'UPSERT',
    aspectName: 'editableSchemaMetadata',
    aspect: {
      json: {
        editableSchemaFieldInfo: [{ fieldPath: SMOKE_FIELD, globalTags: { tags: [{ tag: 'urn:li:tag:Legacy' }] } }],
      },
    },
  },
];

const docs = suite<{ hub: TestServer }>('DataHub docs against bootstrap_mce.json');
const available = bootstrapAvailable('DataHub docs against bootstrap_mce.json');

docs.before(async (context) => {
  if (available) context.hub = await startTestServer({ seed: [BOOTSTRAP, SMOKE_RECORDS] });
});
docs.after(async ({ hub }) => hub?.close());

function test(name: string, body: (context: { hub: TestServer }) => Promise<void>): void {
  if (available) docs(name, body);
}

test('descriptions.md: reads a dataset description', async ({ hub }) => {
  const reply = await hub.gql(`query {
  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)") {
    properties {
      description
    }
  }
}`);
  assert.equal(reply.json, {
    data: { dataset: { properties: { description: 'table containing all the users deleted on a single day' } } },
    extensions: {},
  });
});

test('descriptions.md: reads column descriptions in schema order', async ({ hub }) => {
  const reply = await hub.gql(`query {
  dataset(urn: "${DELETED}") {
    schemaMetadata {
      fields {
        fieldPath
        description
      }
    }
  }
}`);
  assert.equal(reply.json.data.dataset.schemaMetadata.fields, [
    { fieldPath: 'user_name', description: 'Name of the user who was deleted' },
    { fieldPath: 'timestamp', description: 'Timestamp user was deleted at' },
    { fieldPath: 'user_id', description: 'Id of the user deleted' },
    { fieldPath: 'browser_id', description: 'Cookie attached to identify the browser' },
    { fieldPath: 'session_id', description: 'Cookie attached to identify the session' },
    { fieldPath: 'deletion_reason', description: 'Why the user chose to deactivate' },
  ]);
});

test("descriptions.md: the docs' curl body for the description read works as sent", async ({ hub }) => {
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
    body: '{ "query": "query { dataset(urn: \\"urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)\\") { properties { description } } }", "variables":{}}',
  });
  assert.is(reply.json.data.dataset.properties.description, 'table containing all the users deleted on a single day');
});

test('descriptions.md: updateDataset adds a description and a link given as a single object', async ({ hub }) => {
  const description =
    '## The Real Estate Sales Dataset\nThis is a really important Dataset that contains all the relevant information about sales that have happened organized by address.\n';
  const reply = await hub.gql(DOCS_UPDATE_DATASET);
  assert.equal(reply.json, { data: { updateDataset: { urn: CREATED } }, extensions: {} });
  const read =
    await hub.gql(`{ dataset(urn: "${CREATED}") { properties { description } editableProperties { description }
    institutionalMemory { elements { url label author { urn } associatedUrn } } } }`);
  const dataset = read.json.data.dataset;
  assert.is(dataset.properties.description, description);
  assert.is(dataset.editableProperties.description, description);
  // The ingested "Sample doc" link stays; the new one is added (the specification's rule 3).
  assert.equal(dataset.institutionalMemory.elements, [
    {
      url: 'https://www.linkedin.com',
      label: 'Sample doc',
      author: { urn: 'urn:li:corpuser:jdoe' },
      associatedUrn: CREATED,
    },
    {
      url: 'https://wikipedia.com/real_estate',
      label: 'This is the definition of what real estate means',
      author: { urn: 'urn:li:corpuser:jdoe' },
      associatedUrn: CREATED,
    },
  ]);
});

test('descriptions.md: updateDescription sets a column description, plain and as a block string', async ({ hub }) => {
  const plain = await hub.gql(`mutation updateDescription {
  updateDescription(
    input: {
      description: "Name of the user who was deleted. This description is updated via GrpahQL.",
      resourceUrn:"${DELETED}",
      subResource: "user_name",
      subResourceType:DATASET_FIELD
    }
  )
}`);
  assert.equal(plain.json, { data: { updateDescription: true }, extensions: {} });
  const block = await hub.gql(`mutation updateDescription {
  updateDescription(
    input: {
      description: """
      ### User Name
      The \`user_name\` column is a primary key column that contains the name of the user who was deleted.
      """,
      resourceUrn:"${DELETED}",
      subResource: "user_name",
      subResourceType:DATASET_FIELD
    }
  )
}`);
  assert.equal(block.json, { data: { updateDescription: true }, extensions: {} });
  const read = await hub.gql(
    `{ dataset(urn: "${DELETED}") { schemaMetadata { fields { fieldPath description } } editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } } } }`,
  );
  const expected =
    '### User Name\nThe `user_name` column is a primary key column that contains the name of the user who was deleted.';
  assert.equal(read.json.data.dataset.schemaMetadata.fields[0], { fieldPath: 'user_name', description: expected });
  assert.equal(read.json.data.dataset.schemaMetadata.fields[1], {
    fieldPath: 'timestamp',
    description: 'Timestamp user was deleted at',
  });
  assert.equal(read.json.data.dataset.editableSchemaMetadata.editableSchemaFieldInfo, [
    { fieldPath: 'user_name', description: expected },
  ]);
});

test('tags.md: createTag with an id returns urn:li:tag:<id> and stores name and description', async ({ hub }) => {
  const reply = await hub.gql(`mutation createTag {
    createTag(input:
    {
      name: "Deprecated",
      id: "deprecated",
      description: "Having this tag means this column or table is deprecated."
    })
}`);
  assert.equal(reply.json, { data: { createTag: 'urn:li:tag:deprecated' }, extensions: {} });
  const tag = await hub.gql('{ tag(urn: "urn:li:tag:deprecated") { name properties { name description } } }');
  assert.equal(tag.json.data.tag, {
    name: 'deprecated',
    properties: { name: 'Deprecated', description: 'Having this tag means this column or table is deprecated.' },
  });
});

test('how-to-set-up-graphql.md: createTag without an id returns a uuid urn', async ({ hub }) => {
  const reply = await hub.gql(`mutation createTag {
    createTag(input:
    {
      name: "Deprecated",
      description: "Having this tag means this column or table is deprecated."
    })
}`);
  assert.match(reply.json.data.createTag, /^urn:li:tag:[0-9a-f-]{36}$/);
});

test('tags.md: reads the Legacy tag on SampleHiveDataset', async ({ hub }) => {
  const reply = await hub.gql(`query {
  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)") {
    tags { tags { tag { name urn properties { description colorHex } } } }
  }
}`);
  assert.equal(reply.json, {
    data: {
      dataset: {
        tags: {
          tags: [
            {
              tag: {
                name: 'Legacy',
                urn: 'urn:li:tag:Legacy',
                properties: { description: 'Indicates the dataset is no longer supported', colorHex: null },
              },
            },
          ],
        },
      },
    },
    extensions: {},
  });
});

test('getting-started.md: properties.name falls back to the name in the urn', async ({ hub }) => {
  const reply = await hub.gql(`{
  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)") {
    urn
    properties {
        name
    }
  }
}`);
  assert.equal(reply.json.data.dataset, {
    urn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)',
    properties: { name: 'SampleKafkaDataset' },
  });
});

test('tags_and_terms_test.py: updateDescription with variables on a Kafka v2 field path', async ({ hub }) => {
  const read = `{ dataset(urn: "${SMOKE}") { editableSchemaMetadata { editableSchemaFieldInfo { description } } } }`;
  assert.equal((await hub.gql(read)).json.data.dataset.editableSchemaMetadata, {
    editableSchemaFieldInfo: [{ description: null }],
  });
  const reply = await hub.request('/api/graphql', {
    method: 'POST',
    headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }',
      variables: {
        input: {
          description: 'new description',
          resourceUrn: SMOKE,
          subResource: SMOKE_FIELD,
          subResourceType: 'DATASET_FIELD',
        },
      },
    }),
  });
  assert.equal(reply.json, { data: { updateDescription: true }, extensions: {} });
  assert.equal((await hub.gql(read)).json.data.dataset.editableSchemaMetadata, {
    editableSchemaFieldInfo: [{ description: 'new description' }],
  });
  // The field info's tag survives the description edit.
  const tags = await hub.gql(
    `{ dataset(urn: "${SMOKE}") { editableSchemaMetadata { editableSchemaFieldInfo { tags { tags { tag { urn } } } } } } }`,
  );
  assert.equal(tags.json.data.dataset.editableSchemaMetadata.editableSchemaFieldInfo[0].tags.tags, [
    { tag: { urn: 'urn:li:tag:Legacy' } },
  ]);
});

test('web-react documents: the UI-shaped reads validate and answer', async ({ hub }) => {
  const reply = await hub.gql(
    `query getDataset($urn: String!) {
  dataset(urn: $urn) {
    urn name type origin exists
    platform { urn type name properties { type displayName datasetNameDelimiter logoUrl } displayName }
    properties { name description customProperties { key value } externalUrl lastModified { time actor } }
    editableProperties { name description }
    institutionalMemory { elements { url actor { ... on CorpUser { urn username } ... on CorpGroup { urn name } } description created { actor time } associatedUrn } }
    globalTags { tags { tag { urn type name description properties { name colorHex } } associatedUrn } }
    ownership { owners { owner { ... on CorpUser { urn type username } ... on CorpGroup { urn type name } } type associatedUrn } lastModified { time } }
    schemaMetadata(version: 0) { aspectVersion createdAt datasetUrn name platformUrn version cluster hash
      platformSchema { ... on TableSchema { schema } ... on KeyValueSchema { keySchema valueSchema } }
      fields { fieldPath label jsonPath nullable description type nativeDataType recursive isPartOfKey isPartitioningKey } primaryKeys }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
  }
}`,
    { urn: DELETED },
  );
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  const dataset = reply.json.data.dataset;
  assert.is(dataset.platform.properties.displayName, 'Hive');
  assert.equal(dataset.properties.customProperties, [{ key: 'encoding', value: 'utf-8' }]);
  assert.equal(
    dataset.ownership.owners.map((owner: { owner: { urn: string } }) => owner.owner.urn),
    ['urn:li:corpuser:jdoe', 'urn:li:corpuser:datahub'],
  );
  assert.is(dataset.schemaMetadata.platformSchema.schema.startsWith('{"type":"record"'), true);
  assert.equal(dataset.schemaMetadata.primaryKeys, ['user_name']);
});

test('containers from MCPs: reads the bootstrap containers and their nesting', async ({ hub }) => {
  const reply = await hub.gql(
    '{ container(urn: "urn:li:container:SCHEMA") { properties { name description } container { urn properties { name description } } } }',
  );
  assert.equal(reply.json.data.container, {
    properties: { name: 'datahub_schema', description: 'The Root DataHub Schema' },
    container: {
      urn: 'urn:li:container:DATABASE',
      properties: { name: 'datahub_db', description: 'The Root DataHub DB' },
    },
  });
});

docs.run();
