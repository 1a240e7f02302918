// DataHub's REST reads as its Python SDK sends them (get_aspect, exists, get_entity_raw), in process:
// GET /aspects/{urn}?aspect=&version=0 keyed by full record names, GET /entitiesV2/{urn}, key aspects built
// from the URN, and /config still telling the SDK to speak Rest.li.

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

const test = suite<{ hub: InProcessHub }>('rest-reads', {} as { hub: InProcessHub });
const RUN = 'file-2024_01_01-00_00_00-reads';

test.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [[userWithRole('carol', 'Reader')]] });
  const proposals = [
    ...sdkDatasetProposals(1),
    ...runReportProposals(RUN),
    sdkProposal(sdkDatasetUrn(1), 'myCompanyAspect', { anything: [1, 2] }),
  ];
  const reply = await context.hub.request('/aspects?action=ingestProposalBatch', {
    method: 'POST',
    headers: sdkHeaders(context.hub.token),
    body: JSON.stringify({ proposals, async: 'true' }),
  });
  assert.is(reply.status, 200, reply.text);
});
test.after.each(async ({ hub }) => {
  await hub.close();
});

/** The SDK's Urn.url_encode: every character but the unreserved ones percent-encoded (parentheses, commas too). */
function urlEncode(urn: string): string {
  return encodeURIComponent(urn).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** get_aspect's request: GET /aspects/{url-encoded urn}?aspect=NAME&version=0. */
function getAspect(hub: InProcessHub, urn: string, aspect: string, token: string | null = hub.token, version = 0) {
  return hub.request(`/aspects/${urlEncode(urn)}?aspect=${aspect}&version=${version}`, { headers: sdkHeaders(token) });
}

function getEntity(hub: InProcessHub, urn: string, aspects?: string[]) {
  const query = aspects === undefined ? '' : `?aspects=List(${aspects.join(',')})`;
  return hub.request(`/entitiesV2/${urlEncode(urn)}${query}`, { headers: sdkHeaders(hub.token) });
}

test('GET /aspects answers each written aspect keyed by its full record name, version 0', async ({ hub }) => {
  const urn = sdkDatasetUrn(1);
  const [properties, schema, tags] = sdkDatasetProposals(1).map((p) => JSON.parse(p.aspect.value));
  const expected: [string, string, unknown][] = [
    ['datasetProperties', 'com.linkedin.dataset.DatasetProperties', properties],
    ['schemaMetadata', 'com.linkedin.schema.SchemaMetadata', schema],
    ['globalTags', 'com.linkedin.common.GlobalTags', tags],
  ];
  for (const [aspect, recordName, value] of expected) {
    const reply = await getAspect(hub, urn, aspect);
    assert.is(reply.status, 200, reply.text);
    assert.equal(reply.json, { version: 0, aspect: { [recordName]: value } });
    assert.is(reply.headers.get('x-restli-protocol-version'), '2.0.0');
  }
  const reply = await getAspect(hub, urn, 'schemaMetadata');
  const platformSchema = reply.json.aspect['com.linkedin.schema.SchemaMetadata'].platformSchema;
  assert.equal(platformSchema, { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } });
});

test('an absent aspect or entity is a Rest.li 404 (get_aspect answers None); an older version too', async ({ hub }) => {
  for (const reply of [
    await getAspect(hub, sdkDatasetUrn(1), 'ownership'),
    await getAspect(hub, sdkDatasetUrn(2), 'datasetProperties'),
    await getAspect(hub, sdkDatasetUrn(1), 'datasetProperties', hub.token, 1),
  ]) {
    assert.is(reply.status, 404, reply.text);
    assert.is(reply.headers.get('x-restli-error-response'), 'true');
    assert.is(reply.json.status, 404);
    assert.type(reply.json.message, 'string');
  }
});

test('exists(): the key aspect is built from the URN for an entity that exists, 404 otherwise', async ({ hub }) => {
  const reply = await getAspect(hub, sdkDatasetUrn(1), 'datasetKey');
  assert.is(reply.status, 200, reply.text);
  assert.equal(reply.json.aspect, {
    'com.linkedin.metadata.key.DatasetKey': {
      platform: 'urn:li:dataPlatform:mysql',
      name: 'shop.sdk_table_1',
      origin: 'PROD',
    },
  });
  assert.is((await getAspect(hub, sdkDatasetUrn(2), 'datasetKey')).status, 404);
  const request = await getAspect(hub, `urn:li:dataHubExecutionRequest:${RUN}`, 'dataHubExecutionRequestKey');
  assert.equal(request.json.aspect, { 'com.linkedin.metadata.key.ExecutionRequestKey': { id: RUN } });
});

test('run reports are kept and read back; an aspect without a known record name is a 501 here', async ({ hub }) => {
  const reply = await getAspect(hub, `urn:li:dataHubExecutionRequest:${RUN}`, 'dataHubExecutionRequestResult');
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.json.aspect['com.linkedin.execution.ExecutionRequestResult'].status, 'SUCCESS');
  const custom = await getAspect(hub, sdkDatasetUrn(1), 'myCompanyAspect');
  assert.is(custom.status, 501, custom.text);
  assert.match(custom.json.message, /does not know its record name; read it with GET \/entitiesV2/);
});

test('GET /entitiesV2 answers every aspect in its envelope, the key aspect included', async ({ hub }) => {
  const urn = sdkDatasetUrn(1);
  const reply = await getEntity(hub, urn);
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.json.urn, urn);
  assert.is(reply.json.entityName, 'dataset');
  const names = Object.keys(reply.json.aspects).sort();
  assert.equal(names, ['datasetKey', 'datasetProperties', 'globalTags', 'myCompanyAspect', 'schemaMetadata']);
  const tags = reply.json.aspects.globalTags;
  assert.equal(tags, {
    name: 'globalTags',
    type: 'VERSIONED',
    version: 0,
    value: { tags: [{ tag: 'urn:li:tag:restli' }] },
    created: { time: 0, actor: 'urn:li:corpuser:UNKNOWN' },
  });
});

test('GET /entitiesV2?aspects=List(a,b) answers those and the key; an unknown entity its key alone', async ({
  hub,
}) => {
  const urn = sdkDatasetUrn(1);
  const some = await getEntity(hub, urn, ['datasetProperties', 'ownership']);
  assert.equal(Object.keys(some.json.aspects).sort(), ['datasetKey', 'datasetProperties']);
  const absent = await getEntity(hub, sdkDatasetUrn(2));
  assert.is(absent.status, 200, absent.text);
  assert.equal(Object.keys(absent.json.aspects), ['datasetKey']);
  const noKey = await hub.request(`/entitiesV2/${urlEncode(urn)}?alwaysIncludeKeyAspect=false`, {
    headers: sdkHeaders(hub.token),
  });
  assert.not.ok('datasetKey' in noKey.json.aspects);
  assert.ok('datasetProperties' in noKey.json.aspects);
  const bad = await hub.request(`/entitiesV2/${urlEncode(urn)}?aspects=datasetProperties`, {
    headers: sdkHeaders(hub.token),
  });
  assert.is(bad.status, 400);
  assert.match(bad.json.message, /expected aspects=List\(a,b\)/);
});

test('reads need a token but no privilege; a bad URN is a 400 naming it', async ({ hub }) => {
  const carol = await hub.createToken('carol');
  assert.is((await getAspect(hub, sdkDatasetUrn(1), 'datasetProperties', carol)).status, 200);
  const anonymous = await getAspect(hub, sdkDatasetUrn(1), 'datasetProperties', null);
  assert.is(anonymous.status, 401);
  assert.is(anonymous.json.status, 401);
  const bad = await getAspect(hub, 'urn:li:dataset:(urn:li:dataPlatform:mysql,t,prod)', 'datasetProperties');
  assert.is(bad.status, 400);
  assert.match(bad.json.message, /origin "prod" is not a FabricType/);
  const broken = await hub.request('/aspects/urn%3Ali%3A%ZZ?aspect=status', { headers: sdkHeaders(hub.token) });
  assert.is(broken.status, 400);
});

test('/config keeps the SDK on Rest.li: noCode "true", no DataHub version from 1.0.1 on, not a cloud server', async ({
  hub,
}) => {
  const config = (await hub.request('/config')).json;
  assert.is(config.noCode, 'true');
  const version: string | undefined = config.versions?.['acryldata/datahub']?.version;
  if (version !== undefined) {
    const [major = 0, minor = 0, patch = 0] = version.replace(/^v/, '').split('.').map(Number);
    assert.ok(major * 1e6 + minor * 1e3 + patch < 1_000_001, `version ${version} would switch the SDK to OpenAPI`);
  }
  assert.ok(!config.datahub?.serverEnv || config.datahub.serverEnv === 'core');
});

test('secret aspects (password hashes, access tokens) are never served over REST', async ({ hub }) => {
  const user = 'urn:li:corpuser:datahub';
  const reply = await hub.request(`/aspects/${encodeURIComponent(user)}?aspect=corpUserCredentials&version=0`, {
    headers: sdkHeaders(hub.token),
  });
  assert.is(reply.status, 403, reply.text);
  assert.match(reply.json.message, /secret/);
  const ingested = await hub.request('/aspects?action=ingestProposal', {
    method: 'POST',
    headers: sdkHeaders(hub.token),
    body: JSON.stringify({ proposal: sdkProposal(user, 'corpUserCredentials', { hashedPassword: 'h', salt: 's' }) }),
  });
  assert.is(ingested.status, 200, ingested.text);
  const entity = await hub.request(`/entitiesV2/${encodeURIComponent(user)}`, { headers: sdkHeaders(hub.token) });
  assert.is(entity.status, 200, entity.text);
  assert.is(entity.json.aspects.corpUserCredentials, undefined);
});

test.run();
