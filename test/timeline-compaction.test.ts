// The history compaction keeps, written as patches of the value before: each gives back the exact value
// (text and key order), and a log of one-column edits of a wide table compacts to far less than the
// edits while getTimeline's steps stay the same, after a restart and after a second compaction; column
// edits logged as the edit alone compact to whole values in the state, the same getTimeline and, in the
// history, steps kept as their edits.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { JsonValue } from '../src/aspects/json.ts';
import { historyEntry, isPatched, patchedValue } from '../src/history/value-patch.ts';
import type { LoggedRecord } from '../src/store/log-record.ts';
import { Store } from '../src/store/store.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';
import { ORDERS, transactionsOf } from './fixtures/timeline.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:postgres,db.wide,PROD)';
const ASPECT = 'editableSchemaMetadata';
const ROOT = 'urn:li:corpuser:datahub';

const patches = suite('history values as patches');

const columns = (count: number, edited: Record<number, string> = {}) => ({
  editableSchemaFieldInfo: Array.from({ length: count }, (_, i) => ({
    fieldPath: `column_${i}`,
    description: edited[i] ?? `the description of column ${i}, long enough to matter`,
  })),
});

const cases: [string, JsonValue, JsonValue, boolean][] = [
  ['one item of a long array changed', columns(20), columns(20, { 7: 'new' }), true],
  ['an item appended', columns(20), columns(21), true],
  ['the last items removed', columns(20), columns(18), true],
  ['a key removed and one added', { ...columns(20), note: 'x' }, { ...columns(20), other: 1 }, true],
  ['a whole new value, shorter as it is', columns(20), { description: 'short' }, false],
  ['keys in another order', { a: 'a'.repeat(200), b: 1 }, { b: 2, a: 'a'.repeat(200) }, false],
  ['a string for an object', columns(3), 'text', false],
];
for (const [name, before, after, patched] of cases) {
  patches(`${name}: ${patched ? 'a patch' : 'the value'} that gives back the same text`, () => {
    const entry = historyEntry({ urn: URN, aspect: ASPECT, value: after }, before);
    assert.is(isPatched(entry), patched);
    const value = isPatched(entry) ? patchedValue(entry, before) : entry.value;
    assert.is(JSON.stringify(value), JSON.stringify(after));
    if (patched) assert.ok(JSON.stringify(entry).length < JSON.stringify(after).length / 2);
  });
}

patches('no patch without a value before', () => {
  assert.not.ok(isPatched(historyEntry({ urn: URN, aspect: ASPECT, value: columns(20) }, undefined)));
});

patches.run();

const compacted = suite('compacting one-column edits of a wide table');

compacted('keeps every step of the history in a fraction of the bytes, across restarts and compactions', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir, autoCompact: false });
  for (let edit = 0; edit < 60; edit++) {
    const edited = Object.fromEntries(Array.from({ length: edit % 20 }, (_, i) => [i, `edit ${edit - i}`]));
    await store.commit('updateDescription', ROOT, () => [{ urn: URN, aspect: ASPECT, value: columns(40, edited) }]);
  }
  const steps = await store.history.steps(URN);
  assert.is(steps.length, 60);
  const report = await store.compact();
  assert.ok(
    report.bytesAfter < report.bytesBefore / 4,
    `${report.bytesBefore} → ${report.bytesAfter} bytes: the history holds what changed, not 60 whole aspects`,
  );
  await store.close();
  const reopened = await Store.open({ dataDir });
  assert.equal(await reopened.history.steps(URN), steps, 'the same steps, values and values before');
  const again = await reopened.compact();
  assert.is(again.bytesAfter, report.bytesAfter, 'a second compaction writes the same history');
  await reopened.close();
  const third = await Store.open({ dataDir });
  try {
    assert.equal(await third.history.steps(URN), steps);
    assert.equal(third.catalogue.aspect(URN, ASPECT), steps.at(-1)?.changes[0]?.value);
    assert.match(readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8'), /"patches":\[/);
  } finally {
    await third.close();
  }
});

compacted('column edits logged as the edit alone: the same getTimeline after a compaction and a restart', async () => {
  const dataDir = tempDataDir();
  const UPDATE = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  let before: unknown;
  try {
    for (let edit = 0; edit < 12; edit++) {
      const subResource = ['customer_id', 'order_id', 'customer_id', 'status'][edit % 4] as string;
      const input = { description: `edit ${edit}`, resourceUrn: ORDERS, subResource, subResourceType: 'DATASET_FIELD' };
      const reply = await first.gql(UPDATE, { input });
      assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
    }
    const log = () => readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8');
    assert.is(log().match(/"columnEdit":/g)?.length, 12, 'each edit logged alone');
    before = await transactionsOf(first, { urn: ORDERS });
    assert.ok((before as unknown[]).length >= 12);
    await first.store.compact();
    const records = log()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LoggedRecord);
    for (const { changes, history } of records) {
      assert.not.match(JSON.stringify([changes, history]), /columnEdit/, 'the state and `history` hold values');
    }
    // A step is kept as its edit, in `patches`, where that is shorter than a patch of the value before.
    assert.ok(records.some(({ patches }) => patches?.some((change) => 'columnEdit' in change)));
    assert.equal(await transactionsOf(first, { urn: ORDERS }), before);
  } finally {
    await first.close();
  }
  const second = await startTestServer({ dataDir });
  try {
    assert.equal(await transactionsOf(second, { urn: ORDERS }), before, 'the same after a restart');
  } finally {
    await second.close();
  }
});

compacted.run();
