// Failing disks and compaction, with a file system that fails on purpose: a failed write or fsync
// fails its whole group with a clear SERVER_ERROR, changes nothing in memory, leaves the log ending
// on a whole line and the server serving reads; compaction leaves the old or the new log, never neither.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { Store, COMPACT_MIN_BYTES } from '../src/store/store.ts';
import { FaultyFileSystem, type Operation } from './fixtures/faulty-fs.ts';
import { SAMPLE, startTestServer, tempDataDir, type TestServer } from './fixtures/server.ts';

const LOG = 'catalogue.jsonl';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';

function logText(dataDir: string): string {
  return readFileSync(join(dataDir, LOG), 'utf8');
}

/** The log ends on a whole line and every line is a record. */
function assertWholeLog(dataDir: string): void {
  const text = logText(dataDir);
  assert.ok(text.endsWith('\n'), 'the log ends on a whole line');
  for (const line of text.split('\n').filter((l) => l !== '')) JSON.parse(line);
}

const createTag = (id: string) => `mutation { createTag(input: {id: "${id}", name: "${id}"}) }`;
const tagExists = async (hub: TestServer, id: string) =>
  (await hub.gql(`{ tag(urn: "urn:li:tag:${id}") { properties { name } } }`)).json.data.tag.properties !== null;

type Context = { hub: TestServer; fs: FaultyFileSystem; dataDir: string };

const writes = suite<Context>('failed writes');
writes.before.each(async (context) => {
  context.fs = new FaultyFileSystem();
  context.dataDir = tempDataDir();
  context.hub = await startTestServer({ dataDir: context.dataDir, seed: [SAMPLE], fileSystem: context.fs });
});
writes.after.each(async ({ hub }) => hub.close());

const failures: [string, Operation, 'EIO' | 'ENOSPC', number | undefined][] = [
  ['EIO on append', 'write', 'EIO', undefined],
  ['ENOSPC after a short write', 'write', 'ENOSPC', 17],
  ['EIO on fsync', 'sync', 'EIO', undefined],
  ['ENOSPC on fsync', 'sync', 'ENOSPC', undefined],
];
for (const [what, operation, code, partial] of failures) {
  writes(
    `answers ${what} with a clear SERVER_ERROR, keeps memory and log unchanged, and serves on`,
    async ({ hub, fs, dataDir }) => {
      const before = logText(dataDir);
      fs.fail({ operation, code, partial, pathIncludes: LOG });
      const reply = await hub.gql(createTag('doomed'));
      assert.is(reply.status, 200);
      assert.equal(reply.json.data, { createTag: null });
      assert.equal(reply.json.errors[0].extensions, {
        code: 500,
        type: 'SERVER_ERROR',
        classification: 'DataFetchingException',
      });
      assert.is(
        reply.json.errors[0].message,
        `The change was not saved: the disk reported ${code} while writing the log. Nothing was changed; try again.`,
      );
      assert.not.ok(reply.text.includes(dataDir), 'no path reaches the client');
      assert.not.ok(await tagExists(hub, 'doomed'), 'memory is unchanged');
      assert.is(logText(dataDir), before, 'the log is as it was');
      assertWholeLog(dataDir);
      // Reads and later writes go on.
      assert.match(
        (await hub.gql(`{ dataset(urn: "${ORDERS}") { properties { description } } }`)).json.data.dataset.properties
          .description,
        /order/,
      );
      assert.equal((await hub.gql(createTag('after'))).json.data, { createTag: 'urn:li:tag:after' });
    },
  );
}

writes(
  'fails every mutation of the group whose write failed, and none of the next group',
  async ({ hub, fs, dataDir }) => {
    // The first commit's slow fsync lets the next ten arrive meanwhile: they form one group. The fault is
    // armed once the first commit has written (not after a guessed delay, which a loaded machine overruns),
    // and the sync is slow enough for ten requests to arrive on such a machine too.
    fs.slowSyncs(250);
    const callsBefore = fs.calls.length;
    const first = hub.gql(createTag('first'));
    const deadline = Date.now() + 5000;
    while (!fs.calls.slice(callsBefore).includes('write')) {
      assert.ok(Date.now() < deadline, 'the first commit reached its write within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    fs.fail({ operation: 'write', code: 'EIO', pathIncludes: LOG });
    const group = await Promise.all(Array.from({ length: 10 }, (_, i) => hub.gql(createTag(`group-${i}`))));
    assert.equal((await first).json.data, { createTag: 'urn:li:tag:first' });
    for (const reply of group) assert.is(reply.json.errors?.[0].extensions.type, 'SERVER_ERROR');
    fs.clear();
    for (let i = 0; i < 10; i++) assert.not.ok(await tagExists(hub, `group-${i}`));
    assert.ok(await tagExists(hub, 'first'));
    assertWholeLog(dataDir);
  },
);

writes('refuses writes but serves reads when a failed write cannot be undone', async ({ hub, fs, dataDir }) => {
  fs.fail({ operation: 'write', code: 'EIO', partial: 10, pathIncludes: LOG }).fail({
    operation: 'truncate',
    code: 'EIO',
    pathIncludes: LOG,
  });
  assert.is((await hub.gql(createTag('x'))).json.errors[0].extensions.type, 'SERVER_ERROR');
  const refused = await hub.gql(createTag('y'));
  assert.match(
    refused.json.errors[0].message,
    /stopped accepting writes after a disk failure and serves reads only until minihub restarts/,
  );
  assert.ok(
    (await hub.gql('{ tag(urn: "urn:li:tag:pii") { properties { name } } }')).json.data.tag.properties !== null,
  );
  await hub.close();
  // A restart cuts the torn bytes the failed write left and carries on.
  const warnings: string[] = [];
  const again = await startTestServer({ dataDir, log: (message) => warnings.push(message) });
  assert.match(warnings.join('\n'), /last line was incomplete/);
  assert.equal((await again.gql(createTag('z'))).json.data, { createTag: 'urn:li:tag:z' });
  await again.close();
  Object.assign(hub, { close: async () => {} });
});

writes.run();

// ---

const compaction = suite('compaction');

async function storeWithHistory(dataDir: string, fs?: FaultyFileSystem): Promise<Store> {
  const store = await Store.open({ dataDir, fileSystem: fs, autoCompact: false });
  for (let i = 0; i < 20; i++) {
    await store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: 'urn:li:tag:churn', aspect: 'tagProperties', value: { name: `version ${i}` } },
    ]);
  }
  await store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: 'urn:li:tag:kept', aspect: 'tagProperties', value: { name: 'kept' } },
  ]);
  return store;
}

compaction('rewrites the log as the current state, smaller, with the same state after a restart', async () => {
  const dataDir = tempDataDir();
  const store = await storeWithHistory(dataDir);
  const report = await store.compact();
  assert.ok(report.bytesAfter < report.bytesBefore / 4, JSON.stringify(report));
  assert.is(report.entities, 2);
  await store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: 'urn:li:tag:later', aspect: 'tagProperties', value: { name: 'later' } },
  ]);
  await store.close();
  const reopened = await Store.open({ dataDir });
  assert.equal(reopened.catalogue.aspect('urn:li:tag:churn', 'tagProperties'), { name: 'version 19' });
  assert.equal(reopened.catalogue.aspect('urn:li:tag:later', 'tagProperties'), { name: 'later' });
  assert.is(
    reopened.recordCount,
    report.historyRecords + report.records + 1,
    'the compacted records and the one after',
  );
  await reopened.close();
});

compaction('rewrites a log of megabytes whole, and replays it the same (its long lines as well)', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir, autoCompact: false });
  const description = 'a description of some length, repeated to make the log large. '.repeat(40);
  for (let batch = 0; batch < 4; batch++) {
    const changes = Array.from({ length: 250 }, (_, i) => ({
      urn: `urn:li:tag:t${batch}_${i}`,
      aspect: 'tagProperties',
      value: { name: `t${batch}_${i}`, description },
    }));
    await store.commit('test', 'urn:li:corpuser:datahub', () => changes);
  }
  const report = await store.compact();
  assert.ok(report.bytesAfter > 2 * 1024 * 1024, `more than one write's worth of bytes: ${report.bytesAfter}`);
  assert.is(report.entities, 1000);
  assert.ok(report.records > 1 && report.records < 1000, `entities joined into a few records: ${report.records}`);
  await store.close();
  const reopened = await Store.open({ dataDir });
  assert.is(reopened.catalogue.entityCount, 1000);
  assert.equal(reopened.catalogue.aspect('urn:li:tag:t3_249', 'tagProperties'), { name: 't3_249', description });
  await reopened.close();
});

// Before the rename the old log stands and the compaction fails; after it the new log stands, and a
// directory sync that fails is retried by the next append.
const steps: [string, Operation, string, boolean][] = [
  ['writing the new log', 'write', '.compact', true],
  ['syncing the new log', 'sync', '.compact', true],
  ['renaming it over the old one', 'rename', '.compact', true],
  ['syncing the directory after the rename', 'syncDirectory', '', false],
];
for (const [step, operation, pathIncludes, fails] of steps) {
  compaction(`leaves a working log with every change when ${step} fails`, async () => {
    const dataDir = tempDataDir();
    const fs = new FaultyFileSystem();
    const store = await storeWithHistory(dataDir, fs);
    const before = logText(dataDir);
    fs.fail({ operation, code: 'EIO', pathIncludes });
    let failed = false;
    try {
      await store.compact();
    } catch (error) {
      failed = true;
      assert.match((error as Error).message, /EIO.*the log is unchanged/);
    }
    assert.is(failed, fails);
    if (fails) assert.is(logText(dataDir), before, 'the old log is untouched');
    else assert.ok(logText(dataDir).length < before.length, 'the new log is in place');
    assert.not.ok(existsSync(join(dataDir, `${LOG}.compact`)), 'no temporary file is left behind');
    // The store goes on writing, to whichever log is now in place.
    await store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: 'urn:li:tag:after', aspect: 'tagProperties', value: { name: 'after' } },
    ]);
    await store.close();
    const reopened = await Store.open({ dataDir });
    assert.equal(reopened.catalogue.aspect('urn:li:tag:churn', 'tagProperties'), { name: 'version 19' });
    assert.equal(reopened.catalogue.aspect('urn:li:tag:kept', 'tagProperties'), { name: 'kept' });
    assert.equal(reopened.catalogue.aspect('urn:li:tag:after', 'tagProperties'), { name: 'after' });
    await reopened.close();
  });
}

compaction('removes the temporary file a crash before the rename left, keeping the old log', async () => {
  const dataDir = tempDataDir();
  const store = await storeWithHistory(dataDir);
  await store.close();
  const old = logText(dataDir);
  writeFileSync(join(dataDir, `${LOG}.compact`), '{"seq":1,"time":1,"actor":"a","op":"compact","changes":[]}\n{"half');
  const warnings: string[] = [];
  const reopened = await Store.open({ dataDir, warn: (message) => warnings.push(message) });
  assert.match(warnings.join('\n'), /interrupted compaction/);
  assert.not.ok(existsSync(join(dataDir, `${LOG}.compact`)));
  assert.is(logText(dataDir), old);
  assert.equal(reopened.catalogue.aspect('urn:li:tag:churn', 'tagProperties'), { name: 'version 19' });
  await reopened.close();
});

compaction('runs by itself once the log is four times the live state', async () => {
  const dataDir = tempDataDir();
  const warnings: string[] = [];
  const store = await Store.open({ dataDir, warn: (message) => warnings.push(message) });
  const big = 'x'.repeat(64 * 1024);
  // Each commit replaces the same aspect, so the live state stays at one 64 KiB value.
  for (let i = 0; store.logBytes < COMPACT_MIN_BYTES && i < 40; i++) {
    await store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: 'urn:li:tag:big', aspect: 'tagProperties', value: { name: `${i}`, description: big } },
    ]);
  }
  await store.commit('test', 'urn:li:corpuser:datahub', () => [
    { urn: 'urn:li:tag:big', aspect: 'tagProperties', value: { name: 'last', description: big } },
  ]);
  // It starts between two commit batches and runs beside the commits after it; compact() joins it.
  await store.commit('test', 'urn:li:corpuser:datahub', () => []);
  await store.compact();
  assert.match(warnings.join('\n'), /compacted .* bytes/);
  assert.ok(store.logBytes < 2 * big.length, `log is ${store.logBytes} bytes`);
  await store.close();
  const reopened = await Store.open({ dataDir });
  assert.equal((reopened.catalogue.aspect('urn:li:tag:big', 'tagProperties') as { name: string }).name, 'last');
  await reopened.close();
});

compaction.run();

// ---

const ordering = suite('maintenance in commit order');

ordering('runs a reset after the commits asked for before it, and before those asked for after it', async () => {
  const store = await Store.open({ dataDir: null });
  const write = (id: string) =>
    store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: `urn:li:tag:${id}`, aspect: 'tagProperties', value: { name: id } },
    ]);
  const before = write('before');
  const reset = store.resetTo([{ urn: 'urn:li:tag:seed', aspect: 'tagProperties', value: { name: 'seed' } }]);
  const after = write('after');
  await Promise.all([before, reset, after]);
  assert.not.ok(store.catalogue.exists('urn:li:tag:before'), 'the reset wiped the earlier write');
  assert.ok(store.catalogue.exists('urn:li:tag:seed'));
  assert.ok(store.catalogue.exists('urn:li:tag:after'), 'the later write survives the reset');
  await store.close();
});

ordering.run();
