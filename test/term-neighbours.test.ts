// The typo lookup held to a plain edit distance: the walk cut into head and tail over random vocabularies
// (letters beyond ASCII, two-unit characters, words with every kind of typo at either end), and the
// dictionary's lookups as terms are added and dropped.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import { TermDictionary } from '../src/search/term-dictionary.ts';
import { termsWithinEdits } from '../src/search/term-neighbours.ts';
import { walkIndex } from '../src/search/walk-index.ts';
import { churn, type ChurnStep } from './fixtures/churned-dictionary.ts';
import { editDistance } from './fixtures/edit-distance.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

// Letters of several scripts, and one outside the 16-bit range (two code units, as the index counts it).
const LETTERS = ['a', 'b', 'c', 'é', 'ß', 'ж', '中', '𝔸'];

function randomWord(random: () => number, letters: readonly string[], min: number, max: number): string {
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('');
}

/** `word` with `edits` random substitutions, insertions or deletions of code units. */
function typo(random: () => number, word: string, edits: number): string {
  for (let n = 0; n < edits; n++) {
    const at = Math.floor(random() * (word.length + 1));
    const letter = LETTERS[Math.floor(random() * 3)]!;
    const kind = Math.floor(random() * 3);
    if (kind === 0) word = word.slice(0, at) + letter + word.slice(at);
    else if (kind === 1) word = word.slice(0, at) + word.slice(at + 1);
    else word = word.slice(0, at) + letter + word.slice(at + 1);
  }
  return word;
}

/** Each term within `max` edits of `word`, with its distance, in term order. */
function expected(terms: Iterable<string>, word: string, max: number): [string, number][] {
  return within(nearby(terms, word, max), max);
}

/** The reference distances of the terms no more than `max` longer or shorter than `word`, in term order. */
function nearby(terms: Iterable<string>, word: string, max: number): [string, number][] {
  return [...terms]
    .filter((term) => Math.abs(term.length - word.length) <= max)
    .map((term) => [term, editDistance(word, term)] as [string, number])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Those of `distances` within `max` edits (a distance is never below the difference in length). */
function within(distances: readonly [string, number][], max: number): [string, number][] {
  return distances.filter(([, d]) => d <= max);
}

test('every term within 0 to 3 edits, with its distance, over letters of any script', () => {
  const random = seededRandom(41);
  for (let round = 0; round < 4; round++) {
    const letters = LETTERS.slice(0, 3 + round * 2);
    const sorted = [...new Set(Array.from({ length: 1500 }, () => randomWord(random, letters, 1, 16)))].sort();
    const index = walkIndex(sorted);
    for (let q = 0; q < 120; q++) {
      // Half the words are a term with typos, so that terms are found at every distance.
      const word =
        q % 2 === 0
          ? randomWord(random, letters, 1, 18)
          : typo(random, sorted[Math.floor(random() * sorted.length)]!, 1 + (q % 3));
      // The reference distances once per word, for every bound.
      const distances = nearby(sorted, word, 3);
      for (const max of [0, 1, 2, 3]) {
        const found = [...termsWithinEdits(sorted, word, max, index)].sort(([a], [b]) => (a < b ? -1 : 1));
        assert.equal(found, within(distances, max), `"${word}" within ${max}`);
      }
    }
  }
});

test('a typo at the start, in the middle or at the end of a word, alone or two together', () => {
  const terms = ['abcdefghijkl', 'abcdefghijklm', 'bcdefghijkl', 'xxcdefghijkl', 'abcdefghij', 'zzzzzzzzzzzz'];
  const sorted = [...terms].sort();
  for (const word of [
    'xbcdefghijkl', // first letter changed
    'yycdefghijkl', // both changes in the head: found through the tail
    'bacdefghijkl', // letters swapped at the start: two edits
    'abcdefxyijkl', // both in the middle
    'abcdefghijxy', // both at the end
    'abcdefghijk', // one letter short
    'aabcdefghijkll', // one longer at each end
    'abcdefghijkl', // a term itself: distance 0
  ])
    for (const max of [1, 2])
      assert.equal(
        [...termsWithinEdits(sorted, word, max)].sort(([a], [b]) => (a < b ? -1 : 1)),
        expected(sorted, word, max),
        `"${word}" within ${max}`,
      );
});

test("the dictionary's lookups follow terms of any script added a few or many at a time and dropped", () => {
  const random = seededRandom(97);
  const dictionary = new TermDictionary();
  // Words asked again in every round, so remembered answers must follow the terms that came and went.
  const again: string[] = Array.from({ length: 20 }, () => randomWord(random, LETTERS, 5, 14));
  const steps: ChurnStep[] = [
    [500, 0.1, 0],
    [2, 0.05, 0],
    [5, 0.2, 3],
    [1, 0, 2],
    [300, 0.3, 0],
    [1, 0.6, 0],
    [3, 0, 40],
  ];
  // Some terms just dropped come back before anyone searches: listed once, as any other term.
  const newestBack = (gone: string[], back: number) => gone.splice(Math.max(0, gone.length - back), back);
  const newWord = () => randomWord(random, LETTERS, 4, 15);
  for (const { added, fresh, live } of churn(dictionary, steps, random, newWord, newestBack)) {
    if (again.length < 60) again.push(...fresh.slice(0, 20).map((text) => typo(random, text, 1 + (text.length % 2))));
    const queries = [
      ...again,
      ...Array.from({ length: 20 }, () => randomWord(random, LETTERS, 5, 14)),
      ...fresh.slice(0, 20).flatMap((text) => [typo(random, text, 1), typo(random, text, 2)]),
    ];
    for (const query of queries)
      for (const edits of [1, 2]) {
        const near = dictionary.near(query, edits).map(([text, d]) => [text, d] as [string, number]);
        const want = expected(live.keys(), query, edits).filter(([, d]) => d > 0);
        assert.equal(near, want, `after ${added} added, "${query}" within ${edits}`);
      }
  }
});

test.run();
