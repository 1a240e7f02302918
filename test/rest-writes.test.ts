// DataHub's REST writes as its Python SDK sends them (headers, aspect.value as a JSON string, batches of 100,
// run reports), in process through the pure handler: what is written, what is answered, and that refused
// input writes nothing.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import {
  runReportProposals,
  sdkDatasetProposals,
  sdkDatasetUrn,
  sdkHeaders,
  sdkProposal,
  userWithRole,
} from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';

const test = suite<{ hub: InProcessHub }>('rest-writes', {} as { hub: InProcessHub });

test.before.each(async (context) => {
  context.hub = await openInProcess({
    seed: [[userWithRole('alice', 'Admin'), userWithRole('bob', 'Editor'), userWithRole('carol', 'Reader')]],
  });
});
test.after.each(async ({ hub }) => {
  await hub.close();
});

function post(hub: InProcessHub, path: string, body: unknown, token: string | null = hub.token) {
  return hub.request(path, { method: 'POST', headers: sdkHeaders(token), body: JSON.stringify(body) });
}
const one = (hub: InProcessHub, proposal: unknown, token?: string | null) =>
  post(hub, '/aspects?action=ingestProposal', { proposal, async: 'false' }, token);
const batch = (hub: InProcessHub, proposals: unknown[], token?: string | null) =>
  post(hub, '/aspects?action=ingestProposalBatch', { proposals, async: 'true' }, token);

/** The Rest.li error the SDK reads: status, a message matching `message`, the error header. */
function assertRestliError(reply: Awaited<ReturnType<typeof post>>, status: number, message: RegExp) {
  assert.is(reply.status, status, reply.text);
  assert.is(reply.headers.get('x-restli-error-response'), 'true');
  assert.is(reply.json.status, status);
  assert.is(reply.json.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException');
  assert.match(reply.json.message, message);
  assert.is(reply.json.stackTrace, undefined);
}

test('ingestProposal as the SDK sends it writes each aspect and answers {"value": "success"}', async ({ hub }) => {
  const before = hub.store.recordCount;
  for (const proposal of sdkDatasetProposals(1)) {
    const reply = await one(hub, proposal);
    assert.is(reply.status, 200, reply.text);
    assert.equal(reply.json, { value: 'success' });
    assert.is(reply.headers.get('x-restli-protocol-version'), '2.0.0');
  }
  assert.is(hub.store.recordCount, before + 3);
  const urn = sdkDatasetUrn(1);
  const schema = hub.store.catalogue.aspect(urn, 'schemaMetadata') as { platformSchema: unknown };
  assert.equal(schema.platformSchema, { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } });
  assert.equal(hub.store.catalogue.aspect(urn, 'globalTags'), { tags: [{ tag: 'urn:li:tag:restli' }] });
});

test('a batch of 100 proposals (datasets and a run report) is one commit, and sent again writes nothing', async ({
  hub,
}) => {
  const proposals = [
    ...Array.from({ length: 33 }, (_, i) => sdkDatasetProposals(i)).flat(),
    runReportProposals('r1')[0],
  ];
  assert.is(proposals.length, 100);
  const before = hub.store.recordCount;
  const reply = await batch(hub, proposals);
  assert.is(reply.status, 200, reply.text);
  assert.equal(reply.json, { value: 'success' });
  assert.is(hub.store.recordCount, before + 1);
  assert.ok(hub.store.catalogue.aspect(sdkDatasetUrn(32), 'datasetProperties'));
  const again = await batch(hub, proposals);
  assert.is(again.status, 200);
  assert.is(hub.store.recordCount, before + 1);
});

test('run-report entities and the telemetry aspect are accepted and kept', async ({ hub }) => {
  const reply = await batch(hub, runReportProposals('file-2024_01_01-00_00_00-abc'));
  assert.is(reply.status, 200, reply.text);
  const request = 'urn:li:dataHubExecutionRequest:file-2024_01_01-00_00_00-abc';
  assert.is(
    (hub.store.catalogue.aspect(request, 'dataHubExecutionRequestResult') as { status: string }).status,
    'SUCCESS',
  );
  const telemetry = await one(hub, sdkProposal('urn:li:telemetry:clientId', 'telemetryClientId', { clientId: 'abc' }));
  assert.is(telemetry.status, 200, telemetry.text);
  assert.equal(hub.store.catalogue.aspect('urn:li:telemetry:clientId', 'telemetryClientId'), { clientId: 'abc' });
});

test('no token, a bad token, a Reader and an Editor are refused, and nothing is written', async ({ hub }) => {
  const tokens = { carol: await hub.createToken('carol'), bob: await hub.createToken('bob') };
  const before = hub.store.recordCount;
  const [proposal] = sdkDatasetProposals(1);
  assertRestliError(await one(hub, proposal, null), 401, /token/i);
  assert.is((await one(hub, proposal, null)).headers.get('www-authenticate'), 'Bearer realm="minihub"');
  assertRestliError(await one(hub, proposal, 'not-a-token'), 401, /token/i);
  for (const user of ['carol', 'bob'] as const) {
    const reply = await batch(hub, sdkDatasetProposals(2), tokens[user]);
    assertRestliError(
      reply,
      403,
      new RegExp(`^User urn:li:corpuser:${user} is unauthorized to modify entities: only an Admin may write over REST`),
    );
    // Refused before the body is read: a Reader cannot make the server take in 16 MiB for nothing.
    const unread = await hub.request('/aspects?action=ingestProposalBatch', {
      method: 'POST',
      headers: sdkHeaders(tokens[user]),
      body: '{"proposals": [not json at all',
    });
    assertRestliError(unread, 403, /only an Admin/);
  }
  assert.is(hub.store.recordCount, before);
  const admin = await one(hub, proposal, await hub.createToken('alice'));
  assert.is(admin.status, 200, admin.text);
});

test('bad JSON in aspect.value, an unknown change type, an invalid URN: 422 naming it, nothing written', async ({
  hub,
}) => {
  const before = hub.store.recordCount;
  const urn = sdkDatasetUrn(1);
  const badJson = {
    ...sdkProposal(urn, 'datasetProperties', {}),
    aspect: { value: '{"name": ', contentType: 'application/json' },
  };
  assertRestliError(await one(hub, badJson), 422, /datasetProperties: aspect\.value is not valid JSON/);
  assertRestliError(
    await one(hub, sdkProposal(urn, 'status', { removed: false }, 'UPSRET')),
    422,
    /unknown changeType "UPSRET"/,
  );
  const invalid = sdkProposal('urn:li:dataset:(urn:li:dataPlatform:mysql,shop.t,prod)', 'status', { removed: false });
  assertRestliError(await one(hub, invalid), 422, /origin "prod" is not a FabricType \(did you mean "PROD"\?/);
  const mismatch = { ...sdkProposal(urn, 'status', { removed: false }), entityType: 'chart' };
  assertRestliError(await one(hub, mismatch), 422, /entityType "chart" does not match the urn; expected "dataset"/);
  const patch = sdkProposal(urn, 'globalTags', [{ op: 'add', path: '/tags/x', value: {} }], 'PATCH');
  assertRestliError(await one(hub, patch), 422, /changeType "PATCH" is not supported/);
  const long = sdkProposal(`urn:li:dataset:(urn:li:dataPlatform:mysql,${'x'.repeat(600)},PROD)`, 'status', {});
  const tooLong = await one(hub, long);
  assertRestliError(tooLong, 422, /urn/);
  assert.ok(tooLong.json.message.length < 400, 'the message quotes a short prefix, not the whole urn');
  assert.is(hub.store.recordCount, before);
});

test('a batch with one bad proposal among 99 good ones is refused whole, naming its index', async ({ hub }) => {
  const good = Array.from({ length: 33 }, (_, i) => sdkDatasetProposals(i)).flat();
  const bad = {
    ...sdkProposal(sdkDatasetUrn(99), 'datasetProperties', {}),
    aspect: { value: 'not json', contentType: 'application/json' },
  };
  const proposals = [...good.slice(0, 57), bad, ...good.slice(57)];
  assert.is(proposals.length, 100);
  const before = hub.store.recordCount;
  assertRestliError(await batch(hub, proposals), 422, /^proposal 57: .*aspect\.value is not valid JSON/);
  assert.is(hub.store.recordCount, before);
  assert.is(hub.store.catalogue.exists(sdkDatasetUrn(0)), false);
});

test('CREATE writes a new aspect and is refused (422) for one that exists; CREATE_ENTITY likewise', async ({ hub }) => {
  const urn = sdkDatasetUrn(5);
  const created = await one(hub, sdkProposal(urn, 'status', { removed: false }, 'CREATE'));
  assert.is(created.status, 200, created.text);
  assertRestliError(
    await one(hub, sdkProposal(urn, 'status', { removed: true }, 'CREATE')),
    422,
    /Cannot perform CREATE since the aspect already exists/,
  );
  assert.equal(hub.store.catalogue.aspect(urn, 'status'), { removed: false });
  assertRestliError(
    await one(hub, sdkProposal(urn, 'datasetProperties', { name: 'x' }, 'CREATE_ENTITY')),
    422,
    /entity key already exists/,
  );
  // Within one batch, a CREATE sees the proposals before it.
  const other = sdkDatasetUrn(6);
  const reply = await batch(hub, [
    sdkProposal(other, 'status', { removed: false }),
    sdkProposal(other, 'status', {}, 'CREATE'),
  ]);
  assertRestliError(reply, 422, /^proposal 1: Cannot perform CREATE/);
  assert.is(hub.store.catalogue.exists(other), false);
});

test('DELETE of the key aspect deletes the entity; DELETE of another aspect removes that aspect', async ({ hub }) => {
  await batch(hub, [...sdkDatasetProposals(1), ...sdkDatasetProposals(2)]);
  const first = sdkDatasetUrn(1);
  const tags = await one(hub, { ...sdkProposal(first, 'globalTags', null, 'DELETE'), aspect: undefined });
  assert.is(tags.status, 200, tags.text);
  assert.is(hub.store.catalogue.aspect(first, 'globalTags'), undefined);
  assert.ok(hub.store.catalogue.aspect(first, 'datasetProperties'));
  const key = { entityType: 'dataset', entityUrn: first, changeType: 'DELETE', aspectName: 'datasetKey' };
  assert.is((await one(hub, key)).status, 200);
  assert.is(hub.store.catalogue.exists(first), false);
  assert.ok(hub.store.catalogue.exists(sdkDatasetUrn(2)));
  const before = hub.store.recordCount;
  assert.is((await one(hub, key)).status, 200, 'deleting what is gone is no error');
  assert.is(hub.store.recordCount, before, 'and writes nothing');
});

test('/entities?action=ingest takes an MCE snapshot; ?action=delete removes the entity', async ({ hub }) => {
  const urn = sdkDatasetUrn(7);
  const snapshot = {
    entity: {
      value: {
        'com.linkedin.metadata.snapshot.DatasetSnapshot': {
          urn,
          aspects: [
            {
              'com.linkedin.dataset.DatasetProperties': {
                name: 'seven',
                description: 'From an MCE.',
                customProperties: {},
                tags: [],
              },
            },
            { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:mce' }] } },
          ],
        },
      },
    },
    systemMetadata: { lastObserved: 0, runId: 'no-run-id-provided' },
  };
  const ingested = await post(hub, '/entities?action=ingest', snapshot);
  assert.is(ingested.status, 200, ingested.text);
  assert.is(ingested.text, '');
  assert.is((hub.store.catalogue.aspect(urn, 'datasetProperties') as { name: string }).name, 'seven');
  const wrong = await post(hub, '/entities?action=ingest', {
    entity: { value: { 'com.linkedin.metadata.snapshot.ChartSnapshot': { urn, aspects: [] } } },
  });
  assertRestliError(wrong, 422, /ChartSnapshot cannot hold a "dataset" urn/);
  assertRestliError(
    await post(hub, '/entities?action=delete', { urn }, await hub.createToken('bob')),
    403,
    /unauthorized/,
  );
  const deleted = await post(hub, '/entities?action=delete', { urn });
  assert.is(deleted.status, 200, deleted.text);
  assert.equal(deleted.json, { value: { urn, rows: 2 } });
  assert.is(hub.store.catalogue.exists(urn), false);
});

test('written proposals are read by GraphQL at once: dataset(urn) and searchAcrossEntities', async ({ hub }) => {
  await batch(hub, sdkDatasetProposals(3));
  const urn = sdkDatasetUrn(3);
  const reply = await hub.gql(
    `query ($urn: String!) { dataset(urn: $urn) { properties { description } tags { tags { tag { urn } } }
       schemaMetadata { fields { fieldPath description } } }
     searchAcrossEntities(input: {query: "sdk_table_3"}) { searchResults { entity { urn } } } }`,
    { urn },
  );
  assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
  const { dataset, searchAcrossEntities } = reply.json.data;
  assert.is(dataset.properties.description, 'Table 3, written through the REST protocol.');
  assert.equal(dataset.tags.tags, [{ tag: { urn: 'urn:li:tag:restli' } }]);
  assert.equal(dataset.schemaMetadata.fields, [{ fieldPath: 'id', description: 'The primary key.' }]);
  assert.equal(searchAcrossEntities.searchResults, [{ entity: { urn } }]);
});

test('envelope and transport refusals: no action, a GET, a body that is not JSON, a missing proposal', async ({
  hub,
}) => {
  assertRestliError(
    await post(hub, '/aspects?action=nope', {}),
    400,
    /expected \?action=ingestProposal or \?action=ingestProposalBatch/,
  );
  const get = await hub.request('/aspects?action=ingestProposal', { headers: sdkHeaders(hub.token) });
  assertRestliError(get, 405, /use POST/);
  const notJson = await hub.request('/aspects?action=ingestProposal', {
    method: 'POST',
    headers: sdkHeaders(hub.token),
    body: '{',
  });
  assertRestliError(notJson, 400, /not valid JSON/);
  assertRestliError(
    await post(hub, '/aspects?action=ingestProposal', { async: 'false' }),
    400,
    /"proposal" of action "ingestProposal" is required/,
  );
  assertRestliError(await post(hub, '/aspects?action=ingestProposalBatch', { proposals: {} }), 400, /not an array/);
  assertRestliError(await post(hub, '/aspects?action=ingestProposal', { proposal: 'x' }), 422, /not a JSON object/);
  assertRestliError(await hub.request('/entitiesV2', { headers: sdkHeaders(hub.token) }), 404, /no resource/);
});

test('a body over the limit is a Rest.li 413, nothing written', async () => {
  const hub = await openInProcess({ limits: { maxRestBodyBytes: 4096 } });
  try {
    const before = hub.store.recordCount;
    const proposals = Array.from({ length: 10 }, (_, i) => sdkDatasetProposals(i)).flat();
    const reply = await batch(hub, proposals);
    assertRestliError(reply, 413, /4096/);
    assert.is(hub.store.recordCount, before);
  } finally {
    await hub.close();
  }
});

test("by default a batch larger than the GraphQL body limit is accepted, as DataHub takes the SDK's batches", async () => {
  const hub = await openInProcess();
  try {
    // 24 datasets with 64 KiB descriptions: about 1.5 MiB, over /api/graphql's 1 MiB.
    const proposals = Array.from({ length: 24 }, (_, i) =>
      sdkProposal(sdkDatasetUrn(500 + i), 'datasetProperties', { name: `big_${i}`, description: 'x'.repeat(65_536) }),
    );
    assert.ok(JSON.stringify({ proposals }).length > 1024 * 1024);
    const reply = await batch(hub, proposals);
    assert.is(reply.status, 200, reply.text);
    assert.ok(hub.store.catalogue.exists(sdkDatasetUrn(523)));
  } finally {
    await hub.close();
  }
});

test('an action name every object answers (toString, valueOf, constructor) is an unknown action, not a crash', async ({
  hub,
}) => {
  for (const action of ['toString', 'valueOf', 'constructor', 'hasOwnProperty', '__proto__'])
    assertRestliError(await post(hub, `/aspects?action=${action}`, {}), 400, /is not supported; expected \?action=/);
});

test('an aspect name that is not one (too long, __proto__, punctuation) is a 422, nothing written', async ({ hub }) => {
  const before = hub.store.recordCount;
  for (const name of ['a'.repeat(200), '__proto__', 'dataset.properties', '']) {
    const reply = await one(hub, sdkProposal(sdkDatasetUrn(1), name, { name: 'x' }));
    assertRestliError(reply, 422, /aspectName/);
    assert.ok(reply.json.message.length < 400, 'the message quotes a short prefix only');
  }
  assert.is(hub.store.recordCount, before);
});

test.run();
