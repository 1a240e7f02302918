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

/**
 * Every term of `sorted` (in code-unit order) within `max` edits of `word` (Levenshtein: a transposition
 * is two), with its distance. The sorted list is walked as a trie: a term reuses the edit-distance rows of
 * the prefix it shares with the term before, and once every cell of a prefix's row exceeds `max`, all
 * terms with that prefix are skipped by one binary search, so few of the terms are ever looked at.
 */
export function termsWithinEdits(sorted: readonly string[], word: string, max: number): Map<string, number> {
  const found = new Map<string, number>();
  const width = word.length + 1;
  // rows[d] is the row for the first d letters of the current term.
  const rows: Uint32Array[] = [Uint32Array.from({ length: width }, (_, j) => j)];
  let previous = '';
  let valid = 0; // rows 1..valid hold the current prefix
  let at = 0;
  while (at < sorted.length) {
    const term = sorted[at]!;
    let common = 0;
    const limit = Math.min(valid, term.length, previous.length);
    while (common < limit && term.charCodeAt(common) === previous.charCodeAt(common)) common++;
    valid = common;
    previous = term;
    let pruned = -1;
    for (let d = valid + 1; d <= term.length && d <= word.length + max; d++) {
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
      const letter = term.charCodeAt(d - 1);
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
      at = skipPrefix(sorted, term.slice(0, pruned), at);
      continue;
    }
    if (valid === term.length && Math.abs(term.length - word.length) <= max && rows[valid]![word.length]! <= max)
      found.set(term, rows[valid]![word.length]!);
    at++;
  }
  return found;
}

/**
 * The index of the first term after `from` that does not begin with `prefix`. Galloping from `from`: a
 * pruned prefix is usually shared by a few terms, so the answer is near, and each probe is one native
 * string comparison with the first string after every term that begins with `prefix`.
 */
function skipPrefix(sorted: readonly string[], prefix: string, from: number): number {
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last === 0xffff) return skipPrefixSlowly(sorted, prefix, from);
  const after = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  let low = from + 1;
  let step = 1;
  let high = low;
  while (high < sorted.length && sorted[high]! < after) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  if (high > sorted.length) high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < after) low = mid + 1;
    else high = mid;
  }
  return low;
}

function skipPrefixSlowly(sorted: readonly string[], prefix: string, from: number): number {
  let low = from + 1;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]!.startsWith(prefix)) low = mid + 1;
    else high = mid;
  }
  return low;
}
