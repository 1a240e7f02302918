// The change history never takes the store down with it: a tracked aspect nested thousands of levels deep
// is followed like any other, and a failure inside the history leaves every commit durable and applied,
// and the history read again from the log. Real stores, in memory and on disk.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { HistoryIndex } from '../src/history/history-index.ts';
import { Store } from '../src/store/store.ts';
import { tempDataDir } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const ROOT = 'urn:li:corpuser:datahub';

function nested(depth: number, leaf: string): JsonValue {
  let value: JsonValue = leaf;
  for (let level = 0; level < depth; level++) value = { inner: value };
  return value;
}

/** Resolves with `promise`, or fails the test once `ms` have passed (a commit that never answers). */
function within<T>(promise: Promise<T>, ms = 2_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const failure = suite('the change history never breaks a commit');

failure('a tracked aspect nested 3,000 levels deep is committed, listed once, compacted and read back', async () => {
  const dataDir = tempDataDir();
  const deep = { description: 'deep', customProperties: nested(3_000, 'leaf') } as JsonValue;
  const edit = () => [{ urn: ORDERS, aspect: 'editableDatasetProperties', value: deep }];
  const store = await Store.open({ dataDir });
  try {
    assert.is((await store.history.steps(ORDERS)).length, 0);
    await within(store.commit('updateDataset', ROOT, edit));
    await within(store.commit('updateDataset', ROOT, edit));
    assert.ok(store.catalogue.aspect(ORDERS, 'editableDatasetProperties') !== undefined, 'applied');
    assert.is((await store.history.steps(ORDERS)).length, 1, 'the same value again is no change');
    const report = await store.compact();
    assert.is(report.historyRecords, 1);
  } finally {
    await store.close();
  }
  const reopened = await Store.open({ dataDir });
  try {
    assert.is((await reopened.history.steps(ORDERS)).length, 1, 'read back from the compacted log');
  } finally {
    await reopened.close();
  }
});

failure('a failure inside the history leaves the commit durable and applied; the log rebuilds it', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir });
  const describe = (description: string) => () => [
    { urn: ORDERS, aspect: 'editableDatasetProperties', value: { description } },
  ];
  try {
    await store.commit('updateDataset', ROOT, describe('first'));
    assert.is((await store.history.steps(ORDERS)).length, 1);
    assert.ok(store.history.built);
    // The history reads the value before the change from the catalogue: make that read fail once.
    const aspect = store.catalogue.aspect.bind(store.catalogue);
    store.catalogue.aspect = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    try {
      await within(store.commit('updateDataset', ROOT, describe('second')));
    } finally {
      store.catalogue.aspect = aspect;
    }
    assert.equal(store.catalogue.aspect(ORDERS, 'editableDatasetProperties'), { description: 'second' });
    assert.is(store.history.built, false, 'the history set itself aside');
    await store.commit('updateDataset', ROOT, describe('third'));
    const steps = await store.history.steps(ORDERS);
    assert.equal(
      steps.map(({ changes }) => changes.map(({ value }) => value)),
      [[{ description: 'first' }], [{ description: 'second' }], [{ description: 'third' }]],
    );
  } finally {
    await store.close();
  }
  const reopened = await Store.open({ dataDir });
  try {
    assert.equal(reopened.catalogue.aspect(ORDERS, 'editableDatasetProperties'), { description: 'third' });
  } finally {
    await reopened.close();
  }
});

failure('in memory, a failing history leaves a reset store whole', async () => {
  const store = await Store.open({ dataDir: null });
  try {
    const aspect = store.catalogue.aspect.bind(store.catalogue);
    store.catalogue.aspect = () => {
      throw new Error('history failed');
    };
    try {
      await within(store.resetTo([{ urn: ORDERS, aspect: 'globalTags', value: { tags: [] } }]));
    } finally {
      store.catalogue.aspect = aspect;
    }
    assert.equal(store.catalogue.aspect(ORDERS, 'globalTags'), { tags: [] });
    const index = new HistoryIndex(null);
    const reader = {
      aspect(): JsonValue | undefined {
        throw new Error('unreadable');
      },
      aspectJson(): string | undefined {
        throw new Error('unreadable');
      },
      exists: () => true,
      contained: () => new Set<string>(),
    };
    index.record(
      { seq: 1, time: 1, actor: ROOT, op: 'x', changes: [{ urn: ORDERS, aspect: 'globalTags', value: {} }] },
      reader,
    );
    assert.equal(index.steps(ORDERS), []);
  } finally {
    await store.close();
  }
});

failure.run();
