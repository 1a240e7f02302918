// A query word's document terms, weighted as MiniSearch weighs them: the word as typed, the longer terms
// it begins (the last word only) and its near misspellings. Reads the vocabulary only, never postings or scores.

import type { TermDictionary } from './term-dictionary.ts';
import { fuzzyEdits } from './term-neighbours.ts';

/** Weights of a word found as a prefix or with a typo, relative to the word as typed (MiniSearch's). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** A query word's document terms: itself, longer ones it begins (last word only), near misspellings. */
export type Derived = { term: number; weight: number }[];

/** The terms of `terms` that `word` matches, each once, with its weight. */
export function derivedTerms(terms: TermDictionary, word: string, isLast: boolean): Derived {
  const derived: Derived = [];
  const seen = new Set<number>();
  const exact = terms.id(word);
  if (exact !== undefined) {
    derived.push({ term: exact, weight: 1 });
    seen.add(exact);
  }
  if (isLast) {
    for (const term of terms.withPrefix(word)) {
      const text = terms.text(term);
      seen.add(term);
      const distance = text.length - word.length;
      derived.push({ term, weight: (PREFIX_WEIGHT * text.length) / (text.length + 0.3 * distance) });
    }
  }
  const edits = fuzzyEdits(word);
  if (edits === 0) return derived;
  for (const [text, distance] of terms.near(word, edits)) {
    const term = terms.id(text);
    if (term === undefined || distance === 0 || seen.has(term)) continue;
    derived.push({ term, weight: (FUZZY_WEIGHT * text.length) / (text.length + distance) });
  }
  return derived;
}

/** A query's terms as bits over every term number below `terms`, for the few documents a page shows. */
export function termBits(derived: readonly { terms: Derived }[], terms: number): Uint32Array {
  const bits = new Uint32Array((terms >>> 5) + 1);
  for (const { terms } of derived) for (const { term } of terms) bits[term >>> 5]! |= 1 << (term & 31);
  return bits;
}
