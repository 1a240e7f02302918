// Fuzzy matching: how many edits a query word may have, and the terms of a sorted term list within them.
// Words, terms and distances only; no scoring here.

import { forEachEndingWith, walkIndex, type WalkIndex } from './walk-index.ts';

/** Fuzzy matching starts at this many letters: a shorter word is matched as typed (or as a prefix). */
export const FUZZY_MIN_LENGTH = 5;
/** From this many letters two edits are forgiven, not one. */
const TWO_EDITS_FROM = 10;
const HAS_LETTER = /\p{L}/u;

/** Longer words are matched as typed: an edit-distance walk costs a row per letter, and no typo is that long. */
const FUZZY_MAX_LENGTH = 64;

/** Edits forgiven in `word`: none below 5 letters, above 64, or without a letter (42421 is no typo of 42422). */
export function fuzzyEdits(word: string): number {
  if (word.length < FUZZY_MIN_LENGTH || word.length > FUZZY_MAX_LENGTH || !HAS_LETTER.test(word)) return 0;
  return word.length < TWO_EDITS_FROM ? 1 : 2;
}

/** Words this long or longer are looked up in two parts (termsWithinEdits); shorter ones by one walk. */
const SPLIT_FROM = 4;
/** The share of a split word's letters in its head; the tail is the rest (measured: 0.4 visits the fewest). */
const HEAD_SHARE = 0.4;

/**
 * Every term of `sorted` (in code-unit order) within `max` edits of `word` (Levenshtein: a transposition
 * is two), with its distance. `index` is walkIndex(sorted), which the caller keeps while the list is unchanged.
 *
 * A word is cut into a head and a tail, and an alignment within `max` edits spends either at most max - 1
 * of them by the time it leaves the head's last letter, or all `max` there and none after, so the term ends
 * with the tail as typed. The first kind are found by a walk that gives up on a prefix as soon as it is
 * more than max - 1 edits from every prefix of the head (most prefixes, after a letter or two); the
 * second by looking up the terms that end with the tail, each measured on its own.
 */
export function termsWithinEdits(
  sorted: readonly string[],
  word: string,
  max: number,
  index: WalkIndex = walkIndex(sorted),
): Map<string, number> {
  const found = new Map<string, number>();
  if (max === 0 || word.length < SPLIT_FROM) {
    walk(sorted, word, max, index, -1, found);
    return found;
  }
  const head = Math.round(word.length * HEAD_SHARE);
  walk(sorted, word, max, index, head, found);
  forEachEndingWith(index, word, head, (at) => {
    const distance = editDistanceWithin(word, sorted[at]!, max);
    if (distance <= max) found.set(sorted[at]!, distance);
  });
  return found;
}

// Rows of the walk, reused from call to call: row d (the first d letters of a term) at d × (word length + 1).
let cells = new Int32Array(0);

/**
 * The walk over `sorted` as a trie: a term reuses the edit-distance rows of the prefix it shares with the
 * term visited before, and once every cell of a prefix's row exceeds `max`, all terms with that prefix are
 * skipped. With `head` ≥ 0, a cell of the first `head` letters of the word over max - 1 counts as out of
 * reach (the alignments through it are the tail lookup's), so that prefixes die sooner. The distances
 * found are exact either way: an alignment cut off so costs max at least, and so does the best one then.
 */
function walk(
  sorted: readonly string[],
  word: string,
  max: number,
  index: WalkIndex,
  head: number,
  found: Map<string, number>,
): void {
  const { codes, starts, shared, after } = index;
  const width = word.length + 1;
  const out = max + 1;
  const cap = max - 1;
  const deepest = word.length + max;
  if (cells.length < (deepest + 1) * width) cells = new Int32Array((deepest + 1) * width * 2);
  const rows = cells;
  for (let j = 0; j < width; j++) rows[j] = j <= head && j > cap ? out : j;
  let valid = 0; // rows 1..valid hold the current prefix
  let at = 0;
  while (at < sorted.length) {
    const start = starts[at]!;
    const length = starts[at + 1]! - start;
    // What this term shares with the one visited before: every term skipped since shared more with it
    // than this one does, so it is this term's share with the term just before it.
    valid = Math.min(valid, shared[at]!);
    let pruned = -1;
    for (let d = valid + 1; d <= length && d <= deepest; d++) {
      const best = bandRow(rows, (d - 1) * width, d * width, word, codes[start + d - 1]!, d, max, head);
      valid = d;
      if (best > max) {
        pruned = d;
        break;
      }
    }
    if (pruned > 0) {
      // The terms after this one that begin with its first `pruned` letters: they share that many with it.
      at++;
      while (at < sorted.length && shared[at]! >= pruned) at = after[at]!;
      continue;
    }
    const distance = rows[valid * width + word.length]!;
    if (valid === length && Math.abs(length - word.length) <= max && distance <= max) found.set(sorted[at]!, distance);
    at++;
  }
}

/**
 * Row d of the table of `word` against a term whose d-th code unit is `letter`, at `row` in `rows`, from
 * the one at `above`; its least cell. Only the band of cells within `max` of the diagonal can be within
 * `max`; the cells just outside it read as out of reach (max + 1), for this row's first cell and the next
 * row's last. With `head` ≥ 0, a cell of the word's first `head` letters over max - 1 reads so too (walk).
 */
function bandRow(
  rows: Int32Array,
  above: number,
  row: number,
  word: string,
  letter: number,
  d: number,
  max: number,
  head: number,
): number {
  const out = max + 1;
  const cap = max - 1;
  rows[row] = head >= 0 && d > cap ? out : d;
  const low = Math.max(1, d - max);
  const high = Math.min(word.length, d + max);
  if (low > 1) rows[row + low - 1] = out;
  if (high < word.length) rows[row + high + 1] = out;
  let best = low === 1 ? rows[row]! : out;
  for (let j = low; j <= high; j++) {
    const cost = word.charCodeAt(j - 1) === letter ? 0 : 1;
    let value = Math.min(rows[above + j]! + 1, rows[row + j - 1]! + 1, rows[above + j - 1]! + cost);
    if (j <= head && value > cap) value = out;
    rows[row + j] = value;
    if (value < best) best = value;
  }
  return best;
}

// Two rows for editDistanceWithin, reused.
let pair = new Int32Array(0);

/** The edit distance of `a` and `b` when at most `max`, else max + 1 (the band of the full table). */
export function editDistanceWithin(a: string, b: string, max: number): number {
  const out = max + 1;
  if (Math.abs(a.length - b.length) > max) return out;
  const width = a.length + 1;
  if (pair.length < 2 * width) pair = new Int32Array(4 * width);
  let above = 0;
  let row = width;
  for (let j = 0; j < width; j++) pair[j] = j;
  for (let d = 1; d <= b.length; d++) {
    if (bandRow(pair, above, row, a, b.charCodeAt(d - 1), d, max, -1) > max) return out;
    [above, row] = [row, above];
  }
  return Math.min(pair[above + a.length]!, out);
}
