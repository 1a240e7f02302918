// Tags the way DataHub's web app applies and reads them, with its own documents (fixtures/datahub-
// documents): a dataset and a column tagged, read back through getDataset and getDatasetSchema, removed,
// the tag deleted everywhere, the same after a restart, and a Reader refused with nothing changed.

import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { dataHubDocuments } from './fixtures/datahub-documents.ts';
import { FORBIDDEN, userWithRole } from './fixtures/datahub-records.ts';
import { SAMPLE, startTestServer, tempDataDir, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.customers,PROD)';
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';

const web = new Map(dataHubDocuments().map((document) => [document.name, document.text]));
function documentOf(name: string): string {
  const text = web.get(name);
  assert.ok(text, `no ${name} document`);
  return text;
}

async function answer(hub: TestServer, name: string, variables: Record<string, unknown>, token?: string) {
  const reply = await hub.gql(documentOf(name), variables, token);
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  return reply.json.data;
}

interface Tagged {
  tags: { tag: { urn: string } }[];
}

/**
 * The dataset's tags as the web app's getDataset reads them, and its columns' as getDatasetSchema does:
 * the ingested schema's and the edited ones, merged as the web app merges them.
 */
async function tagsOf(hub: TestServer, urn: string) {
  const page = await answer(hub, 'getDataset', { urn });
  const schema = await answer(hub, 'getDatasetSchema', { urn });
  const urns = (tagged: Tagged | null) => (tagged?.tags ?? []).map((association) => association.tag.urn);
  const columns: Record<string, string[]> = {};
  const fields = [
    ...(schema.dataset.schemaMetadata?.fields ?? []),
    ...(schema.dataset.editableSchemaMetadata?.editableSchemaFieldInfo ?? []),
  ];
  for (const field of fields) {
    const found = urns(field.globalTags);
    if (found.length > 0) columns[field.fieldPath] = [...(columns[field.fieldPath] ?? []), ...found];
  }
  return { dataset: urns(page.dataset.globalTags), columns };
}

test("the web app's documents tag, read, refuse, remove and delete, and a restart keeps it all", async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, [userWithRole('rita', 'Reader')]] });
  try {
    await answer(first, 'addTags', { input: { tagUrns: [GOLD], resourceUrn: ORDERS } });
    await answer(first, 'batchAddTags', {
      input: {
        tagUrns: [PII],
        resources: [{ resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'customer_id' }],
      },
    });
    assert.equal(await tagsOf(first, ORDERS), { dataset: [GOLD], columns: { customer_id: [PII] } });

    // A Reader who owns nothing: DataHub's 403, and the log does not grow.
    const rita = await first.createToken('rita');
    const records = first.store.recordCount;
    for (const [name, input] of [
      ['addTags', { tagUrns: [PII], resourceUrn: ORDERS }],
      ['removeTag', { tagUrn: GOLD, resourceUrn: ORDERS }],
      ['batchRemoveTags', { tagUrns: [PII], resources: [{ resourceUrn: ORDERS }] }],
    ] as const) {
      const reply = await first.gql(documentOf(name), { input }, rita);
      const [error] = reply.json.errors;
      assert.equal({ message: error.message, extensions: error.extensions }, FORBIDDEN, name);
    }
    assert.is(first.store.recordCount, records);
    assert.equal(await tagsOf(first, ORDERS), { dataset: [GOLD], columns: { customer_id: [PII] } });

    await answer(first, 'removeTag', { input: { tagUrn: GOLD, resourceUrn: ORDERS } });
    assert.equal(await tagsOf(first, ORDERS), { dataset: [], columns: { customer_id: [PII] } });
    // The sample's customers carries pii, on the dataset and in its ingested schema's email column;
    // deleting the tag clears it there too.
    assert.equal(await tagsOf(first, CUSTOMERS), { dataset: [PII], columns: { email: [PII] } });
    const deleted = await first.gql('mutation d($urn: String!) { deleteTag(urn: $urn) }', { urn: PII });
    assert.equal(deleted.json, { data: { deleteTag: true }, extensions: {} });
    assert.equal(await tagsOf(first, ORDERS), { dataset: [], columns: {} });
    assert.equal(await tagsOf(first, CUSTOMERS), { dataset: [], columns: {} });
  } finally {
    await first.close();
  }

  const second = await startTestServer({ dataDir });
  try {
    assert.equal(await tagsOf(second, ORDERS), { dataset: [], columns: {} });
    assert.equal(await tagsOf(second, CUSTOMERS), { dataset: [], columns: {} });
    // As in DataHub, a tag URN still answers a shell named from the URN, with no properties once deleted.
    const tag = await answer(second, 'getTag', { urn: PII });
    assert.equal([tag.tag.name, tag.tag.description], ['pii', null]);
    const properties = await second.gql('query t($urn: String!) { tag(urn: $urn) { properties { name } } }', {
      urn: PII,
    });
    assert.equal(properties.json.data, { tag: { properties: null } });
  } finally {
    await second.close();
  }
});

test.run();
