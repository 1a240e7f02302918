// getTimeline across restarts and compaction on a real data directory: the same history after each, the
// compacted log's history records changing nothing on replay, and a history read while commits and a
// compaction land counting each commit once.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { exportCatalogue } from '../src/datahub/export.ts';
import type { HistoryStep } from '../src/history/history-index.ts';
import type { LogFileSystem } from '../src/store/log-fs.ts';
import type { LogRecord } from '../src/store/log-record.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
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
import { replayWithWorkHere } from './fixtures/replay-here.ts';
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
    assert.is(report.entities, second.store.catalogue.entityCount, 'the state: every entity');
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
  let after: unknown;
  try {
    assert.equal(third.store.export(), state, 'replay of the compacted log ends at the same state');
    assert.equal(await transactionsOf(third, { urn: ORDERS }), before);
    // A line after the compacted state (one line here), so the two-thread replay below has a part to hand over.
    await third.store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: 'urn:li:tag:after', aspect: 'tagProperties', value: { name: 'after' } },
    ]);
    after = third.store.export();
  } finally {
    await third.close();
  }
  // Replayed on two threads, the history records change nothing either (the worker's work done here: the
  // real thread is test/replay.test.ts's).
  const twoThreads = await replayWithWorkHere(join(dataDir, 'catalogue.jsonl'));
  assert.ok(twoThreads.replayed.inWorker);
  assert.equal(exportCatalogue(twoThreads.catalogue), after);
});

/**
 * The log file system, except that the first ranged read (the history's build) comes in pieces of 256
 * bytes and stops after the first until `release()`: the test decides what lands while the build reads.
 */
function pausedBuildRead(): { fs: LogFileSystem; reading: Promise<void>; release: () => void } {
  let started = () => {};
  let release = () => {};
  const reading = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let paused = false;
  const fs: LogFileSystem = {
    ...nodeLogFileSystem,
    readChunks(path, range) {
      const chunks = nodeLogFileSystem.readChunks(path, range);
      if (paused || range?.end === undefined) return chunks;
      paused = true;
      return (async function* () {
        for await (const chunk of chunks) {
          for (let start = 0; start < chunk.length; start += 256) {
            yield chunk.subarray(start, start + 256);
            if (start === 0) {
              started();
              await released;
            }
          }
        }
      })();
    },
  };
  return { fs, reading, release };
}

restart('a history read while commits and a compaction land counts each commit once', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE, ...USERS] });
  const span = await threeEdits(first, await first.createToken('erin'));
  await first.close();
  const paused = pausedBuildRead();
  const store = await Store.open({ dataDir, fileSystem: paused.fs });
  const describe = (description: string) =>
    store.commit('updateDataset', ROOT, () => [
      { urn: ORDERS, aspect: 'editableDatasetProperties', value: { description } },
    ]);
  let read: readonly HistoryStep[];
  try {
    const steps = store.history.steps(ORDERS);
    // The build has taken its snapshot of the log and read its first bytes; everything below lands after.
    await paused.reading;
    await describe('first');
    await describe('second');
    const report = await store.compact();
    assert.ok(report.historyRecords >= 5, `${report.historyRecords} history records`);
    await describe('third');
    assert.is(store.history.built, false, 'the build is still reading');
    paused.release();
    read = await steps;
    assert.is(read.length, 6, 'three edits, then three commits');
    assert.ok(span.from <= (read[0]?.time ?? 0));
    assert.equal(
      read.slice(3).map(({ changes }) => changes.map(({ value }) => value)),
      ['first', 'second', 'third'].map((description) => [{ description }]),
    );
    assert.ok(store.history.built);
    assert.equal(store.history.steps(ORDERS), read);
  } finally {
    paused.release();
    await store.close();
  }
  // Read again from the compacted log, the history is the same.
  const reopened = await Store.open({ dataDir });
  try {
    assert.equal(shape(await reopened.history.steps(ORDERS)), shape(read));
  } finally {
    await reopened.close();
  }
});

function shape(steps: readonly HistoryStep[]): unknown[] {
  return steps.map(({ time, actor, changes }) => [time, actor, changes.map(({ aspect, value }) => [aspect, value])]);
}

restart.run();
