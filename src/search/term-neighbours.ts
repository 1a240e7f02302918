// Finding an index's terms within one or two edits of a query word, for fuzzy matching: candidate
// lists and a bounded edit distance. Terms and numbers only; no scoring here.

/** Shortest and longest terms a 5-to-9-letter word can reach with one edit. */
const ONE_EDIT_SHORTEST = 4;
const ONE_EDIT_LONGEST = 10;
/** Shortest term a word of 10+ letters can reach with two edits. */
const TWO_EDITS_SHORTEST = 8;

/**
 * Terms within one edit of a word, by symmetric deletion: a term and each of its one-letter deletions
 * are keys to it, so a word's own deletions find every term one insertion, deletion or substitution away.
 */
export class OneEditCandidates {
  #keys = new Map<string, number[]>();

  add(text: string, term: number): void {
    if (text.length < ONE_EDIT_SHORTEST || text.length > ONE_EDIT_LONGEST) return;
    for (const key of deletions(text)) {
      const list = this.#keys.get(key);
      if (list === undefined) this.#keys.set(key, [term]);
      else if (list.at(-1) !== term) list.push(term); // "aab" gives "ab" twice
    }
  }

  /** Terms possibly within one edit of `word` (check each with editDistanceWithin). */
  candidates(word: string): Set<number> {
    const found = new Set<number>();
    for (const key of deletions(word)) for (const term of this.#keys.get(key) ?? []) found.add(term);
    return found;
  }
}

/**
 * Terms by length, for two-edit matching of long words: the deletion keys of two edits would cost far
 * more memory, and terms of 8+ letters within two of a given length are a scan of a few thousand.
 */
export class LengthBuckets {
  #buckets: number[][] = [];

  add(text: string, term: number): void {
    if (text.length >= TWO_EDITS_SHORTEST) (this.#buckets[text.length] ??= []).push(term);
  }

  /** Every term whose length is within `edits` of `length`. */
  *around(length: number, edits: number): Iterable<number> {
    for (let l = Math.max(0, length - edits); l <= length + edits; l++) yield* this.#buckets[l] ?? [];
  }
}

function deletions(text: string): string[] {
  const keys = [text];
  for (let i = 0; i < text.length; i++) keys.push(text.slice(0, i) + text.slice(i + 1));
  return keys;
}

let previous = new Uint32Array(64);
let current = new Uint32Array(64);

/** Levenshtein distance of `a` and `b` (a transposition is two edits), or `max + 1` once it exceeds `max`. */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (previous.length <= b.length) {
    previous = new Uint32Array(b.length + 1);
    current = new Uint32Array(b.length + 1);
  }
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1; // every path through this row already costs more
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, max + 1);
}
