// How text becomes search terms: the fast path for ASCII text answers exactly what the Unicode-aware
// one does, on hand-picked cases and on random text.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import { tokenize, tokenizeAnyScript } from '../src/search/text.ts';

test('words in lower case, camelCase parts after the word, markdown and punctuation dropped', () => {
  assert.equal(tokenize('**Customer** orders, see [the runbook](https://wiki.example.com/x)'), [
    'customer',
    'orders',
    'see',
    'the',
    'runbook',
    'https',
    'wiki',
    'example',
    'com',
    'x',
  ]);
  assert.equal(tokenize('customerId order_id HTTPServer v2Api'), [
    'customerid',
    'customer',
    'id',
    'order',
    'id',
    'httpserver',
    'v2api',
    'v2',
    'api',
  ]);
  assert.equal(tokenize(''), []);
  assert.equal(tokenize('  --  '), []);
  assert.equal(tokenize('Straße größe ÄrgerNis'), ['straße', 'größe', 'ärgernis', 'ärger', 'nis']);
});

test('on random ASCII text the fast path and the Unicode-aware path agree', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = 'aZbY09_ .-*[](){}\n\tqQxXmMe';
  for (let n = 0; n < 2000; n++) {
    const text = Array.from(
      { length: Math.floor(random() * 40) },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join('');
    assert.equal(tokenize(text), tokenizeAnyScript(text), JSON.stringify(text));
  }
});

test.run();
