// Terms one edit away from a word, found by lookups rather than a walk over every term: each term is
// filed under itself and under each one-letter deletion of it (hashed, in typed arrays), so a word's own
// deletions meet every term one substitution, insertion or deletion away. Terms and numbers only.

import { EMPTY, HashedSlots } from './hashed-slots.ts';

/** Query words of these lengths are looked up here (words of 5 to 9 letters allow one edit). */
export const ONE_EDIT_WORDS = { from: 5, to: 9 } as const;
// Terms one edit from such a word are one letter shorter or longer at most.
const FILED = { from: ONE_EDIT_WORDS.from - 1, to: ONE_EDIT_WORDS.to + 1 };

export class OneEditIndex {
  #slots = new HashedSlots();

  /** Files `term` (its text `text`) under itself and its deletions. */
  add(term: number, text: string): void {
    if (text.length < FILED.from || text.length > FILED.to) return;
    this.#slots.insert(hashWithout(text, -1), term);
    for (let i = 0; i < text.length; i++) this.#slots.insert(hashWithout(text, i), term);
  }

  /** Unfiles `term`, as add() filed it. */
  remove(term: number, text: string): void {
    if (text.length < FILED.from || text.length > FILED.to) return;
    this.#slots.delete(hashWithout(text, -1), term);
    for (let i = 0; i < text.length; i++) this.#slots.delete(hashWithout(text, i), term);
  }

  /**
   * The terms that may be one edit from `word`: every one that is, and a few that share a hash only
   * (the caller checks each: withinOneEdit).
   */
  candidates(word: string): Set<number> {
    const found = new Set<number>();
    this.#collect(hashWithout(word, -1), found);
    for (let i = 0; i < word.length; i++) this.#collect(hashWithout(word, i), found);
    return found;
  }

  #collect(hash: number, found: Set<number>): void {
    const { hashes, terms } = this.#slots;
    const mask = terms.length - 1;
    for (let slot = hash & mask; terms[slot] !== EMPTY; slot = (slot + 1) & mask)
      if (hashes[slot] === hash && terms[slot]! >= 0) found.add(terms[slot]!);
  }
}

/** FNV-1a of `text` without its letter at `skip` (-1: the whole text), as an unsigned 32-bit number. */
function hashWithout(text: string, skip: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    if (i === skip) continue;
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/** Whether `a` and `b` are exactly one edit apart (a substitution, an insertion or a deletion). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a.length < b.length) [a, b] = [b, a];
  if (a.length - b.length > 1) return false;
  let i = 0;
  while (i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length) {
    if (i === a.length) return false; // the same text: no edit
    for (let j = i + 1; j < a.length; j++) if (a.charCodeAt(j) !== b.charCodeAt(j)) return false;
    return true;
  }
  for (let j = i; j < b.length; j++) if (a.charCodeAt(j + 1) !== b.charCodeAt(j)) return false;
  return true;
}
