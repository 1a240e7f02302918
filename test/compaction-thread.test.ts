// Compaction on a worker thread (a store over node's fs): it writes what the compaction on the store's own
// thread writes, the writes made meanwhile follow it, and a store closing ends the worker at once.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { editFieldDescription } from '../src/resolvers/edits.ts';
import { Store } from '../src/store/store.ts';
import { DATASET, describeRounds, ROOT_ACTOR as ROOT } from './fixtures/described-datasets.ts';
import { logRecords, logSeqs, risesStrictly } from './fixtures/log-file.ts';
import { tempDataDir } from './fixtures/server.ts';

const LOG = 'catalogue.jsonl';
const COLUMN = (i: number) => ({
  fieldPath: `c${i}`,
  nativeDataType: 'text',
  type: { type: { 'com.linkedin.schema.StringType': {} } },
});

/**
 * A log with history and state: 40 datasets described 4 times and re-tagged, two column descriptions edited
 * twice (column edits log only the column), one dataset removed and one removed then re-created.
 */
async function churnedDir(): Promise<string> {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir, autoCompact: false });
  try {
    await describeRounds(store, 4, 40);
    await store.commit('schema', ROOT, () => [
      { urn: DATASET(1), aspect: 'schemaMetadata', value: { fields: [COLUMN(0), COLUMN(1)] } },
    ]);
    for (const text of ['first', 'second'])
      for (const column of [0, 1])
        await store.commit('updateDescription', ROOT, (reader) => [
          editFieldDescription(reader, DATASET(1), `c${column}`, `${text} ${column}`),
        ]);
    await store.commit('remove', ROOT, () => [{ urn: DATASET(2), aspect: 'editableDatasetProperties', value: null }]);
    await store.commit('remove', ROOT, () => [{ urn: DATASET(3), aspect: 'editableDatasetProperties', value: null }]);
    await store.commit('recreate', ROOT, () => [
      { urn: DATASET(3), aspect: 'editableDatasetProperties', value: { description: 'back' } },
    ]);
  } finally {
    await store.close();
  }
  return dataDir;
}

/** The log's records, with the time a compaction stamps on its state records left out. */
function records(dataDir: string): unknown[] {
  return logRecords<{ op: string; time?: number }>(dataDir).map((record) => {
    if (record.op === 'compact') delete record.time;
    return record;
  });
}

async function compactIn(dataDir: string, compactOffThreadBytes: number): Promise<unknown> {
  const store = await Store.open({ dataDir, autoCompact: false, compactOffThreadBytes, maxChunkBytes: 512 });
  try {
    return await store.compact();
  } finally {
    await store.close();
  }
}

const thread = suite('compaction on a worker thread');

thread('writes the same records as a compaction on the store thread, history included', async () => {
  const offThread = await churnedDir();
  const onThread = tempDataDir();
  cpSync(offThread, onThread, { recursive: true });
  const reports = [await compactIn(offThread, 0), await compactIn(onThread, Number.POSITIVE_INFINITY)];
  assert.equal(reports[0], reports[1]);
  assert.ok((reports[0] as { historyRecords: number }).historyRecords >= 4, JSON.stringify(reports[0]));
  const written = records(offThread);
  assert.equal(written, records(onThread));
  assert.ok(JSON.stringify(written).includes('"columnEdit"'), 'column edits written since the last whole value');
  const store = await Store.open({ dataDir: offThread });
  try {
    assert.equal(store.catalogue.aspect(DATASET(3), 'editableDatasetProperties'), { description: 'back' });
    assert.not.ok(store.catalogue.exists(DATASET(2)));
    assert.is((await store.history.steps(DATASET(0))).length, 4, 'four descriptions of dataset 0 in its history');
  } finally {
    await store.close();
  }
});

thread('keeps the writes acknowledged while the worker reads, after the compacted records', async () => {
  const dataDir = await churnedDir();
  const store = await Store.open({ dataDir, autoCompact: false, compactOffThreadBytes: 0 });
  const compaction = store.compact();
  let during = 0;
  let finished = false;
  void compaction.finally(() => (finished = true));
  for (; !finished || during < 5; during++)
    await store.commit('edit', ROOT, () => [
      { urn: DATASET(during % 40), aspect: 'editableDatasetProperties', value: { description: `during ${during}` } },
    ]);
  const report = await compaction;
  const state = store.export();
  await store.close();
  assert.is(report.entities, 39, 'the state when it began: 40 datasets, one removed');
  assert.ok(risesStrictly(logSeqs(dataDir)), 'numbers rise along the log');
  const reopened = await Store.open({ dataDir });
  try {
    assert.equal(reopened.export(), state, 'every write made during the compaction is in the compacted log');
  } finally {
    await reopened.close();
  }
});

thread('ends its worker when the store closes, leaving the log as it was and no new file behind', async () => {
  const dataDir = await churnedDir();
  const before = readFileSync(join(dataDir, LOG));
  const store = await Store.open({ dataDir, autoCompact: false, compactOffThreadBytes: 0 });
  const compaction = store.compact();
  // The compaction begins between two batches: once a commit made after it is durable, its worker is starting.
  await store.commit('edit', ROOT, () => [
    { urn: DATASET(0), aspect: 'editableDatasetProperties', value: { description: 'last' } },
  ]);
  const started = performance.now();
  await store.close();
  assert.ok(performance.now() - started < 2000, 'close does not wait for the compaction to finish');
  await compaction.then(
    () => assert.unreachable('the compaction finished'),
    (error: Error) =>
      assert.match(error.message, /compaction of .* failed: the store is closing; the log is unchanged/),
  );
  const after = readFileSync(join(dataDir, LOG));
  assert.ok(after.subarray(0, before.length).equals(before), 'the old log is the log, with the last write after it');
  assert.not.ok(existsSync(join(dataDir, `${LOG}.compact`)), 'the new file is removed');
});

thread('starts no worker for a compaction the store closed before it began, and writes nothing', async () => {
  const dataDir = await churnedDir();
  const before = readFileSync(join(dataDir, LOG));
  const store = await Store.open({ dataDir, autoCompact: false, compactOffThreadBytes: 0 });
  // Its first step waits in the commit queue, which closing still runs: the worker must not start after it.
  const compaction = store.compact();
  await store.close();
  await compaction.then(
    () => assert.unreachable('the compaction finished'),
    (error: Error) =>
      assert.match(error.message, /compaction of .* failed: the store is closing; the log is unchanged/),
  );
  assert.ok(readFileSync(join(dataDir, LOG)).equals(before), 'the log is as it was');
  assert.not.ok(existsSync(join(dataDir, `${LOG}.compact`)), 'the new file is removed');
});

thread.run();
