// Unit tests of the store's modules with no socket and no disk for the log: log lines and a torn tail,
// the file log's steps, the catalogue and its readers, and the commit queue, over an in-memory log.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { performance as realClock } from 'node:perf_hooks';

import { Catalogue, LazyValue, StagedChanges } from '../src/store/catalogue.ts';
import { CommitQueue, type PendingCommit } from '../src/store/commit-queue.ts';
import {
  LOG_FILE,
  openForAppend,
  removeInterruptedCompaction,
  replayFailure,
  rewriteLog,
} from '../src/store/file-log.ts';
import type { JsonValue } from '../src/aspects/json.ts';
import { BadLine, readRecords } from '../src/store/log-lines.ts';
import { parseLogRecord, type LogRecord } from '../src/store/log-record.ts';
import { replayOnOneThread } from '../src/store/replay.ts';
import { Store } from '../src/store/store.ts';
import { MemoryFileSystem } from './fixtures/memory-fs.ts';
import { turnsUnderFakeTimers } from './fixtures/fake-timers.ts';
import { tempDataDir } from './fixtures/server.ts';

const PATH = '/memory/catalogue.jsonl';
const ACTOR = 'urn:li:corpuser:datahub';

function line(
  seq: number,
  changes: LogRecord['changes'] = [{ urn: `urn:li:tag:t${seq}`, aspect: 'status', value: { removed: false } }],
): string {
  return JSON.stringify({ seq, time: 0, actor: ACTOR, op: 'test', changes });
}

function memoryLog(text: string | Buffer): MemoryFileSystem {
  const fs = new MemoryFileSystem();
  fs.files.set(PATH, Buffer.from(text));
  return fs;
}

async function readAll(
  fs: MemoryFileSystem,
): Promise<{ seqs: number[]; starts: number[]; read: Awaited<ReturnType<typeof readRecords>> }> {
  const seqs: number[] = [];
  const starts: number[] = [];
  const read = await readRecords(fs.readChunks(PATH), (record, _text, at) => {
    seqs.push(record.seq);
    starts.push(at);
  });
  return { seqs, starts, read };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

// ---

const lines = suite('log lines');

lines('reads records across chunk edges, with each line’s first byte counted in UTF-8', async () => {
  const first = line(1, [{ urn: 'urn:li:tag:café', aspect: 'status', value: { note: '✓ naïve' } }]);
  const { seqs, starts, read } = await readAll(memoryLog(`${first}\n${line(2)}\n`));
  assert.equal(seqs, [1, 2]);
  assert.equal(starts, [0, Buffer.byteLength(first) + 1]);
  assert.is(read.lastSeq, 2);
  assert.is(read.end, Buffer.byteLength(`${first}\n${line(2)}\n`));
});

lines('counts a blank line as a line but not as a record', async () => {
  const { read } = await readAll(memoryLog(`${line(1)}\n\n${line(2)}\n`));
  assert.is(read.lines, 3);
  assert.is(read.records, 2);
});

lines('leaves a last line without its newline as the torn tail, not a record', async () => {
  const whole = `${line(1)}\n`;
  const { seqs, read } = await readAll(memoryLog(whole + '{"seq":2,"ti'));
  assert.equal(seqs, [1]);
  assert.is(read.end, Buffer.byteLength(whole));
  assert.is(read.tail.toString(), '{"seq":2,"ti');
});

lines('stops at the first bad line with its number, passing on nothing after it', async () => {
  const error = await rejection(readAll(memoryLog(`${line(1)}\nnot json\n${line(3)}\n`)));
  assert.instance(error, BadLine);
  assert.is((error as BadLine).line, 2);
  assert.match(error.message, /not valid JSON/);
});

lines('refuses bytes that are not UTF-8', async () => {
  const bytes = Buffer.concat([Buffer.from(`${line(1)}\n"`), Buffer.from([0xff]), Buffer.from('"\n')]);
  const error = await rejection(readAll(memoryLog(bytes)));
  assert.is((error as BadLine).line, 2);
  assert.is(error.message, 'not valid UTF-8');
});

lines('parseLogRecord names the part of a record that is wrong', () => {
  assert.is(
    parseLogRecord(
      '{"seq":1,"time":0,"actor":"a","op":"o","changes":[{"urn":"u","aspect":"a","value":1},{"urn":"u"}]}',
    ),
    'expected changes[1] to be {urn, aspect, value}',
  );
  assert.is(parseLogRecord('{"seq":1.5}'), 'expected "seq" to be an integer');
  assert.is(parseLogRecord('[]'), 'expected a JSON object');
});

lines.run();

// ---

const fileLog = suite('file log steps');

async function opened(
  fs: MemoryFileSystem,
  warnings: string[] = [],
): Promise<Awaited<ReturnType<typeof openForAppend>>> {
  const replayed = await replayOnOneThread(PATH, fs, new Catalogue());
  return openForAppend({
    fs,
    dir: '/memory',
    path: PATH,
    replayed,
    release: () => {},
    warn: (message) => warnings.push(message),
  });
}

fileLog('cuts a torn tail off, saves it aside and warns', async () => {
  const whole = `${line(1)}\n`;
  const fs = memoryLog(whole + '{"seq":2');
  const warnings: string[] = [];
  const log = await opened(fs, warnings);
  assert.is(fs.text(PATH), whole);
  assert.is(log.size, Buffer.byteLength(whole));
  const aside = [...fs.files.keys()].find((path) => path.startsWith(`${PATH}.torn-`));
  assert.is(fs.text(aside as string), '{"seq":2');
  assert.match(warnings[0] as string, /last line was incomplete/);
});

fileLog('appends one JSON line per record, synced, and syncs the directory once', async () => {
  const fs = new MemoryFileSystem();
  const log = await opened(fs);
  const record = (seq: number): LogRecord => JSON.parse(line(seq)) as LogRecord;
  await log.append([record(1), record(2)]);
  await log.append([record(3)]);
  assert.is(fs.text(PATH), `${line(1)}\n${line(2)}\n${line(3)}\n`);
  assert.is(fs.syncs, 2);
  assert.is(fs.directorySyncs, 1);
  assert.is(log.size, fs.files.get(PATH)?.length);
});

fileLog('cuts a failed append back, so the log still ends on its last whole line', async () => {
  const fs = memoryLog(`${line(1)}\n`);
  const log = await opened(fs);
  fs.failNext('sync');
  await rejection(log.append([JSON.parse(line(2)) as LogRecord]));
  assert.is(fs.text(PATH), `${line(1)}\n`);
  assert.is(log.size, Buffer.byteLength(`${line(1)}\n`));
});

fileLog('rewrites the log in full through a temporary file it renames into place', async () => {
  const fs = memoryLog(`${line(1)}\n${line(2)}\n`);
  const log = await opened(fs);
  await rewriteLog(log, [JSON.parse(line(9)) as LogRecord]);
  assert.is(fs.text(PATH), `${line(9)}\n`);
  assert.equal([...fs.files.keys()], [PATH]);
  assert.is(log.size, Buffer.byteLength(`${line(9)}\n`));
});

fileLog('removes what an interrupted compaction left before replay, with a warning', async () => {
  const fs = memoryLog(`${line(1)}\n`);
  fs.files.set(`${PATH}.compact`, Buffer.from('half'));
  const warnings: string[] = [];
  await removeInterruptedCompaction(fs, PATH, (message) => warnings.push(message));
  assert.equal([...fs.files.keys()], [PATH]);
  assert.match(warnings[0] as string, /interrupted compaction/);
});

fileLog('tells a bad line as STORE_CORRUPT with the file and line', () => {
  const told = replayFailure(PATH, new BadLine(7, 'not valid JSON')) as Error & { code: string };
  assert.is(told.code, 'STORE_CORRUPT');
  assert.match(told.message, /catalogue\.jsonl:7: not valid JSON\. The log was not changed/);
  const other = new Error('EIO');
  assert.is(replayFailure(PATH, other), other);
});

fileLog.run();

// ---

const catalogue = suite('catalogue');

class CountedValue extends LazyValue {
  asked = 0;
  readonly logBytes = 123;
  readonly value: JsonValue;
  constructor(value: JsonValue) {
    super();
    this.value = value;
  }
  get(): JsonValue {
    this.asked++;
    return this.value;
  }
}

/** A CountedValue that can also be built for one read without being kept. */
class PeekedValue extends CountedValue {
  peeked = 0;
  override peek(): JsonValue {
    this.peeked++;
    return this.value;
  }
}

catalogue('aspectUnkept leaves a value that can be built for one read as it is, and keeps one that cannot', () => {
  const c = new Catalogue();
  const peeked = new PeekedValue({ name: 'a' });
  const counted = new CountedValue({ name: 'b' });
  c.restore('urn:li:tag:a', 'tagProperties', peeked);
  c.restore('urn:li:tag:b', 'tagProperties', counted);
  assert.equal(c.aspectUnkept('urn:li:tag:a', 'tagProperties'), { name: 'a' });
  assert.equal(c.aspectUnkept('urn:li:tag:a', 'tagProperties'), { name: 'a' });
  assert.equal([peeked.peeked, peeked.asked], [2, 0]);
  assert.equal(c.aspect('urn:li:tag:a', 'tagProperties'), { name: 'a' });
  assert.is(peeked.asked, 1, 'still held, and built by the first read that keeps it');
  assert.equal(c.aspectUnkept('urn:li:tag:b', 'tagProperties'), { name: 'b' });
  assert.equal(c.aspectUnkept('urn:li:tag:b', 'tagProperties'), { name: 'b' });
  assert.is(counted.asked, 1, 'built once, then kept');
  assert.is(c.aspectUnkept('urn:li:tag:c', 'tagProperties'), undefined);
});

catalogue('removing an entity’s last aspect removes it, and a later change re-creates it last', () => {
  const c = new Catalogue();
  c.apply([
    { urn: 'urn:li:tag:a', aspect: 'status', value: {} },
    { urn: 'urn:li:tag:b', aspect: 'status', value: {} },
  ]);
  c.apply([{ urn: 'urn:li:tag:a', aspect: 'status', value: null }]);
  assert.is(c.exists('urn:li:tag:a'), false);
  c.apply([{ urn: 'urn:li:tag:a', aspect: 'status', value: { removed: false } }]);
  assert.equal(
    [...c.entities()].map(([urn]) => urn),
    ['urn:li:tag:b', 'urn:li:tag:a'],
  );
});

catalogue('apply counts an entity’s changes; restore (replay at start) does not', () => {
  const c = new Catalogue();
  c.restore('urn:li:tag:a', 'status', {});
  assert.is(c.version('urn:li:tag:a'), 0);
  c.apply([{ urn: 'urn:li:tag:a', aspect: 'status', value: { removed: true } }]);
  assert.is(c.version('urn:li:tag:a'), 1);
});

catalogue('clear empties the catalogue and bumps the epoch', () => {
  const c = new Catalogue();
  c.apply([{ urn: 'urn:li:tag:a', aspect: 'status', value: {} }]);
  c.clear();
  assert.is(c.entityCount, 0);
  assert.is(c.epoch, 1);
});

catalogue('asks a lazy value once and keeps its answer', () => {
  const c = new Catalogue();
  const lazy = new CountedValue({ name: 'built' });
  c.restore('urn:li:tag:a', 'tagProperties', lazy);
  assert.equal(c.aspect('urn:li:tag:a', 'tagProperties'), { name: 'built' });
  assert.equal(c.aspect('urn:li:tag:a', 'tagProperties'), { name: 'built' });
  assert.equal([...c.entities()][0]?.[1].get('tagProperties'), { name: 'built' });
  assert.is(lazy.asked, 1);
});

catalogue('estimates log bytes of a lazy value without building it', () => {
  const c = new Catalogue();
  const lazy = new CountedValue({ name: 'x' });
  c.restore('urn:li:tag:a', 'tagProperties', lazy);
  assert.is(c.estimateLogBytes(), 123);
  assert.is(lazy.asked, 0);
});

catalogue('measures a large catalogue from an even sample, within a few percent of the whole', async () => {
  const c = new Catalogue();
  const lazies: CountedValue[] = [];
  for (let i = 0; i < 20_000; i++) {
    // Entities of very different sizes, in runs, as ingested files leave them.
    const words = 1 + ((i * 7919) % 97) + (Math.floor(i / 1000) % 3) * 50;
    c.apply([{ urn: `urn:li:tag:t${i}`, aspect: 'tagProperties', value: { name: 'w'.repeat(words) } }]);
    if (i % 10 === 0) {
      const lazy = new CountedValue({ name: 'x' });
      lazies.push(lazy);
      c.restore(`urn:li:tag:t${i}`, 'tagOwnership', lazy);
    }
  }
  const whole = c.estimateLogBytes();
  const measured = await c.measureLogBytes(0);
  assert.ok(Math.abs(measured - whole) / whole < 0.03, `${measured} against ${whole}`);
  assert.ok(lazies.every((lazy) => lazy.asked === 0));
  // A sample, not the whole: of 20,000 entities each with a value that counts its reads, every 9th is read.
  const counted = new Catalogue();
  const values = Array.from({ length: 20_000 }, (_, i) => {
    const value = new ReadCountedValue();
    counted.restore(`urn:li:tag:t${i}`, 'tagProperties', value);
    return value;
  });
  assert.is(await counted.measureLogBytes(0), 20_000 * 100);
  const read = values.filter((value) => value.reads > 0).length;
  assert.is(read, Math.ceil(20_000 / 9));
});

/** A lazy value that counts how often its size is read. */
class ReadCountedValue extends LazyValue {
  reads = 0;
  get logBytes(): number {
    this.reads++;
    return 100;
  }
  get(): JsonValue {
    return {};
  }
}

/** A value held as text whose size takes 20 µs of real time to tell: a measure of 2,048 of them lasts ~40 ms. */
class SlowlyMeasuredValue extends LazyValue {
  get logBytes(): number {
    const until = realClock.now() + 0.02;
    while (realClock.now() < until);
    return 100;
  }
  get(): JsonValue {
    return {};
  }
}

catalogue("measuring the live state still yields in slices under a test suite's fake timers", async () => {
  const c = new Catalogue();
  for (let i = 0; i < 2048; i++) c.restore(`urn:li:tag:t${i}`, 'tagProperties', new SlowlyMeasuredValue());
  const [bytes, during] = await turnsUnderFakeTimers(() => c.measureLogBytes(2), 3000);
  assert.is(bytes, 2048 * 100);
  // Measured in one go (a clock that stands still never ends a slice), it gives the event loop no turn.
  assert.ok(during >= 2, `${during} turns of the event loop while measuring for ~40 ms in slices of 2 ms`);
});

catalogue('measures in slices what estimateLogBytes() gives at once, building nothing', async () => {
  const c = new Catalogue();
  const lazy = new CountedValue({ name: 'x' });
  c.restore('urn:li:tag:a', 'tagProperties', lazy);
  for (let i = 0; i < 50; i++)
    c.apply([{ urn: `urn:li:tag:t${i}`, aspect: 'tagProperties', value: { name: `t${i}` } }]);
  // No time to spare: a turn of the event loop after every entity.
  assert.is(await c.measureLogBytes(0), c.estimateLogBytes());
  assert.ok(c.estimateLogBytes() > 123 + 50 * 40);
  assert.is(lazy.asked, 0);
});

catalogue('staged changes read over the catalogue: staged values, removals and existence', () => {
  const c = new Catalogue();
  c.apply([
    { urn: 'urn:li:tag:a', aspect: 'status', value: { removed: false } },
    { urn: 'urn:li:tag:a', aspect: 'ownership', value: { owners: [] } },
  ]);
  const staged = new StagedChanges(c);
  staged.stage([
    { urn: 'urn:li:tag:a', aspect: 'status', value: null },
    { urn: 'urn:li:tag:b', aspect: 'status', value: {} },
  ]);
  assert.is(staged.aspect('urn:li:tag:a', 'status'), undefined);
  assert.equal(staged.aspect('urn:li:tag:a', 'ownership'), { owners: [] });
  assert.is(staged.exists('urn:li:tag:a'), true, 'another aspect is left');
  assert.is(staged.exists('urn:li:tag:b'), true);
  assert.is(c.exists('urn:li:tag:b'), false, 'the live catalogue does not see staged changes');
  staged.stage([{ urn: 'urn:li:tag:a', aspect: 'ownership', value: null }]);
  assert.is(staged.exists('urn:li:tag:a'), false);
});

catalogue.run();

// ---

const queue = suite('commit queue');

const tag = (id: string): LogRecord['changes'] => [
  { urn: `urn:li:tag:${id}`, aspect: 'status', value: { removed: false } },
];

async function memoryStore(fs = new MemoryFileSystem()): Promise<{ store: Store; fs: MemoryFileSystem; path: string }> {
  const dataDir = tempDataDir();
  return { store: await Store.open({ dataDir, fileSystem: fs }), fs, path: join(dataDir, LOG_FILE) };
}

queue('runs builds in commit order, each seeing the changes staged before it in its batch', async () => {
  const store = await Store.open({ dataDir: null });
  const seen: boolean[] = [];
  const first = store.commit('test', ACTOR, () => tag('a'));
  const second = store.commit('test', ACTOR, (reader) => {
    seen.push(reader.exists('urn:li:tag:a'));
    return tag('b');
  });
  await Promise.all([first, second]);
  assert.equal(seen, [true]);
  assert.equal(
    [...store.catalogue.entities()].map(([urn]) => urn),
    ['urn:li:tag:a', 'urn:li:tag:b'],
  );
  await store.close();
});

queue('a build that throws fails its own commit only', async () => {
  const store = await Store.open({ dataDir: null });
  const refused = store.commit('test', ACTOR, () => {
    throw new Error('refused');
  });
  const accepted = store.commit('test', ACTOR, () => tag('a'));
  assert.is((await rejection(refused)).message, 'refused');
  assert.equal(await accepted, tag('a'));
  await store.close();
});

queue('writes each commit as one record, and an empty change list as none', async () => {
  const { store, fs, path } = await memoryStore();
  await Promise.all([
    store.commit('one', ACTOR, () => tag('a')),
    store.commit('none', ACTOR, () => []),
    store.commit('two', ACTOR, () => tag('b')),
  ]);
  await store.close();
  const records = fs
    .text(path)
    .trimEnd()
    .split('\n')
    .map((text) => JSON.parse(text) as LogRecord);
  assert.equal(
    records.map(({ seq, op }) => [seq, op]),
    [
      [1, 'one'],
      [2, 'two'],
    ],
  );
  assert.is(store.recordCount, 2);
});

queue('a failed write fails the whole batch, applies none of it and reuses its sequence numbers', async () => {
  const { store, fs, path } = await memoryStore();
  fs.failNext('sync');
  const failed = await Promise.allSettled([
    store.commit('a', ACTOR, () => tag('a')),
    store.commit('b', ACTOR, () => tag('b')),
  ]);
  assert.equal(
    failed.map(({ status }) => status),
    ['rejected', 'rejected'],
  );
  assert.is(store.catalogue.entityCount, 0);
  await store.commit('c', ACTOR, () => tag('c'));
  await store.close();
  assert.is((JSON.parse(fs.text(path)) as LogRecord).seq, 1);
});

queue('reopening replays what was committed and continues its sequence', async () => {
  const fs = new MemoryFileSystem();
  const dataDir = tempDataDir();
  const first = await Store.open({ dataDir, fileSystem: fs });
  await first.commit('a', ACTOR, () => tag('a'));
  await first.close();
  const second = await Store.open({ dataDir, fileSystem: fs });
  assert.is(second.recordCount, 1);
  assert.is(second.catalogue.exists('urn:li:tag:a'), true);
  await second.commit('b', ACTOR, () => tag('b'));
  await second.close();
  assert.is((JSON.parse(fs.text(join(dataDir, LOG_FILE)).trimEnd().split('\n')[1] as string) as LogRecord).seq, 2);
});

queue('close waits for queued commits, then refuses new ones', async () => {
  const store = await Store.open({ dataDir: null });
  const queued = store.commit('test', ACTOR, () => tag('a'));
  await store.close();
  assert.equal(await queued, tag('a'));
  assert.match((await rejection(store.commit('test', ACTOR, () => tag('b')))).message, /shutting down/);
});

queue('resetTo runs after the commits queued before it, and only in memory', async () => {
  const store = await Store.open({ dataDir: null });
  const before = store.commit('test', ACTOR, () => tag('old'));
  const reset = store.resetTo(tag('new'));
  await Promise.all([before, reset]);
  assert.equal(
    [...store.catalogue.entities()].map(([urn]) => urn),
    ['urn:li:tag:new'],
  );
  await store.close();
  const { store: durable } = await memoryStore();
  assert.match((await rejection(durable.resetTo([]))).message, /refusing to reset the persistent store/);
  await durable.close();
});

queue('commits that arrive together leave the queue as one batch, in arrival order', async () => {
  const batches: string[][] = [];
  const commits = new CommitQueue({
    async runBatch(batch: PendingCommit[]) {
      batches.push(batch.map(({ op }) => op));
      for (const commit of batch) commit.resolve([]);
    },
    afterBatch: () => {},
  });
  await Promise.all(['a', 'b', 'c'].map((op) => commits.commit(op, ACTOR, () => [])));
  await commits.commit('d', ACTOR, () => []);
  assert.equal(batches, [['a', 'b', 'c'], ['d']]);
});

queue(
  'a job runs after exactly the commits queued before it; the runner is told after each batch and its jobs',
  async () => {
    const order: string[] = [];
    let due = true;
    const commits: CommitQueue = new CommitQueue({
      async runBatch(batch: PendingCommit[]) {
        for (const commit of batch) {
          order.push(commit.op);
          commit.resolve([]);
        }
      },
      afterBatch: () => {
        order.push('after batch');
        if (!due) return;
        due = false;
        // Maintenance scheduled then runs after the commits already queued, like any job.
        void commits.schedule(async () => void order.push('maintenance'));
      },
    });
    const done = [
      commits.commit('first', ACTOR, () => []),
      commits.schedule(async () => void order.push('job')),
      commits.commit('second', ACTOR, () => []),
    ];
    await Promise.all(done);
    await commits.close();
    assert.equal(order, ['first', 'job', 'after batch', 'second', 'maintenance', 'after batch']);
    assert.match((await rejection(commits.commit('late', ACTOR, () => []))).message, /shutting down/);
  },
);

queue.run();
