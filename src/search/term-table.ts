// Term text → term number, looked up either by a string or by a word's place in a longer text (ASCII,
// lowered on the fly), so indexing a document makes no string per word: only a new term becomes one.
// Its slots are HashedSlots'; it holds numbers and hashes, the texts are its caller's.

import { EMPTY, HashedSlots } from './hashed-slots.ts';

export class TermTable {
  #slots = new HashedSlots();
  readonly #texts: readonly string[];

  /** `texts` is the caller's term number → text, read to tell terms of one hash apart. */
  constructor(texts: readonly string[]) {
    this.#texts = texts;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** The number of the term `text`, or -1. */
  get(text: string): number {
    const hash = hashOf(text, 0, text.length);
    const { hashes, terms } = this.#slots;
    const mask = terms.length - 1;
    for (let slot = hash & mask; terms[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const term = terms[slot]!;
      if (term >= 0 && hashes[slot] === hash && this.#texts[term] === text) return term;
    }
    return -1;
  }

  /** The number of the term `text[start, end)` in lower case (ASCII text only), or -1. */
  getLowered(text: string, start: number, end: number): number {
    const hash = hashOf(text, start, end);
    const { hashes, terms } = this.#slots;
    const mask = terms.length - 1;
    for (let slot = hash & mask; terms[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const term = terms[slot]!;
      if (term >= 0 && hashes[slot] === hash && sameLowered(this.#texts[term]!, text, start, end)) return term;
    }
    return -1;
  }

  /** Files `term` (its text already in the caller's texts), which is not here yet. */
  add(term: number, text: string): void {
    this.#slots.insert(hashOf(text, 0, text.length), term);
  }

  remove(term: number, text: string): void {
    this.#slots.delete(hashOf(text, 0, text.length), term);
  }
}

/** FNV-1a of `text[start, end)` with A-Z lowered, as an unsigned 32-bit number. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    hash = Math.imul(hash ^ (c >= 65 && c <= 90 ? c | 32 : c), 0x01000193);
  }
  return hash >>> 0;
}

function sameLowered(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (term.charCodeAt(i - start) !== (c >= 65 && c <= 90 ? c | 32 : c)) return false;
  }
  return true;
}
