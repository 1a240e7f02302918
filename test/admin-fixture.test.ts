// The fixture over HTTP: POST /api/admin/reset, GET /api/admin/snapshot, POST /api/admin/restore. Who may
// call them (Admin), where reset and restore are refused (a catalogue on disk), and the round trip.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { userWithRole } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const test = suite<{ hub: InProcessHub }>('admin-fixture', {} as { hub: InProcessHub });

test.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, [userWithRole('carol', 'Reader')]] });
});
test.after.each(async ({ hub }) => {
  await hub.close();
});

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const describe = (text: string) =>
  `mutation { updateDescription(input: {description: ${JSON.stringify(text)}, resourceUrn: ${JSON.stringify(DATASET)}}) }`;

function call(hub: InProcessHub, method: string, name: string, token: string | null = hub.token, body?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return hub.request(`/api/admin/${name}`, { method, headers, body });
}

const description = (hub: InProcessHub) =>
  (hub.store.catalogue.aspect(DATASET, 'editableDatasetProperties') as { description?: string } | undefined)
    ?.description;

test('POST /api/admin/reset takes a memory catalogue back to its seeds', async ({ hub }) => {
  const seeded = hub.store.export();
  assert.is((await hub.gql(describe('edited'))).json.data.updateDescription, true);
  assert.is(description(hub), 'edited');
  const reply = await call(hub, 'POST', 'reset');
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.json.reset, true);
  assert.is(description(hub), undefined);
  assert.equal(hub.store.export(), seeded);
});

test('the admin endpoints are for Admins: 401 without a token, 403 for a Reader, 405 for the wrong method', async ({
  hub,
}) => {
  const reader = await hub.createToken('carol');
  for (const [method, name] of [
    ['POST', 'reset'],
    ['GET', 'snapshot'],
    ['POST', 'restore'],
  ] as const) {
    assert.is((await call(hub, method, name, null, '[]')).status, 401, name);
    const refused = await call(hub, method, name, reader, '[]');
    assert.is(refused.status, 403, name);
    assert.match(refused.json.errors[0].message, /Unauthorized/);
  }
  await hub.gql(describe('kept'));
  assert.is(description(hub), 'kept');
  const wrong = await call(hub, 'GET', 'reset');
  assert.is(wrong.status, 405);
  assert.is(wrong.headers.get('allow'), 'POST');
  assert.is((await call(hub, 'GET', 'nothing')).status, 404);
});

test('GET /api/admin/snapshot is what export writes; POST /api/admin/restore puts it back', async ({ hub }) => {
  await hub.gql(describe('snapshotted'));
  const snapshot = await call(hub, 'GET', 'snapshot');
  assert.is(snapshot.status, 200, snapshot.text);
  assert.equal(snapshot.json, hub.store.export());
  assert.ok(snapshot.text.startsWith('[\n{\n    "entityType"'), 'indented as DataHub file sink writes');

  await hub.gql(describe('changed later'));
  assert.ok((await call(hub, 'POST', 'reset')).status === 200);
  const restored = await call(hub, 'POST', 'restore', hub.token, snapshot.text);
  assert.is(restored.status, 200, restored.text);
  assert.is(description(hub), 'snapshotted');
  assert.equal(hub.store.export(), snapshot.json);
  // The edit is readable over GraphQL at once.
  const read = await hub.gql(`{ dataset(urn: ${JSON.stringify(DATASET)}) { editableProperties { description } } }`);
  assert.is(read.json.data.dataset.editableProperties.description, 'snapshotted');
});

test('the snapshot leaves secrets out: password hashes and DataHub secret values never leave', async ({ hub }) => {
  const user = 'urn:li:corpuser:datahub';
  const proposal = {
    entityType: 'corpuser',
    entityUrn: user,
    changeType: 'UPSERT',
    aspectName: 'corpUserCredentials',
    aspect: { contentType: 'application/json', value: JSON.stringify({ hashedPassword: 'HASH', salt: 'SALT' }) },
  };
  const ingested = await hub.request('/aspects?action=ingestProposal', {
    method: 'POST',
    headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ proposal }),
  });
  assert.is(ingested.status, 200, ingested.text);
  const snapshot = await call(hub, 'GET', 'snapshot');
  assert.is(snapshot.status, 200);
  assert.not.ok(snapshot.text.includes('corpUserCredentials'), 'no credentials aspect');
  assert.not.ok(snapshot.text.includes('HASH'), 'no password hash');
});

test('a restore body with a bad record, or one that is not a DataHub file, replaces nothing', async ({ hub }) => {
  const before = hub.store.export();
  const bad = JSON.stringify([
    {
      entityType: 'tag',
      entityUrn: 'urn:li:tag:ok',
      changeType: 'UPSERT',
      aspectName: 'tagProperties',
      aspect: { json: { name: 'ok' } },
    },
    {
      entityType: 'tag',
      entityUrn: 'not a urn',
      changeType: 'UPSERT',
      aspectName: 'tagProperties',
      aspect: { json: {} },
    },
  ]);
  const refused = await call(hub, 'POST', 'restore', hub.token, bad);
  assert.is(refused.status, 422);
  assert.match(refused.json.errors[0].message, /not replaced: 1 of 2 records cannot be read \(record 2: /);
  const notJson = await call(hub, 'POST', 'restore', hub.token, '{"oops":');
  assert.is(notJson.status, 400);
  assert.equal(hub.store.export(), before);
});

test('over a real server: reset and restore are refused on a data directory, saying --memory allows them; snapshot streams', async () => {
  const onDisk = await startTestServer({ dataDir: tempDataDir(), seed: [SAMPLE] });
  const memory = await startTestServer({ seed: [SAMPLE] });
  try {
    const headers = { Authorization: `Bearer ${onDisk.token}`, 'Content-Type': 'application/json' };
    for (const name of ['reset', 'restore']) {
      const reply = await onDisk.request(`/api/admin/${name}`, { method: 'POST', headers, body: '[]' });
      assert.is(reply.status, 403, name);
      assert.match(reply.json.errors[0].message, /only on a server started with --memory/);
    }
    assert.ok(onDisk.store.catalogue.entityCount > 0);
    const snapshot = await onDisk.request('/api/admin/snapshot', { headers });
    assert.is(snapshot.status, 200);
    assert.is(snapshot.headers.get('content-length'), null, 'streamed, not sent whole');
    assert.equal(snapshot.json, onDisk.store.export());

    // The snapshot of one server restored into another: the same catalogue.
    const restored = await memory.request('/api/admin/restore', {
      method: 'POST',
      headers: { Authorization: `Bearer ${memory.token}`, 'Content-Type': 'application/json' },
      body: snapshot.text,
    });
    assert.is(restored.status, 200, restored.text);
    assert.equal(memory.store.export(), onDisk.store.export());
  } finally {
    await onDisk.close();
    await memory.close();
  }
});

test.run();
