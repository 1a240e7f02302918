// Ranking a search's matches: the page a client asks for is in exact order (score descending, then URN),
// scores equal in their leading bits included, and a scroll position counts the matches up to it.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import type { FacetValues } from '../src/search/documents.ts';
import { RankedMatches } from '../src/search/ranked-matches.ts';

function ranked(entries: readonly [string, number][]): RankedMatches {
  const urns = entries.map(([urn]) => urn);
  const facets = urns.map((urn) => ({ name: urn }) as unknown as FacetValues);
  return new RankedMatches(urns, Float64Array.from(entries.map(([, score]) => score)), facets, (k) => ({
    [urns[k]!]: ['name'],
  }));
}

/** The exact order, by a plain comparator sort. */
function expected(entries: readonly [string, number][]): string[] {
  return [...entries].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([urn]) => urn);
}

// Scores apart in the last bits of the mantissa only, which a sort on the leading 32 bits cannot tell apart.
const near = (base: number, ulps: number) => {
  const value = new Float64Array([base]);
  new BigInt64Array(value.buffer)[0]! += BigInt(ulps);
  return value[0]!;
};

test('every page is in exact order: score descending, then URN, near-equal scores included', () => {
  const entries: [string, number][] = [];
  for (let i = 0; i < 500; i++)
    entries.push([`urn:${(i * 7919) % 500}`, i % 3 === 0 ? near(2.5, i % 11) : (i % 17) / 3]);
  const all = expected(entries);
  for (const [start, end] of [
    [0, 10],
    [10, 20],
    [0, 500],
    [250, 260],
    [495, 600],
  ] as const) {
    const matches = ranked(entries);
    assert.equal(
      matches.slice(start, end).map((match) => match.urn),
      all.slice(start, end),
      `${start}..${end}`,
    );
  }
  const paged = ranked(entries); // small pages one after another: picked from the rest, then sorted
  const tens = Array.from({ length: 50 }, (_, page) =>
    paged.slice(page * 10, page * 10 + 10).map((match) => match.urn),
  );
  assert.equal(tens.flat(), all);
  const matches = ranked(entries);
  const pages = [0, 1, 2, 3].flatMap((page) => matches.slice(page * 125, page * 125 + 125).map((match) => match.urn));
  assert.equal(pages, all);
});

test('all scores equal (a `*` search): by URN', () => {
  const entries: [string, number][] = ['c', 'a', 'd', 'b'].map((urn) => [urn, 0]);
  assert.equal(
    ranked(entries)
      .slice(0, 4)
      .map((match) => match.urn),
    ['a', 'b', 'c', 'd'],
  );
});

test('a match carries its score, facets and terms; a page past the end is empty', () => {
  const matches = ranked([
    ['x', 1],
    ['y', 2],
  ]);
  const [first] = matches.slice(0, 1);
  assert.equal([first!.urn, first!.score, first!.facets.name], ['y', 2, 'y']);
  assert.equal(first!.terms(), { y: ['name'] });
  assert.equal(matches.slice(2, 10), []);
  assert.equal(matches.length, 2);
});

test('countUpTo: how many matches rank at or before a position, wherever it falls', () => {
  const entries: [string, number][] = [
    ['a', 3],
    ['b', 2],
    ['c', 2],
    ['d', 1],
  ];
  const matches = ranked(entries);
  assert.equal(matches.countUpTo({ values: [3], urn: 'a' }), 1);
  assert.equal(matches.countUpTo({ values: [2], urn: 'b' }), 2);
  assert.equal(matches.countUpTo({ values: [2], urn: 'bb' }), 2); // a position between two matches, as after a removal
  assert.equal(matches.countUpTo({ values: [2], urn: 'c' }), 3);
  assert.equal(matches.countUpTo({ values: [0.5], urn: 'z' }), 4);
  assert.equal(matches.countUpTo({ values: [9], urn: 'a' }), 0);
});

test.run();
