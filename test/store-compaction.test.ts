// Compaction while commits go on: every write acknowledged during it is in the compacted log, in order,
// after a restart and in a copy of the directory taken after any acknowledged write (what a crash leaves);
// entities removed or re-created meanwhile keep the catalogue's order, and the change history is whole.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import type { AspectChange } from '../src/store/catalogue.ts';
import type { ByteRange } from '../src/store/log-fs.ts';
import { Store } from '../src/store/store.ts';
import { DATASET, describeRounds, ROOT_ACTOR as ROOT } from './fixtures/described-datasets.ts';
import { FaultyFileSystem } from './fixtures/faulty-fs.ts';
import { logSeqs, risesStrictly } from './fixtures/log-file.ts';
import { tempDataDir } from './fixtures/server.ts';

const LOG = 'catalogue.jsonl';

const during = suite('compaction during commits');

/** A store whose log holds 60 datasets, each described 5 times (history), in small compaction chunks. */
async function churned(dataDir: string): Promise<Store> {
  const store = await Store.open({ dataDir, autoCompact: false, maxChunkBytes: 256 });
  await describeRounds(store, 5, 60);
  return store;
}

function set(urn: string, aspect: string, value: AspectChange['value']): () => AspectChange[] {
  return () => [{ urn, aspect, value }];
}

/** A copy of the directory's files as they stand: what a crash at this moment would leave. */
function crashImage(dataDir: string): string {
  const image = tempDataDir();
  for (const name of [LOG, `${LOG}.compact`]) {
    if (existsSync(join(dataDir, name))) copyFileSync(join(dataDir, name), join(image, name));
  }
  return image;
}

during('acknowledges writes while it runs, and keeps every one of them in order, with the history', async () => {
  const dataDir = tempDataDir();
  const store = await churned(dataDir);
  const compaction = store.compact();
  let finished = false;
  void compaction.then(() => (finished = true));
  const acknowledged: { image: string; writes: number }[] = [];
  let writes = 0;
  let whileCompacting = 0;
  // Edits, a removal of a whole entity and its re-creation, and new entities, until the compaction ends.
  for (let i = 0; !finished || writes < 30; i++) {
    const n = i % 60;
    if (i === 7) await store.commit('remove', ROOT, set(DATASET(3), 'editableDatasetProperties', null));
    else if (i === 11)
      await store.commit('recreate', ROOT, set(DATASET(3), 'editableDatasetProperties', { description: 'back' }));
    else await store.commit('edit', ROOT, set(DATASET(n), 'editableDatasetProperties', { description: `write ${i}` }));
    if (i >= 60) await store.commit('add', ROOT, set(DATASET(i), 'editableDatasetProperties', { description: 'new' }));
    writes = i + 1;
    if (!finished) whileCompacting++;
    if (i % 5 === 0) acknowledged.push({ image: crashImage(dataDir), writes });
  }
  const report = await compaction;
  assert.ok(whileCompacting > 0, 'commits were acknowledged before the compaction ended');
  assert.is(report.entities, 60, 'the state as it was when the compaction began');
  assert.ok(report.historyRecords >= 5, `${report.historyRecords} history records`);
  const state = store.export();
  const urns = [...store.catalogue.urns()];
  const history = await store.history.steps(DATASET(5));
  await store.close();

  assert.ok(risesStrictly(logSeqs(dataDir)), 'sequence numbers rise along the log, the writes carried over included');
  const reopened = await Store.open({ dataDir });
  try {
    assert.equal(reopened.export(), state, 'replay of the compacted log gives the state with every write');
    assert.equal([...reopened.catalogue.urns()], urns, 'in the same order');
    assert.equal(await reopened.history.steps(DATASET(5)), history, 'the same history');
  } finally {
    await reopened.close();
  }
  // Each image holds at least the writes acknowledged before it was taken.
  for (const { image, writes: before } of acknowledged) {
    const crashed = await Store.open({ dataDir: image });
    try {
      for (let i = 0; i < before; i++) {
        if (i === 7 || i === 11) continue;
        const value = crashed.catalogue.aspect(DATASET(i % 60), 'editableDatasetProperties') as { description: string };
        const later = [...Array(before - i - 1).keys()].some((k) => (i + 1 + k) % 60 === i % 60);
        if (!later && i % 60 !== 3) assert.is(value.description, `write ${i}`, `write ${i} of ${before}`);
        if (i >= 60) assert.ok(crashed.catalogue.exists(DATASET(i)), `dataset ${i} of ${before}`);
      }
      if (before > 11) {
        // Re-created by write 11, then edited again by every later write to it (63, 123...).
        const last = [...Array(before).keys()].filter((i) => i > 11 && i % 60 === 3).pop();
        const description = last === undefined ? 'back' : `write ${last}`;
        assert.equal(crashed.catalogue.aspect(DATASET(3), 'editableDatasetProperties'), { description });
      }
    } finally {
      await crashed.close();
    }
  }
});

during('a second compact() while one runs answers the same compaction', async () => {
  const store = await churned(tempDataDir());
  try {
    const first = store.compact();
    const second = store.compact();
    assert.is(second, first);
    await first;
  } finally {
    await store.close();
  }
});

during('closing the store during a compaction waits for it or drops it, and loses no write', async () => {
  const dataDir = tempDataDir();
  const store = await churned(dataDir);
  const compaction = store.compact().catch((error: unknown) => error);
  await store.commit('edit', ROOT, set(DATASET(1), 'editableDatasetProperties', { description: 'last' }));
  await store.close();
  await compaction;
  assert.not.ok(existsSync(join(dataDir, `${LOG}.compact`)), 'no temporary file is left behind');
  const reopened = await Store.open({ dataDir });
  try {
    assert.equal(reopened.catalogue.aspect(DATASET(1), 'editableDatasetProperties'), { description: 'last' });
    assert.equal(reopened.catalogue.aspect(DATASET(2), 'editableDatasetProperties'), { description: 'round 4 of 2' });
  } finally {
    await reopened.close();
  }
});

// Reading the log back fails while this is set (the faulty file system fails writes, not reads).
class UnreadableLog extends FaultyFileSystem {
  unreadable = false;
  override readChunks(path: string, range?: ByteRange): AsyncIterable<Buffer> {
    if (!this.unreadable) return super.readChunks(path, range);
    return {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('EIO: the log cannot be read')) }),
    };
  }
}

during('a compaction that cannot start closes and removes its new file; the next one runs', async () => {
  const dataDir = tempDataDir();
  const fileSystem = new UnreadableLog();
  const store = await Store.open({ dataDir, fileSystem, autoCompact: false });
  try {
    await store.commit('edit', ROOT, set(DATASET(1), 'editableDatasetProperties', { description: 'one' }));
    fileSystem.unreadable = true;
    const error = await store.compact().then(
      () => null,
      (failure: unknown) => failure as Error,
    );
    assert.match(error?.message ?? '', /compaction of .* failed: EIO: the log cannot be read; the log is unchanged/);
    assert.not.ok(existsSync(join(dataDir, `${LOG}.compact`)), 'the new file is removed');
    fileSystem.unreadable = false;
    await store.commit('edit', ROOT, set(DATASET(1), 'editableDatasetProperties', { description: 'two' }));
    assert.is((await store.compact()).records, 1);
  } finally {
    await store.close();
  }
  const reopened = await Store.open({ dataDir });
  assert.equal(reopened.catalogue.aspect(DATASET(1), 'editableDatasetProperties'), { description: 'two' });
  await reopened.close();
});

during.run();
