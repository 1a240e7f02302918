// Compaction's history pass takes a logged column edit as the edit, changing its aspect in place
// (src/history/compaction-state.ts): it must write exactly what following every step's whole value
// writes (TrackedState and historyFields on whole values), and never change a value it has handed out.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { historyRecords, stateValueTest, type IsStateValue } from '../src/history/log-access.ts';
import { allChanges, candidateRecords, TrackedState } from '../src/history/tracked-records.ts';
import { historyFields } from '../src/history/value-patch.ts';
import type { LogRecord } from '../src/store/log-record.ts';

const edits = suite('history of column edits kept as edits');

const URNS = [0, 1, 2].map((n) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${n},PROD)`);
// A path long enough that a patch of the step may be shorter than the edit.
const LONG = 'a.very.long.nested.column.path.that.takes.more.room.than.its.patch';
const PATHS = ['a', 'b', 'c', LONG];
// Descriptions of one length: values that differ but whose texts are as long as the state's.
const DESCRIPTIONS = ['p', 'q', 'r', 'longer one', ''];

/** A small deterministic generator, so a failure can be run again. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor((state / 2147483648) * below);
  };
}

function wholeValue(pick: (below: number) => number): JsonValue {
  const shape = pick(12);
  if (shape === 0) return { created: { time: 1 } };
  if (shape === 1) return 'not an object';
  // A long entry now and then: a value long enough that a patch of a step may be kept instead of the edit.
  const list: JsonValue[] = pick(2) === 0 ? [{ fieldPath: 'pad', description: 'z'.repeat(120) }] : [];
  for (let count = pick(5); count > 0; count--) {
    const entry: Record<string, JsonValue> = { fieldPath: PATHS[pick(PATHS.length)] as string };
    if (pick(3) > 0) entry.description = DESCRIPTIONS[pick(DESCRIPTIONS.length)] as string;
    if (pick(4) === 0) entry.globalTags = { tags: [{ tag: 'urn:li:tag:pii' }] };
    // Entries with the description first, and some that are not objects (an edit drops them).
    list.push(pick(6) === 0 ? { description: 'first', ...entry } : pick(15) === 0 ? 7 : entry);
  }
  return shape === 2 ? { editableSchemaFieldInfo: list, created: { time: 2 } } : { editableSchemaFieldInfo: list };
}

function randomLog(seed: number, count: number): string {
  const pick = random(seed);
  const lines: string[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const changes: object[] = [];
    for (let n = pick(10) === 0 ? 3 : 1; n > 0; n--) {
      const urn = URNS[pick(URNS.length)] as string;
      const kind = pick(10);
      if (kind === 0) changes.push({ urn, aspect: 'editableSchemaMetadata', value: wholeValue(pick) });
      else if (kind === 1)
        changes.push({ urn, aspect: 'editableDatasetProperties', value: { description: `d${pick(3)}` } });
      else {
        const columnEdit = {
          fieldPath: PATHS[pick(PATHS.length)],
          description: DESCRIPTIONS[pick(DESCRIPTIONS.length)],
        };
        changes.push({ urn, aspect: 'editableSchemaMetadata', columnEdit });
      }
    }
    lines.push(JSON.stringify({ seq, time: 1000 + seq, actor: 'urn:li:corpuser:u', op: 'edit', changes }));
  }
  return lines.join('\n') + '\n';
}

async function* chunksOf(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text);
}

type Written = Omit<LogRecord, 'seq'>;

/** What compaction wrote before the edit path: every step's whole value followed, then historyFields. */
async function wholeStepsHistory(log: string, isStateValue: IsStateValue): Promise<string[]> {
  const tracked = new TrackedState();
  const written: string[] = [];
  for await (const record of candidateRecords(chunksOf(log))) {
    const changes = tracked.step(allChanges(record));
    if (changes.length === 0) continue;
    const { time, actor, op } = record;
    written.push(JSON.stringify({ time, actor, op, changes: [], ...historyFields(changes, isStateValue) }));
  }
  return written;
}

/** Each tracked aspect's last value in `log`: the state a compaction writes after the history. */
async function stateOf(log: string): Promise<(urn: string, aspect: string) => JsonValue | undefined> {
  const tracked = new TrackedState();
  const state = new Map<string, JsonValue>();
  for await (const record of candidateRecords(chunksOf(log))) {
    for (const { urn, aspect, value } of tracked.step(allChanges(record))) state.set(`${urn}\u0000${aspect}`, value);
  }
  return (urn, aspect) => state.get(`${urn}\u0000${aspect}`);
}

/** The history records as written, each also as its text when it was given (before the pass went on). */
async function compactedHistory(log: string, isStateValue: IsStateValue): Promise<[Written[], string[]]> {
  const records: Written[] = [];
  const texts: string[] = [];
  for await (const record of historyRecords(chunksOf(log), isStateValue)) {
    records.push(record);
    texts.push(JSON.stringify(record));
  }
  return [records, texts];
}

edits('random logs of column edits: the same history records as following whole values', async () => {
  let kept = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const log = randomLog(seed, 120);
    const isState = stateValueTest(await stateOf(log));
    const [records, texts] = await compactedHistory(log, stateValueTest(await stateOf(log)));
    assert.equal(texts, await wholeStepsHistory(log, isState), `seed ${seed}`);
    // A value written whole was not changed by the edits read after it.
    assert.equal(
      records.map((record) => JSON.stringify(record)),
      texts,
      `seed ${seed}: a value changed after it was written`,
    );
    kept += texts.filter((text) => text.includes('"columnEdit"')).length;
  }
  assert.ok(kept > 1000, `column edits kept as edits: ${kept}`);
});

edits('a compacted log compacted again: the same history records', async () => {
  for (let seed = 100; seed <= 130; seed++) {
    const log = randomLog(seed, 80);
    const state = await stateOf(log);
    const [, texts] = await compactedHistory(log, stateValueTest(state));
    // The history records, then the state as compaction writes it, then more edits.
    const stateLines = URNS.flatMap((urn) =>
      ['editableSchemaMetadata', 'editableDatasetProperties'].flatMap((aspect) => {
        const value = state(urn, aspect);
        return value === undefined
          ? []
          : [JSON.stringify({ time: 1, actor: 'a', op: 'compact', changes: [{ urn, aspect, value }] })];
      }),
    );
    const more = randomLog(seed + 1000, 40)
      .trimEnd()
      .split('\n');
    const again = [...texts, ...stateLines, ...more].map((line, index) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ seq: index + 1, ...record });
    });
    const log2 = again.join('\n') + '\n';
    const isState = stateValueTest(await stateOf(log2));
    const [, texts2] = await compactedHistory(log2, stateValueTest(await stateOf(log2)));
    assert.equal(texts2, await wholeStepsHistory(log2, isState), `seed ${seed}`);
  }
});

edits('an edit that leaves the state value keeps it whole, and later edits do not change it', async () => {
  const [urn] = URNS as [string];
  const aspect = 'editableSchemaMetadata';
  const edit = (description: string) => ({ urn, aspect, columnEdit: { fieldPath: 'a', description } });
  const log = [
    { changes: [{ urn, aspect, value: { editableSchemaFieldInfo: [{ fieldPath: 'a' }, { fieldPath: 'b' }] } }] },
    { changes: [edit('p')] },
    { changes: [edit('q')] },
    { changes: [edit('p')] },
  ]
    .map((record, index) => JSON.stringify({ seq: index + 1, time: index, actor: 'u', op: 'edit', ...record }))
    .join('\n');
  const state: JsonValue = { editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'p' }, { fieldPath: 'b' }] };
  const [records] = await compactedHistory(
    log + '\n',
    stateValueTest(() => state),
  );
  assert.equal(
    records.map(({ history, patches }) => ({ history, patches })),
    [
      {
        history: [{ urn, aspect, value: { editableSchemaFieldInfo: [{ fieldPath: 'a' }, { fieldPath: 'b' }] } }],
        patches: undefined,
      },
      { history: [{ urn, aspect, value: state }], patches: undefined },
      { history: undefined, patches: [edit('q')] },
      { history: [{ urn, aspect, value: state }], patches: undefined },
    ],
  );
});

edits.run();
