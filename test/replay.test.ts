// Replay of a large log on two threads (the second half on a worker) must give exactly the catalogue a
// replay on one thread gives: values, removals, entity and aspect order, line numbers in errors. Tests of
// a behaviour of the thread itself open a Store; the rest do the worker's work here (fixtures/replay-here.ts).

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Catalogue } from '../src/store/catalogue.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
import { BadLine } from '../src/store/log-lines.ts';
import { DEFERRED_LINE_CHARS } from '../src/store/fast-start/lazy-lines.ts';
import { parallelReplay, type ReplayWorker, type WorkerRequest } from '../src/store/fast-start/parallel-replay.ts';
import { replayFailure } from '../src/store/file-log.ts';
import { replayOnOneThread } from '../src/store/replay.ts';
import { Store } from '../src/store/store.ts';
import { replayWithWorkHere, workOnThisThread } from './fixtures/replay-here.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

const LOG = 'catalogue.jsonl';
const ALWAYS = 0;
const NEVER = Infinity;

type Change = { urn: string; aspect: string; value: unknown };

/**
 * Log lines that stress what a condensed replay could get wrong: many writes to few keys, removals of
 * aspects and of whole entities that later come back, long lines (kept as text) whose changes are
 * partly replaced later, and non-ASCII text before long lines (byte and character positions differ).
 */
function mixedLog(seed: number, records: number): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const urns = Array.from({ length: 12 }, (_, i) => `urn:li:tag:t${i}`);
  const aspects = ['tagProperties', 'ownership', 'status'];
  const lines: string[] = [];
  for (let seq = 1; seq <= records; seq++) {
    const roll = next();
    let changes: Change[];
    if (roll < 0.1) {
      // A long line: many changes, some to the same key twice, one removal.
      changes = Array.from({ length: 30 }, (_, i) => ({
        urn: pick(urns),
        aspect: pick(aspects),
        value: { seq, i, text: `long ✓ ${seq}/${i} `.repeat(12) },
      }));
      changes.push({ urn: pick(urns), aspect: pick(aspects), value: null });
    } else if (roll < 0.25) {
      const urn = pick(urns);
      changes = aspects.map((aspect) => ({ urn, aspect, value: null }));
    } else if (roll < 0.35) {
      changes = [{ urn: pick(urns), aspect: pick(aspects), value: null }];
    } else {
      changes = [
        {
          urn: pick(urns),
          aspect: pick(aspects),
          value: { seq, note: next() < 0.3 ? `naïve café ${seq} — ✓` : `plain ${seq}` },
        },
      ];
    }
    lines.push(
      JSON.stringify({ seq, time: 1_700_000_000_000 + seq, actor: 'urn:li:corpuser:datahub', op: 'test', changes }),
    );
  }
  assert.ok(
    lines.some((line) => line.length >= DEFERRED_LINE_CHARS),
    'some lines are long enough to be kept as text',
  );
  return lines;
}

function logDir(lines: readonly string[], tail = ''): string {
  const dir = tempDataDir();
  writeFileSync(join(dir, LOG), lines.join('\n') + '\n' + tail);
  return dir;
}

/** The catalogue as plain data, in its own order: [urn, [[aspect, value], …]] per entity. */
function snapshot({ catalogue }: Pick<Store, 'catalogue'>): [string, [string, unknown][]][] {
  return [...catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]);
}

async function opened<T>(dataDir: string, parallelReplayBytes: number, look: (store: Store) => T): Promise<T> {
  const store = await Store.open({ dataDir, parallelReplayBytes });
  try {
    return look(store);
  } finally {
    await store.close();
  }
}

async function openFails(dataDir: string): Promise<string> {
  try {
    await Store.open({ dataDir, parallelReplayBytes: ALWAYS });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the open was expected to fail');
}

/** openFails with the worker's work on this thread (see replay-here.ts): the message Store.open would give. */
async function replayFailsHere(dataDir: string): Promise<string> {
  const path = join(dataDir, LOG);
  try {
    await replayWithWorkHere(path);
  } catch (error) {
    return (replayFailure(path, error) as Error).message;
  }
  throw new Error('the replay was expected to fail');
}

type Look = { worker: boolean; records: number; state: ReturnType<typeof snapshot> };

const twoThreads = suite('replay on two threads');

twoThreads('gives the catalogue a one-thread replay gives, entity and aspect order included', async () => {
  const look = (store: Store): Look => ({
    worker: store.replayedInWorker,
    records: store.recordCount,
    state: snapshot(store),
  });
  // The first seed opens a Store on a real worker thread; the others do the worker's work on this thread,
  // its answer handed over as postMessage would (a worker started from the sources costs ~0.25 s of CPU).
  const onTwoThreads = async (dir: string, seed: number): Promise<Look> => {
    if (seed === 1) return opened(dir, ALWAYS, look);
    const { catalogue, replayed } = await replayWithWorkHere(join(dir, LOG));
    return { worker: replayed.inWorker, records: replayed.records, state: snapshot({ catalogue }) };
  };
  for (const seed of [1, 2, 3, 4, 5]) {
    const dir = logDir(mixedLog(seed, 400));
    const copy = tempDataDir();
    cpSync(dir, copy, { recursive: true });
    const one = await opened(dir, NEVER, look);
    const two = await onTwoThreads(copy, seed);
    assert.is(one.worker, false);
    assert.is(two.worker, true, 'the second half was replayed on the worker');
    assert.is(two.records, 400);
    assert.ok(one.state.length > 0, `seed ${seed} leaves some entities`);
    assert.equal(two.state, one.state, `seed ${seed}`);
    // The store's plain one-thread replay (no values kept as text) gives the same catalogue too.
    const plain = new Catalogue();
    const replayed = await replayOnOneThread(join(dir, LOG), nodeLogFileSystem, plain);
    assert.is(replayed.records, 400);
    assert.equal(
      [...plain.entities()].map(([urn, aspects]) => [urn, [...aspects]]),
      one.state,
      `seed ${seed}, one thread`,
    );
  }
});

twoThreads('continues the log after the last record the worker read', async () => {
  const dir = logDir(mixedLog(7, 300));
  const store = await Store.open({ dataDir: dir, parallelReplayBytes: ALWAYS });
  try {
    await store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: 'urn:li:tag:after', aspect: 'status', value: { removed: false } },
    ]);
  } finally {
    await store.close();
  }
  const lines = readFileSync(join(dir, LOG), 'utf8').trimEnd().split('\n');
  assert.is(JSON.parse(lines.at(-1) as string).seq, 301);
});

twoThreads('names the file and line of a bad line in the worker’s half, counting the whole file', async () => {
  const lines = mixedLog(8, 200);
  lines[170] = '{"seq": 171, oops';
  const message = await openFails(logDir(lines));
  assert.match(message, new RegExp(`${LOG}:171: not valid JSON`));
});

twoThreads('names the line of bytes that are not UTF-8 in the worker’s half', async () => {
  const dir = logDir(mixedLog(9, 200).slice(0, 150));
  appendFileSync(
    join(dir, LOG),
    Buffer.concat([
      Buffer.from('{"seq":151,"time":1,"actor":"a","op":"b","changes":[],"x":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n'),
    ]),
  );
  const message = await replayFailsHere(dir);
  assert.match(message, new RegExp(`${LOG}:151: not valid UTF-8`));
});

twoThreads('reports a bad line in the first half before anything the worker found', async () => {
  const lines = mixedLog(10, 200);
  lines[20] = 'not json';
  lines[180] = 'not json either';
  assert.match(await openFails(logDir(lines)), new RegExp(`${LOG}:21: not valid JSON`));
});

twoThreads('cuts a torn last line in the worker’s half, as a one-thread replay does', async () => {
  const lines = mixedLog(11, 200);
  const warnings: string[] = [];
  const dir = logDir(
    lines,
    '{"seq":201,"time":1,"actor":"urn:li:corpuser:datahub","op":"test","changes":[{"urn":"urn:li:tag:torn"',
  );
  const store = await Store.open({
    dataDir: dir,
    parallelReplayBytes: ALWAYS,
    warn: (message) => warnings.push(message),
  });
  try {
    assert.is(store.replayedInWorker, true);
    assert.is(store.recordCount, 200);
    assert.is(store.catalogue.exists('urn:li:tag:torn'), false);
  } finally {
    await store.close();
  }
  assert.is(warnings.length, 1);
  assert.match(warnings[0] as string, /last line was incomplete/);
  assert.is(readFileSync(join(dir, LOG), 'utf8'), lines.join('\n') + '\n');
  assert.ok(readdirSync(dir).some((file) => file.includes('.torn-')));
});

twoThreads('a restarted server answers over HTTP as before when its log is replayed on two threads', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  const datasets = [...first.store.catalogue.entities()]
    .map(([urn]) => urn)
    .filter((urn) => urn.startsWith('urn:li:dataset:'));
  const query = `{ ${datasets.map((urn, i) => `d${i}: dataset(urn: ${JSON.stringify(urn)}) { urn editableProperties { description } properties { description } }`).join(' ')} kept: tag(urn: "urn:li:tag:kept") { properties { name } } }`;
  let before: unknown;
  try {
    assert.ok(datasets.length > 1, 'the sample has datasets to edit');
    for (let i = 0; i < 5; i++) await first.gql(`mutation { createTag(input: {id: "t${i}", name: "tag ${i}"}) }`);
    await first.gql('mutation { createTag(input: {id: "kept", name: "kept ✓"}) }');
    for (const [i, urn] of datasets.entries()) {
      for (const round of [1, 2]) {
        const reply = await first.gql(
          'mutation e($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }',
          { urn, input: { editableProperties: { description: `edit ${round} of ${i} — ✓` } } },
        );
        assert.is(reply.json.errors, undefined);
      }
    }
    before = (await first.gql(query)).json;
  } finally {
    await first.close();
  }
  assert.match(JSON.stringify(before), /edit 2 of 1 — ✓/);
  const second = await startTestServer({ dataDir, parallelReplayBytes: ALWAYS });
  try {
    assert.is(second.store.replayedInWorker, true);
    assert.equal((await second.gql(query)).json, before);
  } finally {
    await second.close();
  }
});

twoThreads('replays the rest on the main thread, with a warning, when the worker cannot run', async () => {
  const lines = mixedLog(12, 300);
  const dir = logDir(lines);
  const path = join(dir, LOG);
  const expected = await opened(dir, NEVER, snapshot);
  const warnings: string[] = [];
  const catalogue = new Catalogue();
  const failing = (): ReplayWorker => ({
    answer: Promise.reject(new Error('no threads here')),
    cancel: async () => {},
  });
  const replayed = await parallelReplay({
    fromBytes: ALWAYS,
    warn: (message) => warnings.push(message),
    start: failing,
  })(path, nodeLogFileSystem, catalogue);
  assert.is(replayed.inWorker, false);
  assert.is(replayed.records, 300);
  assert.is(replayed.lastSeq, 300);
  assert.equal(
    [...catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]),
    expected,
  );
  assert.equal(warnings, [`${path}: replaying on one thread; the replay worker failed: no threads here`]);

  // A bad line in the part replayed after the failure keeps its number in the whole file.
  lines[250] = '{"seq": 251, oops';
  writeFileSync(path, lines.join('\n') + '\n');
  try {
    await parallelReplay({ fromBytes: ALWAYS, warn: () => {}, start: failing })(
      path,
      nodeLogFileSystem,
      new Catalogue(),
    );
    assert.unreachable('the replay must fail');
  } catch (error) {
    assert.instance(error, BadLine);
    assert.is((error as BadLine).line, 251);
  }
});

twoThreads('opens a data directory with no log yet, whatever the threshold', async () => {
  const dir = tempDataDir();
  assert.is(await opened(dir, ALWAYS, (store) => store.recordCount), 0);
});

twoThreads('falls back the same way when the worker cannot even be started', async () => {
  const dir = logDir(mixedLog(13, 200));
  const warnings: string[] = [];
  const throwing = (): ReplayWorker => {
    throw new Error('Cannot find package tsx');
  };
  const replayed = await parallelReplay({
    fromBytes: ALWAYS,
    warn: (message) => warnings.push(message),
    start: throwing,
  })(join(dir, LOG), nodeLogFileSystem, new Catalogue());
  assert.is(replayed.records, 200);
  assert.is(replayed.inWorker, false);
  assert.match(warnings[0] as string, /replay worker failed: Cannot find package tsx/);
});

twoThreads('refuses a line that starts with a byte order mark, at the file’s start or the worker’s', async () => {
  // A decoder drops a BOM at the start of what it decodes, which would accept the line and shift every
  // byte position after it; wherever the file is cut, a BOM stays in the text and fails JSON.parse.
  const lines = mixedLog(14, 200);
  const size = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  let splitLine = 0;
  for (let start = 0; start <= size / 2; splitLine++) start += Buffer.byteLength(lines[splitLine] as string) + 1;
  const lineStarts = lines.map((_, n) => lines.slice(0, n).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0));
  // Where parallelReplay cuts the log for the worker (its share is its own), learnt through its seam.
  const workerStart = async (path: string): Promise<number> => {
    let start = -1;
    const spy = (request: WorkerRequest): ReplayWorker => ((start = request.start), workOnThisThread(request));
    await parallelReplay({ fromBytes: ALWAYS, warn: () => {}, start: spy })(
      path,
      nodeLogFileSystem,
      new Catalogue(),
    ).catch(() => {});
    return start;
  };
  const clean = logDir(lines);
  const workersFirst = lineStarts.indexOf(await workerStart(join(clean, LOG)));
  assert.ok(workersFirst > 0, 'the worker starts at a line');
  for (const at of [0, splitLine, workersFirst]) {
    const dir = tempDataDir();
    writeFileSync(
      join(dir, LOG),
      Buffer.concat(lines.map((line, n) => Buffer.from((n === at ? '\uFEFF' : '') + line + '\n'))),
    );
    const message = await replayFailsHere(dir);
    assert.match(message, new RegExp(`${LOG}:${at + 1}: not valid JSON`), `a BOM on line ${at + 1}`);
    if (at === workersFirst)
      assert.is(await workerStart(join(dir, LOG)), lineStarts[at], 'the worker starts at the BOM');
  }
});

twoThreads('reports the first bad line of a batch, bad JSON before bad UTF-8', async () => {
  const lines = mixedLog(15, 200);
  lines[160] = 'not json';
  const dir = tempDataDir();
  const bytes = lines.map((line, n) => (n === 190 ? Buffer.from([0xc3, 0x28, 0x0a]) : Buffer.from(line + '\n')));
  writeFileSync(join(dir, LOG), Buffer.concat(bytes));
  assert.match(await replayFailsHere(dir), new RegExp(`${LOG}:161: not valid JSON`));
});

twoThreads.run();
