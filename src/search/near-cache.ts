// Query words' near terms (TermDictionary.near), remembered across changes to the vocabulary: a dropped
// term is left out when an answer is read, a term added since is measured against the word then. Terms by
// text only; which texts are terms is the caller's to say, and it never looks terms up itself.

import { editDistanceWithin } from './term-neighbours.ts';

/**
 * Query words remembered (per number of edits). The first remembered goes first unless read since it was
 * stored or last passed over (CLOCK, as the response cache): a hit only marks its entry, so a word searched
 * often stays while one-off words come and go.
 */
export const REMEMBERED = 8192;
/** Terms added since an answer that are measured when it is read; more, and it is looked up anew. */
const ADDED_KEPT = 256;

export type Near = readonly (readonly [string, number])[];

interface Entry {
  found: Near;
  /** How many terms had been added (the log's position) and dropped when `found` was last brought up to date. */
  added: number;
  dropped: number;
  /** Read since it was stored or last passed over by eviction. */
  read: boolean;
}

export class NearCache {
  // [edits] → query word → its entry.
  #entries: Map<string, Entry>[] = [];
  // Terms added since position #base of the log of every term added, in order.
  #added: string[] = [];
  #base = 0;
  #dropped = 0;

  /** `text` became a term. */
  added(text: string): void {
    if (this.#added.length >= ADDED_KEPT) {
      this.#base += this.#added.length;
      this.#added = [];
    }
    this.#added.push(text);
  }

  /** A term is no longer one. */
  dropped(): void {
    this.#dropped++;
  }

  /** The remembered near terms of `word`, brought up to date (`isTerm` tells the texts still terms), if any. */
  get(word: string, edits: number, isTerm: (text: string) => boolean): Near | undefined {
    const entries = this.#entries[edits];
    const entry = entries?.get(word);
    if (entry === undefined) return undefined;
    entry.read = true;
    if (entry.added < this.#base) {
      entries!.delete(word);
      return undefined;
    }
    const end = this.#base + this.#added.length;
    if (entry.added === end && entry.dropped === this.#dropped) return entry.found;
    let found = entry.dropped === this.#dropped ? entry.found : entry.found.filter(([text]) => isTerm(text));
    if (entry.added < end) {
      const more: (readonly [string, number])[] = [];
      for (let k = entry.added - this.#base; k < this.#added.length; k++) {
        const text = this.#added[k]!;
        const distance = editDistanceWithin(word, text, edits);
        // A text added twice (dropped between) is listed once.
        if (distance === 0 || distance > edits || !isTerm(text)) continue;
        if (found.some(([known]) => known === text) || more.some(([known]) => known === text)) continue;
        more.push([text, distance]);
      }
      if (more.length > 0) found = [...found, ...more].sort(([a], [b]) => (a < b ? -1 : 1));
    }
    entry.found = found;
    entry.added = end;
    entry.dropped = this.#dropped;
    return found;
  }

  /** Remembers `found`, the near terms of `word` in the vocabulary as it is now. */
  set(word: string, edits: number, found: Near): void {
    const entries = (this.#entries[edits] ??= new Map<string, Entry>());
    // Each marked entry is passed over once (to the young end, unmarked): the loop ends within one round.
    while (entries.size >= REMEMBERED) {
      const oldest = entries.keys().next().value as string;
      const entry = entries.get(oldest)!;
      entries.delete(oldest);
      if (!entry.read) break;
      entry.read = false;
      entries.set(oldest, entry);
    }
    entries.set(word, { found, added: this.#base + this.#added.length, dropped: this.#dropped, read: false });
  }
}
