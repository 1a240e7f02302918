// The query words' near-terms cache: a word read often outlives the one-off words stored after it, one
// never read again goes first; and a remembered answer follows the terms added and dropped since.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import { NearCache, REMEMBERED } from '../src/search/near-cache.ts';

const allTerms = () => true;

test('a word read between one-off words stays remembered; one stored with it and never read is let go', () => {
  const cache = new NearCache();
  cache.set('orders', 1, [['order', 1]]);
  cache.set('ledger', 1, [['legder', 2]]);
  for (let i = 0; i < 3 * REMEMBERED; i++) {
    cache.set(`word${i}`, 1, []);
    if (i % 1000 === 0) assert.equal(cache.get('orders', 1, allTerms), [['order', 1]], `after ${i} words`);
  }
  assert.equal(cache.get('orders', 1, allTerms), [['order', 1]]);
  assert.is(cache.get('ledger', 1, allTerms), undefined);
  assert.is(cache.get('word0', 1, allTerms), undefined, 'the oldest one-off words went first');
  assert.equal(cache.get(`word${3 * REMEMBERED - 1}`, 1, allTerms), [], 'the newest are there');
});

test('each number of edits is remembered on its own', () => {
  const cache = new NearCache();
  cache.set('orders', 1, [['order', 1]]);
  assert.is(cache.get('orders', 2, allTerms), undefined);
  assert.equal(cache.get('orders', 1, allTerms), [['order', 1]]);
});

test('a remembered answer leaves out dropped terms and measures the terms added since', () => {
  const cache = new NearCache();
  const terms = new Set(['order', 'ordure']);
  const isTerm = (text: string) => terms.has(text);
  cache.set('orders', 1, [['order', 1]]);
  terms.add('orderz');
  cache.added('orderz');
  terms.add('zebra');
  cache.added('zebra');
  assert.equal(cache.get('orders', 1, isTerm), [
    ['order', 1],
    ['orderz', 1],
  ]);
  terms.delete('order');
  cache.dropped();
  assert.equal(cache.get('orders', 1, isTerm), [['orderz', 1]]);
});

test.run();
