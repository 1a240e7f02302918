// Fuzzy matching: how many edits a query word may have, and the terms of a sorted term list within them.
// Words, terms and distances only; no scoring here.

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

/** Longest common prefix a walk index tells exactly; longer ones read as this (no walk goes as deep). */
const MAX_SHARED = 255;

/**
 * A sorted term list laid out for walking: every term's code units one after another in one array, and
 * how many leading code units each term shares with the one before it (0 for the first; at most 255).
 * Built once per sorted list, it lets a walk read terms in memory order and skip them without reading them.
 */
export interface WalkIndex {
  codes: Uint16Array;
  /** Where each term's code units begin in `codes`; one more entry, where the last one ends. */
  starts: Uint32Array;
  shared: Uint8Array;
}

export function walkIndex(sorted: readonly string[]): WalkIndex {
  const starts = new Uint32Array(sorted.length + 1);
  for (let at = 0; at < sorted.length; at++) starts[at + 1] = starts[at]! + sorted[at]!.length;
  const codes = new Uint16Array(starts[sorted.length]!);
  const shared = new Uint8Array(sorted.length);
  for (let at = 0; at < sorted.length; at++) {
    const term = sorted[at]!;
    const start = starts[at]!;
    for (let c = 0; c < term.length; c++) codes[start + c] = term.charCodeAt(c);
    if (at === 0) continue;
    const before = starts[at - 1]!;
    const limit = Math.min(term.length, start - before, MAX_SHARED);
    let common = 0;
    while (common < limit && codes[start + common] === codes[before + common]) common++;
    shared[at] = common;
  }
  return { codes, starts, shared };
}

/**
 * Every term of `sorted` (in code-unit order) within `max` edits of `word` (Levenshtein: a transposition
 * is two), with its distance. The sorted list is walked as a trie: a term reuses the edit-distance rows of
 * the prefix it shares with the term visited before, and once every cell of a prefix's row exceeds `max`,
 * all terms with that prefix are skipped, so few of the terms are ever looked at. `index` is
 * walkIndex(sorted), which the caller keeps while the list is unchanged.
 */
export function termsWithinEdits(
  sorted: readonly string[],
  word: string,
  max: number,
  index: WalkIndex = walkIndex(sorted),
): Map<string, number> {
  const { codes, starts, shared } = index;
  const found = new Map<string, number>();
  const width = word.length + 1;
  // rows[d] is the row for the first d letters of the current term.
  const rows: Uint32Array[] = [Uint32Array.from({ length: width }, (_, j) => j)];
  let valid = 0; // rows 1..valid hold the current prefix
  let at = 0;
  while (at < sorted.length) {
    const start = starts[at]!;
    const length = starts[at + 1]! - start;
    // What this term shares with the one visited before: every term skipped since shared more with it
    // than this one does, so it is this term's share with the term just before it.
    valid = Math.min(valid, shared[at]!);
    let pruned = -1;
    for (let d = valid + 1; d <= length && d <= word.length + max; d++) {
      const above = rows[d - 1]!;
      const row = (rows[d] ??= new Uint32Array(width));
      row[0] = d;
      // Only the band of cells within `max` of the diagonal can be within `max`; the cells just outside it
      // read as out of reach, for this row's first cell and the next row's last.
      const low = Math.max(1, d - max);
      const high = Math.min(word.length, d + max);
      if (low > 1) row[low - 1] = max + 1;
      if (high < word.length) row[high + 1] = max + 1;
      let best = low === 1 ? d : max + 1;
      const letter = codes[start + d - 1]!;
      for (let j = low; j <= high; j++) {
        const cost = word.charCodeAt(j - 1) === letter ? 0 : 1;
        const value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
        row[j] = value;
        if (value < best) best = value;
      }
      valid = d;
      if (best > max) {
        pruned = d;
        break;
      }
    }
    if (pruned > 0) {
      // The terms after this one that begin with its first `pruned` letters: they share that many with it.
      at++;
      while (at < sorted.length && shared[at]! >= pruned) at++;
      continue;
    }
    if (valid === length && Math.abs(length - word.length) <= max && rows[valid]![word.length]! <= max)
      found.set(sorted[at]!, rows[valid]![word.length]!);
    at++;
  }
  return found;
}
