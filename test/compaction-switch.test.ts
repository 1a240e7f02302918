// Compaction's new log is synced in pieces while it is written, so the switch (which commits wait for)
// flushes only the last lines; and commits after the switch do not wait for the replaced log to close.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';

import type { LogFile, LogFileSystem } from '../src/store/log-fs.ts';
import type { LogRecord } from '../src/store/log-record.ts';
import { NewLog } from '../src/store/log-rewrite.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
import { Store } from '../src/store/store.ts';
import { tempDataDir } from './fixtures/server.ts';

const ROOT = 'urn:li:corpuser:datahub';
const DATASET = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:postgres,db.t${i},PROD)`;

const test = suite('compaction switch');

/**
 * nodeLogFileSystem, recording each write's bytes, sync and rename in order, and holding the close of `held` files
 * (`hold` returns the release; `stopHolding` lets later closes of the path through, leaving held ones held).
 */
function recordingFs(): {
  fs: LogFileSystem;
  events: string[];
  hold: (path: string) => () => void;
  stopHolding: (path: string) => void;
} {
  const events: string[] = [];
  const held = new Map<string, Promise<void>>();
  const fs: LogFileSystem = {
    ...nodeLogFileSystem,
    async open(path, mode) {
      const file = await nodeLogFileSystem.open(path, mode);
      const recorded: LogFile = {
        write: async (data, position) => {
          events.push(`write ${data.length}`);
          return file.write(data, position);
        },
        sync: async () => {
          events.push('sync');
          await file.sync();
        },
        truncate: (length) => file.truncate(length),
        close: async () => {
          await held.get(path);
          events.push(`close ${path}`);
          await file.close();
        },
      };
      return recorded;
    },
    async rename(from, to) {
      events.push('rename');
      await nodeLogFileSystem.rename(from, to);
    },
  };
  const hold = (path: string) => {
    let release = () => {};
    held.set(path, new Promise<void>((resolve) => (release = resolve)));
    return () => release();
  };
  return { fs, events, hold, stopHolding: (path) => held.delete(path) };
}

function records(count: number): LogRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    seq: i + 1,
    time: 1,
    actor: ROOT,
    op: 'edit',
    changes: [{ urn: DATASET(i), aspect: 'status', value: { removed: false, note: 'x'.repeat(80) } }],
  }));
}

test('the new log is synced every few bytes while it is written, and whole before it is renamed', async () => {
  const dir = tempDataDir();
  const { fs, events } = recordingFs();
  const path = join(dir, 'catalogue.jsonl');
  const old = await fs.open(path, { create: true, truncate: true });
  const file = await fs.open(`${path}.compact`, { create: true, truncate: true });
  // Chunks of at most 1 KiB, a sync after each 4 KiB: 200 records of ~250 bytes.
  const rewrite = new NewLog({ fs, path, size: () => 0 }, `${path}.compact`, file, 1024, 4096);
  await rewrite.write(records(200));
  const writes = events.filter((event) => event.startsWith('write'));
  const bytes = writes.reduce((sum, event) => sum + Number(event.split(' ')[1]), 0);
  const synced = events.filter((event) => event === 'sync').length;
  assert.ok(writes.length >= 30, `${writes.length} writes`);
  // One sync per 4 KiB (a chunk may overshoot it) and one at the end.
  const expected = Math.floor(bytes / 4096);
  assert.ok(synced >= expected * 0.8 && synced <= expected + 1, `${synced} syncs for ${bytes} bytes`);
  assert.is(events.at(-1), 'sync', 'write() ends synced, so the switch only syncs what came after it');
  let unsynced = 0;
  let most = 0;
  for (const event of events) {
    if (event === 'sync') unsynced = 0;
    else if (event.startsWith('write')) most = Math.max(most, (unsynced += Number(event.split(' ')[1])));
  }
  assert.ok(most <= 4096 + 1024, `at most ${most} bytes written between two syncs`);
  events.length = 0;
  await rewrite.finish();
  assert.equal(events, ['sync', `close ${path}.compact`, 'rename'], 'synced, closed, then renamed');
  await old.close();
});

test('commits after the switch do not wait for the replaced log to close; closing the store does', async () => {
  const dataDir = tempDataDir();
  const { fs, events, hold } = recordingFs();
  const store = await Store.open({ dataDir, fileSystem: fs, autoCompact: false });
  for (let i = 0; i < 20; i++) {
    await store.commit('edit', ROOT, () => [
      { urn: DATASET(i % 5), aspect: 'status', value: { removed: i % 2 === 0 } },
    ]);
  }
  // The log's handle open now is the one the compaction replaces.
  const release = hold(join(dataDir, 'catalogue.jsonl'));
  const switched = await Promise.race([
    store.compact().then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000)),
  ]);
  if (!switched) release();
  assert.ok(switched, 'the compaction ended with the replaced handle still closing');
  await store.commit('edit', ROOT, () => [{ urn: DATASET(9), aspect: 'status', value: { removed: true } }]);
  assert.not.ok(events.includes(`close ${join(dataDir, 'catalogue.jsonl')}`), 'the old handle is still closing');
  let closed = false;
  const closing = store.close().then(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.not.ok(closed, 'close() waits for the replaced handle');
  release();
  await closing;
  assert.ok(closed);
  const reopened = await Store.open({ dataDir, autoCompact: false });
  assert.equal(
    reopened.catalogue.aspect(DATASET(9), 'status'),
    { removed: true },
    'the commit after the switch is in the log',
  );
  await reopened.close();
});

test('closing the store waits for every handle replaced by compactions, not only the last', async () => {
  const dataDir = tempDataDir();
  const { fs, events, hold, stopHolding } = recordingFs();
  const store = await Store.open({ dataDir, fileSystem: fs, autoCompact: false });
  for (let i = 0; i < 10; i++)
    await store.commit('edit', ROOT, () => [{ urn: DATASET(i), aspect: 'status', value: { removed: false } }]);
  const log = join(dataDir, 'catalogue.jsonl');
  const release = hold(log);
  await store.compact();
  stopHolding(log);
  await store.compact();
  let closed = false;
  const closing = store.close().then(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const closes = events.filter((event) => event === `close ${log}`).length;
  const closedWhileHeld = closed;
  release();
  await closing;
  assert.is(closes, 1, 'the second replaced handle closed, the first was still held');
  assert.not.ok(closedWhileHeld, 'close() waits for the first replaced handle too');
  assert.ok(closed);
});

test.run();
