// The replay worker's plan is condensed (an aspect set again and again is handed over once), and must still
// give the catalogue a replay on one thread gives: values, entity and aspect order, containers' lists.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Catalogue } from '../src/store/catalogue.ts';
import { deferLongLines } from '../src/store/fast-start/lazy-lines.ts';
import { applyPlan, readLines } from '../src/store/fast-start/parallel-replay.ts';
import { replayPart, transferList } from '../src/store/fast-start/replay-part.ts';
import { forEachPlannedChange, PlanBuilder } from '../src/store/fast-start/replay-plan.ts';
import { readRecords } from '../src/store/log-lines.ts';
import { COLUMN_EDIT_ASPECT, type LoggedChange } from '../src/store/log-record.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
import { replayOnOneThread } from '../src/store/replay.ts';
import { replayWithWorkHere } from './fixtures/replay-here.ts';
import { tempDataDir } from './fixtures/server.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

const test = suite('replay plan');
const OP_WIDTH = 4;

const set = (urn: string, aspect: string, value: unknown): LoggedChange =>
  ({ urn, aspect, value }) as unknown as LoggedChange;
const edit = (urn: string, description: string): LoggedChange =>
  ({ urn, aspect: COLUMN_EDIT_ASPECT, columnEdit: { fieldPath: 'id', description } }) as unknown as LoggedChange;

/** Every change the plan hands over, in order, as [urn, aspect, value or "edit"]. */
function visited(changes: LoggedChange[][]): [string, string, unknown][] {
  const builder = new PlanBuilder(0);
  for (const record of changes) builder.add(record, JSON.stringify(record), 0);
  const plan = builder.finish();
  const out: [string, string, unknown][] = [];
  forEachPlannedChange(plan, [], (urn, aspect, value, columnEdit) =>
    out.push([urn, aspect, columnEdit === null ? value : 'edit']),
  );
  assert.is(plan.ops.length / OP_WIDTH, out.length);
  return out;
}

test('hands an aspect set again and again over once, where it was first set, with its last value', () => {
  const changes = [
    [set('urn:a', 'p', { n: 1 })],
    [set('urn:b', 'p', { n: 2 })],
    [set('urn:a', 'q', { n: 3 })],
    [set('urn:a', 'p', { n: 4 })],
    [set('urn:b', 'p', { n: 5 })],
    [set('urn:a', 'p', { n: 6 })],
  ];
  assert.equal(visited(changes), [
    ['urn:a', 'p', { n: 6 }],
    ['urn:b', 'p', { n: 5 }],
    ['urn:a', 'q', { n: 3 }],
  ]);
});

test('keeps every change of an entity with a removal, every value of a container aspect, and every change of an aspect edited on the other side', () => {
  const replaced = { replacedLater: true };
  const changes = [
    [set('urn:gone', 'p', { n: 1 })],
    [set('urn:gone', 'q', null)],
    [set('urn:gone', 'p', { n: 2 })],
    [set('urn:c', 'container', { container: 'urn:li:container:x' })],
    [set('urn:c', 'container', { container: 'urn:li:container:y' })],
    [edit('urn:e', 'first')],
    [set('urn:e', COLUMN_EDIT_ASPECT, { editableSchemaFieldInfo: [] })],
    [edit('urn:e', 'second')],
  ];
  const [last, ...rest] = visited(changes).reverse();
  assert.equal(rest.reverse(), [
    ['urn:gone', 'p', replaced],
    ['urn:gone', 'q', null],
    ['urn:gone', 'p', { n: 2 }],
    // Every value of a container aspect: each moves the entity in its container's list.
    ['urn:c', 'container', { container: 'urn:li:container:x' }],
    ['urn:c', 'container', { container: 'urn:li:container:y' }],
    // The first edit, replaced later, is not applied but keeps its place; the second is built onto the value.
    ['urn:e', COLUMN_EDIT_ASPECT, replaced],
    ['urn:e', COLUMN_EDIT_ASPECT, replaced],
  ]);
  assert.equal(last, [
    'urn:e',
    COLUMN_EDIT_ASPECT,
    { editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'second' }] },
  ]);
});

/** A log of repeated sets to many entities, a few of them removed and back, containers moved, columns edited, long lines. */
function repetitiveLog(seed: number, records: number): string {
  const next = seededRandom(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const lines: string[] = [];
  for (let seq = 1; seq <= records; seq++) {
    const urn = `urn:li:dataset:d${pick(60)}`;
    const roll = next();
    let changes: unknown[];
    if (roll < 0.05) changes = [{ urn: `urn:li:dataset:d${pick(5)}`, aspect: 'ownership', value: null }];
    else if (roll < 0.15)
      changes = [{ urn, aspect: 'container', value: { container: `urn:li:container:c${pick(3)}` } }];
    else if (roll < 0.25)
      changes = [{ urn, aspect: COLUMN_EDIT_ASPECT, columnEdit: { fieldPath: `f${pick(3)}`, description: `d${seq}` } }];
    else if (roll < 0.3)
      changes = Array.from({ length: 40 }, (_, i) => ({
        urn: `urn:li:dataset:d${pick(60)}`,
        aspect: 'datasetProperties',
        value: { name: `long ${seq}/${i} ✓ `.repeat(8) },
      }));
    else
      changes = [{ urn, aspect: pick(2) === 0 ? 'datasetProperties' : 'ownership', value: { seq, note: `n${seq}` } }];
    lines.push(
      JSON.stringify({ seq, time: 1_700_000_000_000 + seq, actor: 'urn:li:corpuser:datahub', op: 'test', changes }),
    );
  }
  return lines.join('\n') + '\n';
}

const state = (catalogue: Catalogue) => ({
  entities: [...catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]),
  containers: [0, 1, 2].map((c) => [...catalogue.contained(`urn:li:container:c${c}`)]),
});

test('gives the catalogue a one-thread replay gives, on a log that sets the same aspects over and over', async () => {
  for (const seed of [11, 12, 13]) {
    const path = join(tempDataDir(), 'catalogue.jsonl');
    writeFileSync(path, repetitiveLog(seed, 1500));
    const one = new Catalogue();
    await replayOnOneThread(path, nodeLogFileSystem, one);
    const { catalogue, replayed } = await replayWithWorkHere(path);
    assert.ok(replayed.inWorker, 'the second half went through a plan');
    assert.ok(state(one).entities.length >= 50, `seed ${seed} leaves many entities`);
    assert.equal(state(catalogue), state(one), `seed ${seed}`);
  }
});

/** A short log over four entities: sets, removals, column edits, container moves, long lines (values kept as text). */
function tangledLog(next: () => number): string[] {
  const pick = (n: number) => Math.floor(next() * n);
  const change = (seq: number, i: number, long: boolean): unknown => {
    const urn = `urn:li:dataset:u${pick(4)}`;
    const aspect = ['p', 'q', 'container', COLUMN_EDIT_ASPECT][pick(4)] as string;
    const roll = next();
    if (roll < 0.12) return { urn, aspect, value: null };
    if (aspect === 'container') return { urn, aspect, value: { container: `urn:li:container:c${pick(3)}` } };
    if (aspect === COLUMN_EDIT_ASPECT && roll < 0.6)
      return { urn, aspect, columnEdit: { fieldPath: `f${pick(2)}`, description: `d${seq}.${i}` } };
    const pad = long ? 'x'.repeat(1400) : '';
    if (aspect === COLUMN_EDIT_ASPECT)
      return { urn, aspect, value: { editableSchemaFieldInfo: [{ fieldPath: 'f0', description: `v${seq}${pad}` }] } };
    return { urn, aspect, value: { seq, i, pad } };
  };
  return Array.from({ length: 4 + pick(14) }, (_, n) => {
    const seq = n + 1;
    const long = next() < 0.25;
    const changes = Array.from({ length: long ? 4 : 1 + pick(2) }, (_, i) => change(seq, i, long));
    // A long line must reach the length from which its values stay text, whatever its changes are.
    if (long) changes.push({ urn: 'urn:li:dataset:u0', aspect: 'pad', value: { pad: 'y'.repeat(4200) } });
    return JSON.stringify({
      seq,
      time: 1_700_000_000_000 + seq,
      actor: 'urn:li:corpuser:datahub',
      op: 'test',
      changes,
    });
  });
}

test('gives a one-thread replay’s catalogue wherever the log is split, on 150 tangled logs', async () => {
  const next = seededRandom(31);
  const path = join(tempDataDir(), 'catalogue.jsonl');
  for (let round = 0; round < 150; round++) {
    const lines = tangledLog(next);
    writeFileSync(path, lines.join('\n') + '\n');
    const at = 1 + Math.floor(next() * (lines.length - 1));
    const split = Buffer.byteLength(lines.slice(0, at).join('\n') + '\n');
    const one = new Catalogue();
    await replayOnOneThread(path, nodeLogFileSystem, one);
    // This thread's part as parallel-replay.ts replays it, then the worker's plan, handed over as postMessage would.
    const two = new Catalogue();
    await readRecords(nodeLogFileSystem.readChunks(path, { end: split }), deferLongLines(two));
    const worked = await replayPart({ path, start: split });
    const answer = structuredClone(worked, { transfer: transferList(worked) });
    if (answer.kind !== 'done') throw new Error(`round ${round}: ${answer.problem}`);
    applyPlan(answer.plan, readLines(path, answer.plan.lines), two);
    assert.equal(state(two), state(one), `round ${round}, split before line ${at + 1}`);
  }
});

test.run();
