// The documents DataHub's own clients send (its web app's pages and mutations, its smoke tests, its
// tags and descriptions tutorials, its Python SDK), kept verbatim in fixtures/datahub-documents/: each
// validates against minihub's schema, and each answers with no errors over bootstrap_mce.json and the
// sample, in an order that lets every mutation find what it changes.

import { parse, validate } from 'graphql';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { minihubSchema } from '../src/graphql/schema.ts';
import { dataHubDocuments, type DataHubDocument } from './fixtures/datahub-documents.ts';
import { mcp, SMOKE_KAFKA_SCHEMA } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { BOOTSTRAP, bootstrapAvailable, SAMPLE } from './fixtures/server.ts';

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const SCHEMA = 'urn:li:container:SCHEMA';
const LEGACY = 'urn:li:tag:Legacy';
const TEST_TAG = 'urn:li:tag:Test';
// The smoke tests name their entities with a random run id; here it is fixed.
const RUN_ID = 'minihub';

// What the smoke tests' own fixtures ingest before they send their documents, in DataHub's file format.
const SMOKE_FIXTURE: JsonValue[] = [
  mcp(LEGACY, 'tagProperties', { name: 'Legacy' }),
  mcp(TEST_TAG, 'tagProperties', { name: 'Test' }),
  mcp('urn:li:container:DATABASE', 'containerProperties', { name: 'DATABASE' }),
  mcp(SCHEMA, 'containerProperties', { name: 'SCHEMA' }),
  mcp(SCHEMA, 'container', { container: 'urn:li:container:DATABASE' }),
  mcp(HIVE, 'container', { container: SCHEMA }),
  SMOKE_KAFKA_SCHEMA,
  mcp(`urn:li:dataset:(urn:li:dataPlatform:kafka,timeline-test-${RUN_ID},PROD)`, 'status', { removed: false }),
  ...['a', 'b', 'c'].map((letter) =>
    mcp(`urn:li:container:batching_${letter}_${RUN_ID}`, 'containerProperties', { name: letter }),
  ),
  // As the batching smoke test ingests them: two datasets in a, three in b, none in c.
  ...['a1', 'a2', 'b1', 'b2', 'b3'].map((name) =>
    mcp(`urn:li:dataset:(urn:li:dataPlatform:hive,batching_${RUN_ID}_${name},PROD)`, 'container', {
      container: `urn:li:container:batching_${name[0]}_${RUN_ID}`,
    }),
  ),
];

// What the smoke tests assert of their answers, where they assert more than "no errors": path -> value.
const EXPECTED: Record<string, Record<string, unknown>> = {
  'smoke-container-entities-batched-counts': { 'a.entities.total': 2, 'b.entities.total': 3, 'c.entities.total': 0 },
  'smoke-container-entities-direct': { 'container.entities.total': 3 },
  'smoke-container-entities-filtered': { 'datasets.entities.total': 3, 'charts.entities.total': 0 },
  'smoke-container-parent-of-dataset': { 'dataset.container.urn': SCHEMA },
  // Four hive datasets of bootstrap_mce.json match "sample" (a name, link labels); the facet filter keeps hive only.
  getSearchResultsForMultiple: { 'searchAcrossEntities.total': 4 },
};

/** The value at a dotted path of an answer, or undefined. */
function at(data: unknown, path: string): unknown {
  let value = data;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value;
}

// Variables for the web app's operations (their source passes them at run time), on the entities above.
const WEB_APP_VARIABLES: Record<string, Record<string, unknown>> = {
  getDataset: { urn: HIVE },
  getDatasetSchema: { urn: HIVE },
  getContainer: { urn: SCHEMA },
  getTag: { urn: LEGACY },
  updateTag: { urn: LEGACY, input: { urn: LEGACY, name: 'Legacy', description: 'Kept for old clients' } },
  getMe: {},
  getUser: { urn: 'urn:li:corpuser:datahub', groupsCount: 20 },
  listAccessTokens: {
    input: { start: 0, count: 10, filters: [{ field: 'ownerUrn', values: ['urn:li:corpuser:datahub'] }] },
  },
  addTag: { input: { tagUrn: LEGACY, resourceUrn: HIVE } },
  addTags: {
    input: {
      tagUrns: [LEGACY, TEST_TAG],
      resourceUrn: HIVE,
      subResource: 'field_foo',
      subResourceType: 'DATASET_FIELD',
    },
  },
  batchAddTags: { input: { tagUrns: [TEST_TAG], resources: [{ resourceUrn: HIVE }, { resourceUrn: SCHEMA }] } },
  removeTag: { input: { tagUrn: LEGACY, resourceUrn: HIVE } },
  batchRemoveTags: { input: { tagUrns: [TEST_TAG], resources: [{ resourceUrn: HIVE }] } },
  addLink: { input: { linkUrl: 'https://example.com/runbook', label: 'Runbook', resourceUrn: HIVE } },
  updateLink: {
    input: {
      currentUrl: 'https://example.com/runbook',
      currentLabel: 'Runbook',
      linkUrl: 'https://example.com/runbook-v2',
      label: 'Runbook v2',
      resourceUrn: HIVE,
    },
  },
  removeLink: { input: { linkUrl: 'https://example.com/runbook-v2', resourceUrn: HIVE } },
  updateDescription: {
    input: {
      description: 'The foo column',
      resourceUrn: HIVE,
      subResourceType: 'DATASET_FIELD',
      subResource: 'field_foo',
    },
  },
  setTagColor: { urn: TEST_TAG, colorHex: '#0077b6' },
  // A restore, which leaves the later documents' entities as they are: DataHub's checks run all the same.
  batchUpdateSoftDeleted: { input: { urns: [HIVE, SCHEMA], deleted: false } },
  getTimeline: { input: { urn: HIVE, changeCategories: ['DOCUMENTATION', 'TAG'] } },
  // As the web app's search page sends it: a query, a page, and its facet filters.
  getSearchResultsForMultiple: {
    input: {
      types: [],
      query: 'sample',
      start: 0,
      count: 10,
      orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }],
    },
  },
  getAutoCompleteMultipleResults: { input: { types: [], query: 'fct', limit: 10 } },
};

// Every document, in the order sent: reads first, then each mutation before what reads its effect.
const ORDER = [
  'getDataset',
  'getDatasetSchema',
  'getContainer',
  'getTag',
  'getMe',
  'getUser',
  'listAccessTokens',
  'smoke-me',
  'smoke-corpuser-info',
  'smoke-corpuser-properties',
  'smoke-corpuser-group-relationships',
  'smoke-container-full',
  'smoke-container-parent-of-dataset',
  'smoke-container-entities-batched-counts',
  'smoke-container-entities-direct',
  'smoke-container-entities-filtered',
  'smoke-container-add-tag',
  'smoke-container-add-link',
  'smoke-container-update-description',
  'smoke-container-after-update',
  'smoke-tt-add-tag',
  'smoke-tt-dataset-globaltags',
  'smoke-tt-remove-tag',
  'smoke-tt-schemafield-add-tag',
  'smoke-tt-schemafield-tags',
  'smoke-tt-schemafield-remove-tag',
  'smoke-tt-schemafield-update-description',
  'smoke-tt-schemafield-description',
  'smoke-timeline-get-timeline',
  'getTimeline',
  'getSearchResultsForMultiple',
  'getAutoCompleteMultipleResults',
  'updateTag',
  'addTag',
  'addTags',
  'batchAddTags',
  'removeTag',
  'batchRemoveTags',
  'setTagColor',
  'batchUpdateSoftDeleted',
  'addLink',
  'updateLink',
  'removeLink',
  'updateDescription',
  'tutorial-tags-create-tag',
  'tutorial-tags-add-tags-dataset',
  'tutorial-tags-add-tags-column',
  'tutorial-tags-read-tags',
  'tutorial-tags-remove-tag',
  'sdk-create-tag',
  'sdk-remove-tag',
  'sdk-scroll-across-entities',
  'tutorial-desc-read-dataset-description',
  'tutorial-desc-read-column-descriptions',
  'tutorial-desc-update-dataset-description-and-link',
  'tutorial-desc-update-column-description',
  'tutorial-desc-update-column-description-markdown',
];

const documents = new Map(dataHubDocuments().map((document) => [document.name, document]));

const validation = suite("DataHub's client documents validate against minihub's schema");

validation('every kept document is sent by the run below, and nothing else', () => {
  assert.equal([...ORDER].sort(), [...documents.keys()].sort());
});

for (const document of documents.values()) {
  validation(`${document.name} (${document.source})`, () => {
    const errors = validate(minihubSchema(), parse(document.text)).map((error) => error.message);
    assert.equal(errors, []);
  });
}

validation.run();

const run = suite<{ hub: InProcessHub }>("DataHub's client documents answer without errors");
const available = bootstrapAvailable("DataHub's client documents answer without errors");

run.before(async (context) => {
  if (available) context.hub = await openInProcess({ seed: [BOOTSTRAP, SAMPLE, SMOKE_FIXTURE] });
});
run.after(async ({ hub }) => hub?.close());

function variablesOf(document: DataHubDocument): Record<string, unknown> | undefined {
  const variables = WEB_APP_VARIABLES[document.name] ?? document.variables;
  return (
    variables && JSON.parse(JSON.stringify(variables).replaceAll('<RUN_ID>', RUN_ID).replaceAll('<UNIQUE>', RUN_ID))
  );
}

if (available) {
  for (const name of ORDER) {
    run(`${name} answers with data and no errors`, async ({ hub }) => {
      const document = documents.get(name) as DataHubDocument;
      const reply = await hub.gql(document.text, variablesOf(document));
      assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors)?.slice(0, 600));
      assert.ok(reply.json.data, 'the answer carries data');
      for (const [path, value] of Object.entries(EXPECTED[name] ?? {}))
        assert.equal(at(reply.json.data, path), value, path);
    });
  }
}

run.run();
