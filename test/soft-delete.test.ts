// DataHub's soft delete, batchUpdateSoftDeleted: removed and restored entities read with their status, search
// leaves them out unless asked, refusals (a Reader, a missing URN, a bad or oversized input) write nothing,
// and a REST hard delete reads as a URN never stored. In process, except the restart, which needs a data directory.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { MAX_SOFT_DELETE_URNS } from '../src/resolvers/soft-delete.ts';
import { dataOf, FORBIDDEN, sdkHeaders, type Gql } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.customers,PROD)';
const SHOP_DB = 'urn:li:container:shop_db';
const GOLD = 'urn:li:tag:gold';
const NEVER = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.never_stored,PROD)';

const SOFT_DELETE = 'mutation s($input: BatchUpdateSoftDeletedInput!) { batchUpdateSoftDeleted(input: $input) }';
const DATASET = `query d($urn: String!) { dataset(urn: $urn) {
  urn exists name properties { name } status { removed } container { urn } } }`;
const CONTAINER = 'query c($urn: String!) { container(urn: $urn) { urn properties { name } status { removed } } }';
const TAG = 'query t($urn: String!) { tag(urn: $urn) { urn properties { name } } }';
const SEARCH = `query s($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }`;

const softDelete = (hub: Gql, urns: string[], deleted: boolean, token?: string) =>
  hub.gql(SOFT_DELETE, { input: { urns, deleted } }, token);

const removedOf = async (hub: Gql, urn: string) => (await dataOf(hub, DATASET, { urn })).dataset.status?.removed;

/** The URNs search answers among ORDERS, CUSTOMERS and SHOP_DB for "*" over datasets and containers. */
async function found(hub: Gql, extra: Record<string, unknown> = {}): Promise<string[]> {
  const input = { types: ['DATASET', 'CONTAINER'], query: '*', count: 100, ...extra };
  const { searchAcrossEntities } = await dataOf(hub, SEARCH, { input });
  const urns: string[] = searchAcrossEntities.searchResults.map(
    (entry: { entity: { urn: string } }) => entry.entity.urn,
  );
  return urns.filter((urn) => [ORDERS, CUSTOMERS, SHOP_DB].includes(urn)).sort();
}

const ALL = [CUSTOMERS, ORDERS, SHOP_DB].sort();
const INCLUDE = { searchFlags: { includeSoftDeleted: true } };
const REMOVED_FILTER = { orFilters: [{ and: [{ field: 'removed', values: ['true'] }] }] };

type Context = { hub: InProcessHub; bob: string; carol: string };

const test = suite<Context>('batchUpdateSoftDeleted');
test.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE] });
  context.bob = await context.hub.createToken('bob'); // Editor
  context.carol = await context.hub.createToken('carol'); // Reader
});
test.after.each(async ({ hub }) => {
  assert.equal(hub.errors, []);
  await hub.close();
});

test('an Editor soft deletes datasets and a container in one commit; they still read, with status removed', async ({
  hub,
  bob,
}) => {
  const records = hub.store.recordCount;
  const reply = await softDelete(hub, [ORDERS, CUSTOMERS, SHOP_DB], true, bob);
  assert.equal(reply.json, { data: { batchUpdateSoftDeleted: true }, extensions: {} });
  assert.is(hub.store.recordCount, records + 1);
  // As DataHub: the entity is still answered whole, and exists (its existence counts soft-deleted ones).
  const { dataset } = await dataOf(hub, DATASET, { urn: CUSTOMERS });
  assert.equal(dataset, {
    urn: CUSTOMERS,
    exists: true,
    name: 'customers',
    properties: { name: 'customers' },
    status: { removed: true },
    container: { urn: SHOP_DB },
  });
  assert.is(await removedOf(hub, ORDERS), true);
  const { container } = await dataOf(hub, CONTAINER, { urn: SHOP_DB });
  assert.equal(container.status, { removed: true });
  assert.ok(container.properties.name);
  // Removing them again changes nothing and writes nothing.
  assert.equal((await softDelete(hub, [ORDERS, SHOP_DB], true, bob)).json.data, { batchUpdateSoftDeleted: true });
  assert.is(hub.store.recordCount, records + 1);
});

test('restore sets removed to false, only where it changes something', async ({ hub, bob }) => {
  await dataOf(hub, SOFT_DELETE, { input: { urns: [ORDERS, SHOP_DB], deleted: true } }, bob);
  const records = hub.store.recordCount;
  // CUSTOMERS was never removed: restoring it writes nothing for it (its status stays absent).
  await dataOf(hub, SOFT_DELETE, { input: { urns: [ORDERS, SHOP_DB, CUSTOMERS], deleted: false } }, bob);
  assert.is(hub.store.recordCount, records + 1);
  assert.is(await removedOf(hub, ORDERS), false);
  assert.is(await removedOf(hub, CUSTOMERS), undefined);
  assert.equal((await dataOf(hub, CONTAINER, { urn: SHOP_DB })).container.status, { removed: false });
  assert.equal(await found(hub), ALL);
});

test('search leaves soft-deleted entities out, unless includeSoftDeleted or a filter on removed', async ({
  hub,
  bob,
}) => {
  assert.equal(await found(hub), ALL);
  await dataOf(hub, SOFT_DELETE, { input: { urns: [ORDERS, SHOP_DB], deleted: true } }, bob);
  assert.equal(await found(hub), [CUSTOMERS]);
  assert.equal(await found(hub, INCLUDE), ALL);
  assert.equal(await found(hub, REMOVED_FILTER), [ORDERS, SHOP_DB].sort());
});

test("a container's entities leave soft-deleted children out, as DataHub's search does", async ({ hub, bob }) => {
  const query =
    'query c($urn: String!) { container(urn: $urn) { entities { total searchResults { entity { urn } } } } }';
  const children = async () => {
    const { entities } = (await dataOf(hub, query, { urn: SHOP_DB })).container;
    return {
      total: entities.total,
      urns: entities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn),
    };
  };
  assert.equal(await children(), { total: 2, urns: [ORDERS, CUSTOMERS] });
  await dataOf(hub, SOFT_DELETE, { input: { urns: [ORDERS], deleted: true } }, bob);
  assert.equal(await children(), { total: 1, urns: [CUSTOMERS] });
  await dataOf(hub, SOFT_DELETE, { input: { urns: [ORDERS], deleted: false } }, bob);
  assert.equal(await children(), { total: 2, urns: [ORDERS, CUSTOMERS] });
});

test('a removed tag still reads, as DataHub answers it (its Tag type has no status)', async ({ hub, bob }) => {
  await dataOf(hub, SOFT_DELETE, { input: { urns: [GOLD], deleted: true } }, bob);
  assert.equal((await dataOf(hub, TAG, { urn: GOLD })).tag, { urn: GOLD, properties: { name: 'gold' } });
  const input = { types: ['TAG'], query: 'gold' };
  assert.is((await dataOf(hub, SEARCH, { input })).searchAcrossEntities.total, 0);
  assert.is((await dataOf(hub, SEARCH, { input: { ...input, ...INCLUDE } })).searchAcrossEntities.total, 1);
});

test("a Reader is refused with DataHub's 403 and nothing is written", async ({ hub, carol }) => {
  const records = hub.store.recordCount;
  // The privilege comes before existence, so a missing URN tells a Reader nothing either.
  for (const urns of [[ORDERS, SHOP_DB], [NEVER]]) {
    const reply = await softDelete(hub, urns, true, carol);
    assert.equal(reply.json.data, { batchUpdateSoftDeleted: null });
    assert.equal(reply.json.errors?.[0]?.message, FORBIDDEN.message);
    assert.equal(reply.json.errors?.[0]?.extensions, FORBIDDEN.extensions);
  }
  assert.is(hub.store.recordCount, records);
  assert.is(await removedOf(hub, ORDERS), false);
  assert.equal(await found(hub), ALL);
});

test('a missing URN refuses the whole batch with DataHub 400, and nothing is written', async ({ hub, bob }) => {
  const records = hub.store.recordCount;
  const reply = await softDelete(hub, [ORDERS, NEVER, SHOP_DB], true, bob);
  const error = reply.json.errors?.[0];
  assert.is(error?.message, `Failed to soft delete entity with urn ${NEVER}. Entity does not exist.`);
  assert.equal(error?.extensions, { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' });
  assert.is(hub.store.recordCount, records);
  assert.is(await removedOf(hub, ORDERS), false);
  assert.equal(await found(hub), ALL);
});

test('a malformed or oversized URN and too many URNs are a 400 before anything is read', async ({ hub }) => {
  const records = hub.store.recordCount;
  const long = `urn:li:tag:${'x'.repeat(600)}`;
  const many = Array.from({ length: MAX_SOFT_DELETE_URNS + 1 }, (_, i) => `urn:li:tag:t${i}`);
  const cases: [string[], string][] = [
    [[ORDERS, 'not a urn'], 'not a urn'],
    [[long], 'characters long'],
    [many, `the limit is ${MAX_SOFT_DELETE_URNS}`],
  ];
  for (const [urns, message] of cases) {
    const error = (await softDelete(hub, urns, true)).json.errors?.[0];
    assert.ok(error?.message.includes(message), `${JSON.stringify(error)?.slice(0, 300)} should say ${message}`);
    assert.is(error.extensions.code, 400);
  }
  assert.is(hub.store.recordCount, records);
});

test('removing a user needs MANAGE_USERS_AND_GROUPS: an Editor is refused, an Admin ends its tokens', async ({
  hub,
  bob,
  carol,
}) => {
  const carolUrn = 'urn:li:corpuser:carol';
  const refused = await softDelete(hub, [carolUrn], true, bob);
  assert.equal(refused.json.errors?.[0]?.extensions, FORBIDDEN.extensions);
  assert.is((await hub.gql('{ me { corpUser { urn } } }', {}, carol)).status, 200);
  await dataOf(hub, SOFT_DELETE, { input: { urns: [carolUrn], deleted: true } });
  assert.is((await hub.gql('{ me { corpUser { urn } } }', {}, carol)).status, 401);
});

test('a REST hard delete reads as a URN never stored; soft deleting it then is a 400', async ({ hub }) => {
  const deleted = await hub.request('/entities?action=delete', {
    method: 'POST',
    headers: sdkHeaders(hub.token),
    body: JSON.stringify({ urn: CUSTOMERS }),
  });
  assert.is(deleted.status, 200, deleted.text);
  const gone = (await dataOf(hub, DATASET, { urn: CUSTOMERS })).dataset;
  const never = (await dataOf(hub, DATASET, { urn: NEVER })).dataset;
  const blank = { exists: false, properties: null, status: null, container: null };
  assert.equal(gone, { ...blank, urn: CUSTOMERS, name: 'shop.public.customers' });
  assert.equal(never, { ...blank, urn: NEVER, name: 'shop.public.never_stored' });
  assert.equal(await found(hub, INCLUDE), [ORDERS, SHOP_DB].sort());
  const error = (await softDelete(hub, [CUSTOMERS], false)).json.errors?.[0];
  assert.is(error?.message, `Failed to soft delete entity with urn ${CUSTOMERS}. Entity does not exist.`);
});

test.run();

const restart = suite('batchUpdateSoftDeleted after a restart');

restart('soft deleted and restored entities read and search the same once the store is reopened', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  try {
    await dataOf(first, SOFT_DELETE, { input: { urns: [ORDERS, CUSTOMERS, SHOP_DB], deleted: true } });
    await dataOf(first, SOFT_DELETE, { input: { urns: [CUSTOMERS], deleted: false } });
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  try {
    assert.is(await removedOf(second, ORDERS), true);
    assert.is(await removedOf(second, CUSTOMERS), false);
    assert.equal((await dataOf(second, CONTAINER, { urn: SHOP_DB })).container.status, { removed: true });
    assert.equal((await dataOf(second, DATASET, { urn: ORDERS })).dataset.exists, true);
    assert.equal(await found(second), [CUSTOMERS]);
    assert.equal(await found(second, INCLUDE), ALL);
  } finally {
    await second.close();
  }
});

restart.run();
