// The search index's vocabulary: each term's number, every term in code-unit order for prefix and fuzzy
// lookups, and the terms one edit from a word. The number of a term no document holds any more goes to the
// next new term. It knows terms only, never documents or scores.

import { NearCache, type Near } from './near-cache.ts';
import { ONE_EDIT_WORDS, OneEditIndex, withinOneEdit } from './one-edit-index.ts';
import { TermWalker } from './term-walker.ts';
import { TermTable } from './term-table.ts';

/** New terms up to this many are inserted one by one into the sorted list; more, and it is merged anew. */
const INSERT_ONE_BY_ONE = 8;

export class TermDictionary {
  #texts: string[] = [];
  #ids = new TermTable(this.#texts);
  #free: number[] = [];
  #sorted: string[] = [];
  // The number each text of #sorted had when it was listed: still its number while #texts says so.
  #sortedTerms: number[] = [];
  #walker = new TermWalker();
  // Terms added since the sorted list was last brought up to date; merged in by the next sorted().
  #unsorted: string[] = [];
  // Terms dropped since the sorted list was last rebuilt: it may still list them (lookups skip them).
  #dropped = 0;
  #oneEdit = new OneEditIndex();
  // Query words' near terms: a word searched again (the same query, a page after a page, a frequent word)
  // costs a lookup, and the terms added or dropped since it was last searched.
  #near = new NearCache();
  #isTerm = (text: string): boolean => this.#ids.get(text) >= 0;

  /** How many terms there are. */
  get size(): number {
    return this.#ids.size;
  }

  /** The number of `text`, if it is a term. */
  id(text: string): number | undefined {
    const term = this.#ids.get(text);
    return term < 0 ? undefined : term;
  }

  text(term: number): string {
    return this.#texts[term]!;
  }

  /** The number of `text`, which becomes a term when it is not one yet. */
  intern(text: string): number {
    let term = this.#ids.get(text);
    if (term >= 0) return term;
    term = this.#free.pop() ?? this.#texts.length;
    this.#texts[term] = text;
    this.#ids.add(term, text);
    this.#unsorted.push(text);
    this.#walker.added(text);
    // Merged now and then even when nobody searches, so a stream of writes cannot grow the list unbounded.
    if (this.#unsorted.length > Math.max(1024, this.#sorted.length)) this.#rebuild();
    this.#oneEdit.add(term, text);
    this.#near.added(text);
    return term;
  }

  /** The number of `text[start, end)` in lower case (ASCII text only), as intern() gives it. */
  internLowered(text: string, start: number, end: number): number {
    const term = this.#ids.getLowered(text, start, end);
    return term >= 0 ? term : this.intern(text.slice(start, end).toLowerCase());
  }

  /** Forgets `term` (no document holds it any more); its number may go to another term. */
  drop(term: number): void {
    this.#oneEdit.remove(term, this.#texts[term]!);
    this.#near.dropped();
    this.#ids.remove(term, this.#texts[term]!);
    this.#texts[term] = '';
    this.#free.push(term);
    this.#dropped++;
    this.#walker.dropped();
  }

  /**
   * Every term in code-unit order. It may still list terms dropped since it was last rebuilt (at most a
   * quarter of it): a caller checks each with id().
   */
  sorted(): readonly string[] {
    if (this.#dropped * 4 > this.#sorted.length || this.#unsorted.length > INSERT_ONE_BY_ONE) this.#rebuild();
    else if (this.#unsorted.length > 0) {
      for (const text of this.#unsorted) {
        const term = this.#ids.get(text);
        if (term < 0) continue;
        const at = this.#lowerBound(text);
        // A text dropped and added again is listed still, under the number it had.
        if (this.#sorted[at] === text) this.#sortedTerms[at] = term;
        else {
          this.#sorted.splice(at, 0, text);
          this.#sortedTerms.splice(at, 0, term);
        }
      }
      this.#unsorted = [];
    }
    return this.#sorted;
  }

  /**
   * The terms within `edits` edits of `word` (not `word` itself), with their distances, in code-unit order.
   * One edit from a word of 5 to 9 letters is looked up; more walk the sorted terms.
   */
  near(word: string, edits: number): Near {
    const remembered = this.#near.get(word, edits, this.#isTerm);
    if (remembered !== undefined) return remembered;
    const found: (readonly [string, number])[] = [];
    if (edits === 1 && word.length >= ONE_EDIT_WORDS.from && word.length <= ONE_EDIT_WORDS.to)
      for (const term of this.#oneEdit.candidates(word)) {
        const text = this.#texts[term]!;
        if (withinOneEdit(word, text)) found.push([text, 1]);
      }
    else
      for (const [text, distance] of this.#walker.within(word, edits, () => this.sorted()))
        if (distance > 0 && this.#ids.get(text) >= 0) found.push([text, distance]);
    if (found.length > 1) found.sort(([a], [b]) => (a < b ? -1 : 1));
    this.#near.set(word, edits, found);
    return found;
  }

  /** The terms that begin with `prefix`, `prefix` itself excluded, in order. */
  withPrefix(prefix: string): number[] {
    const sorted = this.sorted();
    const found: number[] = [];
    for (let at = this.#lowerBound(prefix); at < sorted.length && sorted[at]!.startsWith(prefix); at++) {
      // A listed term dropped since has another text under its number (another term's, or none: '').
      const term = this.#sortedTerms[at]!;
      if (this.#texts[term] === sorted[at] && sorted[at] !== prefix) found.push(term);
    }
    return found;
  }

  // One merge of the sorted list with the new terms, leaving out dropped ones: linear in the terms.
  #rebuild(): void {
    const added = [...new Set(this.#unsorted)].sort();
    const sorted = this.#sorted;
    const merged: string[] = [];
    const terms: number[] = [];
    let i = 0;
    let j = 0;
    while (i < sorted.length || j < added.length) {
      const text = j >= added.length || (i < sorted.length && sorted[i]! <= added[j]!) ? sorted[i++]! : added[j++]!;
      const term = this.#ids.get(text);
      if (term >= 0 && merged[merged.length - 1] !== text) {
        merged.push(text);
        terms.push(term);
      }
    }
    this.#sorted = merged;
    this.#sortedTerms = terms;
    this.#unsorted = [];
    this.#dropped = 0;
  }

  #lowerBound(text: string): number {
    const sorted = this.#sorted;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! < text) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
