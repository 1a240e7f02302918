// Fuzzy term matching: the walk over the sorted terms against a plain edit distance, the lookup of terms
// one edit away against the walk as terms come and go, and the one-edit check itself.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import { withinOneEdit } from '../src/search/one-edit-index.ts';
import { TermDictionary } from '../src/search/term-dictionary.ts';
import { termsWithinEdits } from '../src/search/term-neighbours.ts';
import { editDistance } from './fixtures/edit-distance.ts';

test('withinOneEdit: a substitution, an insertion or a deletion; never none, two, or a transposition', () => {
  assert.ok(withinOneEdit('orders', 'order'));
  assert.ok(withinOneEdit('order', 'orders'));
  assert.ok(withinOneEdit('order', 'ordar'));
  assert.ok(withinOneEdit('order', 'rder'));
  assert.ok(withinOneEdit('order', 'xorder'));
  assert.not.ok(withinOneEdit('order', 'order'));
  assert.not.ok(withinOneEdit('order', 'odrer')); // a transposition is two edits
  assert.not.ok(withinOneEdit('order', 'ordersx'));
  assert.not.ok(withinOneEdit('order', 'ardar'));
});

test('the lookup finds exactly the terms the walk over sorted terms finds, as terms are added and dropped', () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => 'abcd'[Math.floor(random() * 4)]).join(
      '',
    );
  const dictionary = new TermDictionary();
  const live = new Map<string, number>();
  for (let round = 0; round < 6; round++) {
    for (let n = 0; n < 400; n++) {
      const text = word(3, 11);
      live.set(text, dictionary.intern(text));
    }
    // Drop a third of the terms: their numbers go to the next new terms.
    for (const [text, term] of [...live].filter(() => random() < 0.33)) {
      dictionary.drop(term);
      live.delete(text);
    }
    for (let q = 0; q < 200; q++) {
      const query = word(5, 9);
      // Words of 5 to 9 letters one edit away are looked up, not walked (a word asked again is remembered).
      const looked = dictionary
        .near(query, 1)
        .map(([text]) => text)
        .sort();
      const walked = [...termsWithinEdits(dictionary.sorted(), query, 1)]
        .filter(([text, distance]) => distance === 1 && live.has(text))
        .map(([text]) => text)
        .sort();
      assert.equal(looked, walked, `round ${round}, "${query}"`);
    }
  }
});

test("the dictionary's two-edit lookups follow its terms as a few or many are added and some dropped", () => {
  let seed = 23;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => 'abc'[Math.floor(random() * 3)]).join(
      '',
    );
  const dictionary = new TermDictionary();
  const live = new Map<string, number>();
  // Rounds of 3 new terms are inserted into the sorted list one by one, rounds of 300 merge it anew; the
  // walk's copy of the list is kept for a few, made anew after many, or after half the terms are dropped.
  for (const [added, dropShare] of [
    [300, 0.1],
    [3, 0.1],
    [3, 0.1],
    [300, 0.1],
    [3, 0.5],
    [3, 0.1],
  ] as const) {
    const fresh: string[] = [];
    for (let n = 0; n < added; n++) {
      const text = word(8, 13);
      fresh.push(text);
      live.set(text, dictionary.intern(text));
    }
    for (const [text, term] of [...live].filter(() => random() < dropShare)) {
      dictionary.drop(term);
      live.delete(text);
    }
    // Random words, and each new term with a letter changed (which finds it, unless it was dropped).
    const queries = [
      ...Array.from({ length: 40 }, () => word(10, 12)),
      ...fresh.slice(0, 40).map((text) => `x${text.slice(1)}`),
    ];
    for (const query of queries) {
      const near = dictionary.near(query, 2).map(([text, d]) => [text, d] as const);
      const expected = [...live.keys()]
        .map((text) => [text, editDistance(query, text)] as const)
        .filter(([, d]) => d > 0 && d <= 2)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      assert.equal(near, expected, `after ${added} added, "${query}"`);
    }
  }
});

test('the walk over sorted terms finds exactly the terms within one and two edits, with their distances', () => {
  let seed = 5;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => 'abc'[Math.floor(random() * 3)]).join(
      '',
    );
  const sorted = [...new Set(Array.from({ length: 3000 }, () => word(1, 14)))].sort();
  for (let q = 0; q < 300; q++) {
    const query = word(5, 13);
    // The reference distances once per query, for both bounds; a term longer or shorter than the query by
    // more than two letters is more than two edits away whatever its letters, so the table is not needed.
    const distances = sorted
      .filter((term) => Math.abs(term.length - query.length) <= 2)
      .map((term) => [term, editDistance(query, term)] as const);
    for (const max of [1, 2]) {
      const walked = [...termsWithinEdits(sorted, query, max)].sort();
      const expected = distances.filter(([, d]) => d <= max).sort();
      assert.equal(walked, expected, `"${query}" within ${max}`);
    }
  }
});

test.run();
