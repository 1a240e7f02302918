// A compacted log keeps the change history in two fields: whole values in `history`, which every version
// reads, and patches in `patches`, which versions before them ignore. This version reads both; a reader
// of `history` alone sees fewer steps, each a true one, and never a patch taken for a value.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../src/errors.ts';
import type { HistoryStep } from '../src/history/history-index.ts';
import type { LogRecord } from '../src/store/log-record.ts';
import { compactOffline, withOfflineLog } from '../src/store/offline.ts';
import { Store } from '../src/store/store.ts';
import { tempDataDir } from './fixtures/server.ts';

const LOG = 'catalogue.jsonl';
const ROOT = 'urn:li:corpuser:datahub';
const URN = 'urn:li:dataset:(urn:li:dataPlatform:postgres,db.wide,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:postgres,db.other,PROD)';
const ASPECT = 'editableDatasetProperties';
const WIDE = 'editableSchemaMetadata';

const fields = suite('history and patches');

function logOf(records: object[]): string {
  const dataDir = tempDataDir();
  writeFileSync(join(dataDir, LOG), records.map((record) => JSON.stringify(record) + '\n').join(''));
  return dataDir;
}

const brief = (steps: readonly HistoryStep[]) =>
  steps.map(({ time, actor, changes }) => ({
    time,
    actor,
    changes: changes.map(({ urn, value }) => ({ urn, value })),
  }));

fields('a record may carry both: whole values first, then patches of the values before them', async () => {
  const one = { description: 'one', name: 'kept as it is' };
  const dataDir = logOf([
    {
      seq: 1,
      time: 1000,
      actor: 'urn:li:corpuser:a',
      op: 'x',
      changes: [],
      history: [{ urn: URN, aspect: ASPECT, value: one }],
    },
    {
      seq: 2,
      time: 2000,
      actor: 'urn:li:corpuser:b',
      op: 'y',
      changes: [],
      history: [{ urn: OTHER, aspect: ASPECT, value: { description: 'other' } }],
      patches: [{ urn: URN, aspect: ASPECT, value: { o: { description: { '=': 'two' } } } }],
    },
    {
      seq: 3,
      time: 3000,
      actor: 'urn:li:corpuser:c',
      op: 'z',
      changes: [],
      patches: [{ urn: URN, aspect: ASPECT, value: { o: { description: { '=': 'three' } }, d: ['name'] } }],
    },
    {
      seq: 4,
      time: 4000,
      actor: ROOT,
      op: 'compact',
      changes: [{ urn: URN, aspect: ASPECT, value: { description: 'three' } }],
    },
  ]);
  const store = await Store.open({ dataDir, autoCompact: false });
  try {
    assert.equal(brief(await store.history.steps(URN)), [
      { time: 1000, actor: 'urn:li:corpuser:a', changes: [{ urn: URN, value: one }] },
      {
        time: 2000,
        actor: 'urn:li:corpuser:b',
        changes: [{ urn: URN, value: { description: 'two', name: 'kept as it is' } }],
      },
      { time: 3000, actor: 'urn:li:corpuser:c', changes: [{ urn: URN, value: { description: 'three' } }] },
    ]);
    assert.is((await store.history.steps(OTHER)).length, 1);
    assert.equal(store.catalogue.aspect(URN, ASPECT), { description: 'three' }, 'history fields are never replayed');
    assert.not.ok(store.catalogue.exists(OTHER));
  } finally {
    await store.close();
  }
});

fields('a patch with nothing before it to apply it to is refused as a damaged history, not a crash', async () => {
  const dataDir = logOf([
    {
      seq: 1,
      time: 1000,
      actor: ROOT,
      op: 'x',
      changes: [],
      patches: [{ urn: URN, aspect: ASPECT, value: { o: {} } }],
    },
  ]);
  const store = await Store.open({ dataDir, autoCompact: false });
  try {
    const error = await Promise.resolve(store.history.steps(URN)).then(
      () => null,
      (failure: unknown) => failure,
    );
    assert.instance(error, MinihubError);
    assert.is((error as MinihubError).code, 'SERVER_ERROR');
    assert.match(
      (error as Error).message,
      /history in the log cannot be read: it keeps editableDatasetProperties of urn:li:dataset/,
    );
  } finally {
    await store.close();
  }
});

const columns = (edit: number) => ({
  editableSchemaFieldInfo: Array.from({ length: 30 }, (_, i) => ({
    fieldPath: `column_${i}`,
    description: i === edit % 30 ? `edit ${edit}` : `the description of column ${i}, long enough to matter`,
  })),
});

fields('a reader of "history" alone sees fewer steps, each a true one, ending on the state', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir, autoCompact: false });
  for (let edit = 0; edit < 12; edit++) {
    await store.commit(`edit ${edit}`, `urn:li:corpuser:u${edit}`, () => [
      { urn: URN, aspect: WIDE, value: columns(edit) },
    ]);
  }
  const truth = brief(await store.history.steps(URN));
  await store.compact();
  await store.close();
  const records = readFileSync(join(dataDir, LOG), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as LogRecord);
  assert.ok(
    records.some((record) => record.patches !== undefined),
    'the compacted history holds patches',
  );
  // What a version that knows no `patches` reads of the same log.
  writeFileSync(join(dataDir, LOG), records.map(({ patches: _, ...record }) => JSON.stringify(record) + '\n').join(''));
  assert.not.match(readFileSync(join(dataDir, LOG), 'utf8'), /"history":\[[^\]]*"o":/, 'no patch in "history"');
  const reopened = await Store.open({ dataDir, autoCompact: false });
  try {
    const seen = brief(await reopened.history.steps(URN));
    assert.ok(seen.length > 0 && seen.length < truth.length, `${seen.length} of ${truth.length} steps`);
    for (const step of seen)
      assert.ok(
        truth.some((true_) => JSON.stringify(true_) === JSON.stringify(step)),
        step.actor,
      );
    // The last value is kept whole: no step appears at the compaction's time, by its actor.
    assert.equal(seen.at(-1), truth.at(-1));
    assert.equal(reopened.catalogue.aspect(URN, WIDE), columns(11));
  } finally {
    await reopened.close();
  }
});

fields('`minihub compact` keeps the same history fields as a running store, reading the state from disk', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir, autoCompact: false });
  // Two wide tables edited in turn; the second goes back to an earlier value at the end.
  for (let edit = 0; edit < 10; edit++) {
    await store.commit('edit', ROOT, () => [
      { urn: URN, aspect: WIDE, value: columns(edit) },
      { urn: OTHER, aspect: WIDE, value: columns(edit === 9 ? 3 : edit + 20) },
    ]);
  }
  await store.close();
  const copy = tempDataDir();
  copyFileSync(join(dataDir, LOG), join(copy, LOG));
  const viaStore = await Store.open({ dataDir, autoCompact: false });
  await viaStore.compact();
  await viaStore.close();
  await withOfflineLog(copy, () => {}, compactOffline);
  // Compaction stamps its state records with the time it ran.
  const logOf = (dir: string) =>
    readFileSync(join(dir, LOG), 'utf8').replace(/"time":\d+,("actor":"[^"]*","op":"compact")/g, '"time":0,$1');
  assert.match(logOf(dataDir), /"patches":/);
  assert.is(logOf(copy), logOf(dataDir));
});

fields.run();
