// Compaction keeps a step of a column's edited description as the edit that makes it (in `patches`), when
// that is the smallest exact form: getTimeline answers the same after it and after a restart, `minihub
// compact` writes the same bytes as a running store, a reader of `history` alone sees true steps only,
// and a step costs the compacted log about what its own line cost.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { JsonObject, JsonValue } from '../src/aspects/json.ts';
import type { HistoryStep } from '../src/history/history-index.ts';
import { withColumnDescription } from '../src/store/column-edit.ts';
import type { LogRecord, LoggedRecord } from '../src/store/log-record.ts';
import { compactOffline, withOfflineLog } from '../src/store/offline.ts';
import { Store } from '../src/store/store.ts';
import { startTestServer, tempDataDir } from './fixtures/server.ts';
import { seededRandom } from './fixtures/seeded-random.ts';
import { transactionsOf } from './fixtures/timeline.ts';

const LOG = 'catalogue.jsonl';
const SCHEMA = 'editableSchemaMetadata';
const URNS = [0, 1, 2].map((i) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`);
// A column whose path is longer than a patch of its entry: that step is kept as a patch, not as the edit.
const LONG = 'deeply.nested.'.repeat(20) + 'field';
const COLUMNS = ['a', 'b', 'c', 'd', LONG];

const line = (seq: number, changes: unknown[]) =>
  JSON.stringify({ seq, time: 1_000_000 + seq * 1000, actor: `urn:li:corpuser:u${seq % 3}`, op: 'edit', changes });

/**
 * A log of column edits on three datasets: logged as the edit alone and, as versions before that form
 * logged them, whole; among them values no edit makes (a column's tags), removals, and records of two.
 */
function editLog(seed: number, records: number): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const state = new Map<string, JsonValue>();
  const lines = URNS.map((urn, i) => line(i + 1, [{ urn, aspect: 'status', value: { removed: false } }]));
  const change = (seq: number) => {
    const urn = pick(URNS);
    const roll = next();
    const edit = { fieldPath: pick(COLUMNS), description: `edit ${seq} — ${'words '.repeat(Math.floor(next() * 8))}` };
    let value: JsonValue = withColumnDescription(state.get(urn), edit);
    let logged: unknown = { urn, aspect: SCHEMA, value };
    if (roll < 0.55) logged = { urn, aspect: SCHEMA, columnEdit: edit };
    else if (roll < 0.8) {
      // Logged whole, as before the edit form.
    } else if (roll < 0.93) {
      const entries = (value as JsonObject).editableSchemaFieldInfo as JsonObject[];
      value = {
        ...value,
        editableSchemaFieldInfo: entries.map((entry) => ({ ...entry, globalTags: { tags: [seq] } })),
      };
      logged = { urn, aspect: SCHEMA, value };
    } else {
      value = null;
      logged = { urn, aspect: SCHEMA, value };
    }
    if (value === null) state.delete(urn);
    else state.set(urn, value);
    return logged;
  };
  for (let seq = URNS.length + 1; lines.length < records; seq++) {
    lines.push(line(seq, next() < 0.1 ? [change(seq), change(seq)] : [change(seq)]));
  }
  return lines;
}

function logDir(lines: readonly string[]): string {
  const dataDir = tempDataDir();
  writeFileSync(join(dataDir, LOG), lines.join('\n') + '\n');
  return dataDir;
}

const recordsOf = (dataDir: string): LoggedRecord[] =>
  readFileSync(join(dataDir, LOG), 'utf8')
    .trimEnd()
    .split('\n')
    .map((text) => JSON.parse(text) as LoggedRecord);

const brief = (steps: readonly HistoryStep[]) =>
  steps.map(({ time, actor, changes }) => ({
    time,
    actor,
    changes: changes.map(({ urn, value }) => ({ urn, value })),
  }));

const edits = suite('column edits through compaction');

for (const seed of [1, 2]) {
  edits(
    `a log of column edits, alone and whole (seed ${seed}): the same getTimeline compacted and restarted`,
    async () => {
      const dataDir = logDir(editLog(seed, 130));
      const first = await startTestServer({ dataDir });
      const timelines: unknown[] = [];
      const steps: unknown[] = [];
      try {
        for (const urn of URNS) {
          timelines.push(await transactionsOf(first, { urn }));
          steps.push(await first.store.history.steps(urn));
        }
        assert.ok(steps.every((list) => (list as unknown[]).length > 20));
        await first.store.compact();
        const records = recordsOf(dataDir);
        const kept = records.flatMap(({ patches }) => patches ?? []);
        assert.ok(kept.filter((entry) => 'columnEdit' in entry).length > 50, 'steps kept as their edits');
        assert.ok(
          kept.some((entry) => 'value' in entry && JSON.stringify(entry.value).includes('"description"')),
          'a step of the long column kept as a patch, shorter than its edit',
        );
        for (const { changes, history } of records) {
          assert.not.match(JSON.stringify([changes, history]), /columnEdit/, 'the state and `history` hold values');
        }
        for (const [i, urn] of URNS.entries()) {
          assert.equal(await transactionsOf(first, { urn }), timelines[i]);
        }
      } finally {
        await first.close();
      }
      const second = await startTestServer({ dataDir });
      try {
        for (const [i, urn] of URNS.entries()) {
          assert.equal(await transactionsOf(second, { urn }), timelines[i], 'the same after a restart');
          assert.equal(await second.store.history.steps(urn), steps[i], 'the same values and values before');
        }
      } finally {
        await second.close();
      }
    },
  );

  edits(`\`minihub compact\` writes the same bytes as a running store (seed ${seed})`, async () => {
    const lines = editLog(seed + 10, 130);
    const [viaStore, viaLog] = [logDir(lines), logDir(lines)];
    const store = await Store.open({ dataDir: viaStore, autoCompact: false });
    const expected = await store.compact();
    await store.close();
    assert.equal(await withOfflineLog(viaLog, () => {}, compactOffline), expected);
    // Compaction stamps its state records with the time it ran.
    const text = (dir: string) =>
      readFileSync(join(dir, LOG), 'utf8').replace(/"time":\d+,("actor":"[^"]*","op":"compact")/g, '"time":0,$1');
    assert.match(text(viaStore), /"patches":\[[^\n]*"columnEdit"/);
    assert.is(text(viaLog), text(viaStore));
  });
}

edits('a reader of "history" alone sees fewer steps, each a true one, ending on the state', async () => {
  const dataDir = logDir(editLog(3, 130));
  const store = await Store.open({ dataDir, autoCompact: false });
  const truth = await Promise.all(URNS.map(async (urn) => brief(await store.history.steps(urn))));
  const state = URNS.map((urn) => store.catalogue.aspect(urn, SCHEMA));
  await store.compact();
  await store.close();
  const records = recordsOf(dataDir);
  assert.ok(records.some(({ patches }) => patches?.some((entry) => 'columnEdit' in entry)));
  // What a version that knows no `patches` reads of the same log.
  writeFileSync(join(dataDir, LOG), records.map(({ patches: _, ...record }) => JSON.stringify(record) + '\n').join(''));
  const reopened = await Store.open({ dataDir, autoCompact: false });
  try {
    for (const [i, urn] of URNS.entries()) {
      const seen = brief(await reopened.history.steps(urn));
      const all = truth[i] as typeof seen;
      assert.ok(seen.length > 0 && seen.length < all.length, `${seen.length} of ${all.length} steps`);
      for (const step of seen)
        assert.ok(
          all.some((one) => JSON.stringify(one) === JSON.stringify(step)),
          step.actor,
        );
      assert.equal(seen.at(-1), all.at(-1), 'no step at the compaction time');
      assert.equal(reopened.catalogue.aspect(urn, SCHEMA), state[i]);
    }
  } finally {
    await reopened.close();
  }
});

/** A log of `count` column edits on the three datasets, each logged as the edit alone or whole. */
function editsOnly(count: number, whole: boolean): string[] {
  const next = seededRandom(count);
  const state = new Map<string, JsonValue>();
  const lines = URNS.map((urn, i) => line(i + 1, [{ urn, aspect: 'status', value: { removed: false } }]));
  for (let seq = URNS.length + 1; lines.length < count + URNS.length; seq++) {
    const urn = URNS[seq % URNS.length] as string;
    const edit = { fieldPath: `column_${Math.floor(next() * 20)}`, description: `edit ${seq}` };
    const value = withColumnDescription(state.get(urn), edit);
    state.set(urn, value);
    lines.push(line(seq, [whole ? { urn, aspect: SCHEMA, value } : { urn, aspect: SCHEMA, columnEdit: edit }]));
  }
  return lines;
}

edits('a log of column edits logged whole compacts to a fraction of its size', async () => {
  const dataDir = logDir(editsOnly(300, true));
  const store = await Store.open({ dataDir, autoCompact: false });
  const { bytesBefore, bytesAfter } = await store.compact();
  await store.close();
  assert.ok(bytesAfter < bytesBefore / 3, `${bytesBefore} → ${bytesAfter} bytes`);
});

edits('a column edit logged alone costs its compacted log at most `"changes":[],` more than its own line', async () => {
  const lines = editsOnly(300, false);
  const dataDir = logDir(lines);
  const store = await Store.open({ dataDir, autoCompact: false });
  const stateBytes = URNS.reduce((sum, urn) => sum + JSON.stringify(store.catalogue.aspect(urn, SCHEMA)).length, 0);
  const { bytesBefore, bytesAfter } = await store.compact();
  await store.close();
  const compacted = readFileSync(join(dataDir, LOG), 'utf8').trimEnd().split('\n');
  const byTime = new Map(lines.map((text) => [(JSON.parse(text) as LogRecord).time, text.length]));
  let asEdits = 0;
  for (const text of compacted) {
    const { time, patches } = JSON.parse(text) as LoggedRecord;
    if (patches === undefined) continue;
    assert.ok(patches.length === 1 && 'columnEdit' in (patches[0] as object), text);
    assert.ok(text.length <= (byTime.get(time) as number) + '"changes":[],'.length, text);
    asEdits++;
  }
  // Each aspect's last step stays whole in `history`, so a version that reads only it ends on the state.
  assert.is(asEdits, 300 - URNS.length);
  // Beside the steps, the log holds the edited aspects twice: in the state and as their last steps.
  const bound = bytesBefore + 300 * '"changes":[],'.length + 2 * stateBytes + URNS.length * 200;
  assert.ok(bytesAfter <= bound, `${bytesBefore} → ${bytesAfter} bytes, bound ${bound}`);
  assert.is(statSync(join(dataDir, LOG)).size, bytesAfter);
});

edits.run();
