// The dictionary's prefix lookup held to a filter over the live terms, as terms come, go, and come back
// under another number, a few at a time (inserted into the sorted list) or many (merged anew).

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import { TermDictionary } from '../src/search/term-dictionary.ts';
import { churn, type ChurnStep } from './fixtures/churned-dictionary.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

test('withPrefix lists exactly the live terms that begin with a prefix, each under its current number', () => {
  const random = seededRandom(3);
  const word = () =>
    Array.from({ length: 1 + Math.floor(random() * 6) }, () => 'abé'[Math.floor(random() * 3)]).join('');
  const dictionary = new TermDictionary();
  const steps: ChurnStep[] = [
    [300, 0.2, 0],
    [3, 0.1, 2],
    [0, 0.3, 5],
    [40, 0.5, 0],
    [1, 0, 30],
    [2, 0.05, 1],
  ];
  // Dropped terms come back, the oldest first: their numbers may have gone to other terms meanwhile.
  const oldestBack = (gone: string[], back: number) => gone.splice(0, back);
  for (const { added, live } of churn(dictionary, steps, random, word, oldestBack)) {
    for (const prefix of ['', 'a', 'b', 'é', 'ab', 'ba', 'éa', 'aaa', 'abéb']) {
      const found = dictionary.withPrefix(prefix).map((term) => [dictionary.text(term), term]);
      const expected = [...live]
        .filter(([text]) => text.startsWith(prefix) && text !== prefix)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      assert.equal(found, expected, `after ${added} added, "${prefix}"`);
    }
  }
});

test.run();
