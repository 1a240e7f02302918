// The terms within some edits of a word (term-neighbours.ts's walk) over a copy of the sorted vocabulary
// laid out for walking, plus the few terms added since, walked on their own: a write that brings a new word
// does not lay out the whole vocabulary again. Knows term texts only; which are still terms is the caller's.

import { termsWithinEdits } from './term-neighbours.ts';
import { walkIndex, type WalkIndex } from './walk-index.ts';

/** Terms added since the copy, beyond which it is taken anew: at least this many, or a sixteenth of it. */
const ADDED_AT_MOST = 64;

export class TermWalker {
  #copy: { sorted: readonly string[]; index: WalkIndex } | null = null;
  #added: string[] = [];
  // The added terms sorted and laid out for walking, made by the first walk after one was added.
  #addedWalk: { sorted: readonly string[]; index: WalkIndex } | null = null;
  #dropped = 0;

  /** `text` became a term. */
  added(text: string): void {
    if (this.#copy === null) return;
    this.#added.push(text);
    this.#addedWalk = null;
    // Nobody may search for a long while: the list of added terms is bounded, the copy made again later.
    if (this.#added.length > Math.max(ADDED_AT_MOST, this.#copy.sorted.length >> 4)) this.#forget();
  }

  /** A term is no longer one: the copy still lists it (the caller skips it) until a quarter of it is gone. */
  dropped(): void {
    if (this.#copy !== null && ++this.#dropped * 4 > this.#copy.sorted.length) this.#forget();
  }

  #forget(): void {
    this.#copy = null;
    this.#added = [];
    this.#addedWalk = null;
    this.#dropped = 0;
  }

  /**
   * Every term within `max` edits of `word` with its distance, in no particular order; it may include
   * terms dropped since they were listed. `sorted` gives the vocabulary in code-unit order when a copy is due.
   */
  within(word: string, max: number, sorted: () => readonly string[]): Map<string, number> {
    if (this.#copy === null) {
      const copy = [...sorted()];
      this.#copy = { sorted: copy, index: walkIndex(copy) };
    }
    const found = termsWithinEdits(this.#copy.sorted, word, max, this.#copy.index);
    if (this.#added.length > 0) {
      if (this.#addedWalk === null) {
        const added = [...new Set(this.#added)].sort();
        this.#addedWalk = { sorted: added, index: walkIndex(added) };
      }
      for (const [text, distance] of termsWithinEdits(this.#addedWalk.sorted, word, max, this.#addedWalk.index))
        found.set(text, distance);
    }
    return found;
  }
}
