// The parts of `minihub push` below the command line: request bodies (proposals as the SDK serialises them,
// N per request, under the byte cap), the sender's headers, retries and refusals, and --since from the log.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { McpRecord } from '../src/datahub/export.ts';
import { withoutSecrets } from '../src/datahub/secrets.ts';
import { batches, MAX_BODY_BYTES } from '../src/push/batches.ts';
import { sendBatch, SendFailure } from '../src/push/sender.ts';
import { changedSince, parseSince } from '../src/push/since.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
import { Store } from '../src/store/store.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const test = suite('push units');
const RUN = { lastObserved: 1, runId: 'minihub-push-test' };

const tag = (n: number, extra = ''): McpRecord => ({
  entityType: 'tag',
  entityUrn: `urn:li:tag:t${n}`,
  changeType: 'UPSERT',
  aspectName: 'tagProperties',
  aspect: { json: { name: `t${n}`, description: extra } },
});

test('batches hold N proposals each, aspect.value a JSON string, and every body stays under the byte cap', () => {
  const sent = [
    ...batches(
      Array.from({ length: 250 }, (_, n) => tag(n)),
      RUN,
    ),
  ];
  assert.equal(
    sent.map((batch) => batch.proposals),
    [100, 100, 50],
  );
  assert.equal(
    sent.map((batch) => batch.entities),
    [100, 100, 50],
  );
  const body = JSON.parse(sent[0]?.body as string);
  assert.is(body.async, 'false');
  const [first] = body.proposals;
  assert.equal(first, {
    entityType: 'tag',
    entityUrn: 'urn:li:tag:t0',
    changeType: 'UPSERT',
    aspectName: 'tagProperties',
    aspect: { value: JSON.stringify({ name: 't0', description: '' }), contentType: 'application/json' },
    systemMetadata: { lastObserved: 1, runId: 'minihub-push-test' },
  });

  // 300 kB descriptions, escaped quotes included: three fit under 1 MB, never four.
  const big = [
    ...batches(
      Array.from({ length: 10 }, (_, n) => tag(n, '"'.repeat(150_000))),
      RUN,
    ),
  ];
  assert.ok(big.length >= 4);
  for (const batch of big) assert.ok(Buffer.byteLength(batch.body) < MAX_BODY_BYTES, String(batch.body.length));
  assert.is(
    big.reduce((sum, batch) => sum + batch.proposals, 0),
    10,
  );
});

test('secrets are left out and counted: tokens, user passwords, DataHub secrets', () => {
  const records = [
    tag(1),
    { ...tag(2), entityUrn: 'urn:li:corpuser:ann', entityType: 'corpuser', aspectName: 'corpUserCredentials' },
    { ...tag(3), entityUrn: 'urn:li:dataHubSecret:s', entityType: 'dataHubSecret', aspectName: 'dataHubSecretValue' },
    { ...tag(4), entityUrn: 'urn:li:dataHubSecret:s', entityType: 'dataHubSecret', aspectName: 'ownership' },
  ];
  const leftOut = new Map<string, number>();
  assert.equal([...withoutSecrets(records, leftOut)], [tag(1)]);
  assert.equal(
    [...leftOut],
    [
      ['user password', 1],
      ['secret', 1],
    ],
  );
});

/** A server answering each request with the next of `answers`, recording the requests' headers. */
async function scripted(answers: { status: number; headers?: Record<string, string>; body?: string }[]) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      const answer = answers[seen.length - 1] ?? { status: 200 };
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '{"value":"success"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('the sender sends the SDK headers and retries 5xx and 429 with backoff, honouring Retry-After', async () => {
  const target = await scripted([{ status: 503 }, { status: 429, headers: { 'Retry-After': '2' } }, { status: 200 }]);
  const waits: number[] = [];
  try {
    const attempts = await sendBatch('{"proposals":[]}', {
      url: target.url,
      token: 'T',
      retries: 3,
      sleep: async (ms) => void waits.push(ms),
    });
    assert.is(attempts, 3);
    assert.equal(waits, [500, 2000]);
    const [headers] = target.seen;
    assert.is(headers?.['x-restli-protocol-version'], '2.0.0');
    assert.is(headers?.['content-type'], 'application/json');
    assert.is(headers?.authorization, 'Bearer T');
  } finally {
    await target.close();
  }
});

test('a 4xx other than 429 fails at once with the target message; retries run out with the last reason', async () => {
  const refused = JSON.stringify({ status: 422, message: 'proposal 3: Invalid urn' });
  const target = await scripted([{ status: 422, body: refused }, { status: 500 }, { status: 500 }]);
  const options = { url: target.url, token: undefined, retries: 1, sleep: async () => {} };
  try {
    await sendBatch('{}', options).then(
      () => assert.unreachable('a 422 is final'),
      (error: unknown) => {
        assert.instance(error, SendFailure);
        assert.match((error as Error).message, /answered 422: proposal 3: Invalid urn$/);
      },
    );
    await sendBatch('{}', options).then(
      () => assert.unreachable('two 500s with one retry'),
      (error: unknown) => assert.match((error as Error).message, /answered 500.* \(after 2 attempts\)$/),
    );
    assert.is(target.seen[0]?.authorization, undefined);
  } finally {
    await target.close();
  }
});

test('a redirect is refused, naming where it points, and never followed (its 200 would pass for a write)', async () => {
  const target = await scripted([
    { status: 302, headers: { Location: '/login' } },
    { status: 200, body: '<html>' },
  ]);
  try {
    await sendBatch('{}', { url: target.url, token: 'T', retries: 3, sleep: async () => {} }).then(
      () => assert.unreachable('a redirect is no acknowledgement'),
      (error: unknown) => {
        assert.instance(error, SendFailure);
        assert.match((error as Error).message, /redirected the request \(302 to \/login\)/);
      },
    );
    assert.is(target.seen.length, 1, 'the redirect was not followed');
  } finally {
    await target.close();
  }
});

test('--since: times and durations; the aspects changed at or after it, removals as DELETEs', async () => {
  assert.is(parseSince('2026-01-31T12:00:00Z', 0), Date.UTC(2026, 0, 31, 12));
  assert.is(parseSince('90s', 100_000), 10_000);
  assert.throws(() => parseSince('yesterday', 0), /--since yesterday is not a time/);

  const dir = tempDataDir();
  const hub = await startTestServer({ dataDir: dir, seed: [SAMPLE] });
  const datasets = [...hub.store.catalogue.urnsOfType('dataset')];
  const [edited, deleted] = datasets as [string, string];
  await new Promise((resolve) => setTimeout(resolve, 5));
  const since = Date.now();
  await hub.gql(`mutation { updateDescription(input: {description: "new", resourceUrn: ${JSON.stringify(edited)}}) }`);
  const gone = await hub.request('/entities?action=delete', {
    method: 'POST',
    headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ urn: deleted }),
  });
  assert.is(gone.status, 200, gone.text);
  await hub.close();

  const store = await Store.open({ dataDir: dir });
  try {
    const { records: changed, compactedAt } = await changedSince(
      nodeLogFileSystem,
      store.location,
      store.catalogue,
      since,
    );
    assert.is(compactedAt, null);
    assert.equal(changed, [
      {
        entityType: 'dataset',
        entityUrn: edited,
        changeType: 'UPSERT',
        aspectName: 'editableDatasetProperties',
        aspect: { json: store.catalogue.aspect(edited, 'editableDatasetProperties') },
      },
      { entityType: 'dataset', entityUrn: deleted, changeType: 'DELETE', aspectName: 'datasetKey' },
    ]);
    assert.is((await changedSince(nodeLogFileSystem, store.location, store.catalogue, 0)).records.length > 10, true);
    // After a compaction the removal is no longer in the log: changedSince says when the compaction ran.
    await store.compact();
    const after = await changedSince(nodeLogFileSystem, store.location, store.catalogue, since);
    assert.ok(after.compactedAt !== null && after.compactedAt >= since);
    assert.not.ok(after.records.some((record) => record.changeType === 'DELETE'));
  } finally {
    await store.close();
  }
});

test.run();
