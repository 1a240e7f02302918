// getTimeline across restarts and compaction on a real data directory: the same history after each, the
// compacted log's history records changing nothing on replay, and a history read while commits and a
// compaction land counting each commit once.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { LogRecord } from '../src/store/log-record.ts';
import { Store } from '../src/store/store.ts';
import {
  assertThreeEdits,
  ORDERS,
  ROOT,
  threeEdits,
  transactionsOf,
  USERS,
  type Transaction,
} from './fixtures/timeline.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const restart = suite('getTimeline across restarts and compaction');

restart('the same history after a restart, and after a compaction and a restart', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, ...USERS] });
  let span: { from: number; to: number };
  let before: Transaction[];
  try {
    span = await threeEdits(first, await first.createToken('erin'));
    before = await transactionsOf(first, { urn: ORDERS });
    assertThreeEdits(before, span);
  } finally {
    await first.close();
  }

  const second = await startTestServer({ dataDir });
  let state: unknown;
  try {
    assert.is(second.store.history.built, false, 'nothing read at start-up');
    assert.equal(await transactionsOf(second, { urn: ORDERS }), before);
    assert.is(second.store.history.built, true);
    state = second.store.export();
    const report = await second.store.compact();
    assert.is(report.records, second.store.catalogue.entityCount, 'the state: one record per entity');
    assert.ok(report.historyRecords >= 3, `${report.historyRecords} history records`);
    // The history in memory is the same after the compaction as before it.
    assert.equal(await transactionsOf(second, { urn: ORDERS }), before);
  } finally {
    await second.close();
  }

  const lines = readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8').trimEnd().split('\n');
  const records = lines.map((line) => JSON.parse(line) as LogRecord);
  const history = records.filter((record) => record.history !== undefined);
  assert.ok(history.length >= 3, `${history.length} history records`);
  assert.ok(
    history.every((record) => record.changes.length === 0),
    'history records change nothing on replay',
  );
  assert.equal(
    records.map(({ seq }) => seq),
    records.map((_, index) => index + 1),
  );

  const third = await startTestServer({ dataDir });
  try {
    assert.equal(third.store.export(), state, 'replay of the compacted log ends at the same state');
    assert.equal(await transactionsOf(third, { urn: ORDERS }), before);
  } finally {
    await third.close();
  }
  // Replayed on two threads, the history records change nothing either.
  const twoThreads = await Store.open({ dataDir, parallelReplayBytes: 1 });
  try {
    assert.ok(twoThreads.replayedInWorker);
    assert.equal(twoThreads.export(), state);
  } finally {
    await twoThreads.close();
  }
});

restart('a history read while commits land counts each of them once', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, ...USERS] });
  const span = await threeEdits(first, await first.createToken('erin'));
  await first.close();
  const store = await Store.open({ dataDir });
  try {
    const descriptions = ['first', 'second', 'third'];
    const commits = descriptions.map((description) =>
      store.commit('updateDataset', ROOT, () => [
        { urn: ORDERS, aspect: 'editableDatasetProperties', value: { description } },
      ]),
    );
    const steps = store.history.steps(ORDERS);
    await Promise.all(commits);
    const read = await steps;
    assert.is(read.length, 6, 'three edits, then three commits');
    assert.ok(span.from <= (read[0]?.time ?? 0));
    assert.equal(
      read.slice(3).map(({ changes }) => changes.map(({ value }) => value)),
      descriptions.map((description) => [{ description }]),
    );
  } finally {
    await store.close();
  }
});

restart.run();
