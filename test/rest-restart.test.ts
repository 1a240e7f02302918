// DataHub's REST protocol over a real socket and a data directory: what the SDK writes is durable before
// its 200 and reads back the same after a restart, through /aspects, /entitiesV2 and GraphQL; a refused
// batch leaves the log file byte for byte as it was.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { statSync } from 'node:fs';
import { join } from 'node:path';

import {
  runReportProposals,
  sdkDatasetProposals,
  sdkDatasetUrn,
  sdkHeaders,
  sdkProposal,
} from './fixtures/datahub-records.ts';
import { startTestServer, tempDataDir, type TestServer } from './fixtures/server.ts';

const QUERY = `query ($urn: String!) { dataset(urn: $urn) { properties { description } tags { tags { tag { urn } } } }
  searchAcrossEntities(input: {query: "sdk_table_4"}) { searchResults { entity { urn } } } }`;

/** Everything read back about dataset 4 and the run report, through the three read paths. */
async function readBack(hub: TestServer) {
  const urn = encodeURIComponent(sdkDatasetUrn(4));
  const headers = sdkHeaders(hub.token);
  const aspect = await hub.request(`/aspects/${urn}?aspect=schemaMetadata&version=0`, { headers });
  const entity = await hub.request(`/entitiesV2/${urn}?aspects=List(datasetProperties,globalTags)`, { headers });
  const run = encodeURIComponent('urn:li:dataHubExecutionRequest:restart-run');
  const report = await hub.request(`/aspects/${run}?aspect=dataHubExecutionRequestResult&version=0`, { headers });
  const graphql = await hub.gql(QUERY, { urn: sdkDatasetUrn(4) });
  return { aspect: aspect.json, entity: entity.json, report: report.json, graphql: graphql.json };
}

test('what the SDK writes reads back the same after a restart; a refused batch leaves the log as it was', async () => {
  const dataDir = tempDataDir();
  const log = join(dataDir, 'catalogue.jsonl');
  let hub = await startTestServer({ dataDir });
  let before: Awaited<ReturnType<typeof readBack>>;
  try {
    const proposals = [
      ...Array.from({ length: 30 }, (_, i) => sdkDatasetProposals(i)).flat(),
      ...runReportProposals('restart-run'),
    ];
    const reply = await hub.request('/aspects?action=ingestProposalBatch', {
      method: 'POST',
      headers: sdkHeaders(hub.token),
      body: JSON.stringify({ proposals, async: 'true' }),
    });
    assert.is(reply.status, 200, reply.text);
    assert.equal(reply.json, { value: 'success' });
    before = await readBack(hub);
    assert.is(before.graphql.data.dataset.properties.description, 'Table 4, written through the REST protocol.');
    assert.equal(before.graphql.data.searchAcrossEntities.searchResults, [{ entity: { urn: sdkDatasetUrn(4) } }]);
    assert.is(before.report.aspect['com.linkedin.execution.ExecutionRequestResult'].status, 'SUCCESS');

    const size = statSync(log).size;
    const bad = sdkProposal(sdkDatasetUrn(99), 'status', { removed: false }, 'UPSRET');
    const refused = await hub.request('/aspects?action=ingestProposalBatch', {
      method: 'POST',
      headers: sdkHeaders(hub.token),
      body: JSON.stringify({ proposals: [...sdkDatasetProposals(40), bad], async: 'true' }),
    });
    assert.is(refused.status, 422, refused.text);
    assert.is(refused.headers.get('x-restli-error-response'), 'true');
    assert.match(refused.json.message, /^proposal 3: unknown changeType "UPSRET"/);
    assert.is(statSync(log).size, size, 'the log is unchanged');
  } finally {
    await hub.close();
  }
  hub = await startTestServer({ dataDir });
  try {
    const after = await readBack(hub);
    assert.equal(after, before);
    assert.is(after.entity.aspects.globalTags.value.tags[0].tag, 'urn:li:tag:restli');
  } finally {
    await hub.close();
  }
});

test.run();
