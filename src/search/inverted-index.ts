// A hand-written in-memory inverted index scored with BM25+ per field, as MiniSearch scored it: documents
// in, ranked ids with their matched terms out. It knows text and weights only, never the catalogue.

import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from './fields.ts';
import { tokenize } from './text.ts';
import { fieldTerms } from './field-terms.ts';
import { byScoreDescending } from './score-order.ts';
import { fuzzyEdits, termsWithinEdits } from './term-neighbours.ts';

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Weights of a word found as a prefix or with a typo, relative to the word as typed (MiniSearch's). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const BOOST = TEXT_FIELDS.map((field) => FIELD_WEIGHTS[field]);

export interface IndexHit {
  id: string;
  score: number;
  /** Matched document term → the fields it occurs in. */
  matches: Record<string, TextField[]>;
}

/** One term in one field: the documents holding it, how often, and how many of them are not removed. */
interface Postings {
  docs: number[];
  freqs: number[];
  live: number;
}

/** A query word's document terms: itself, longer ones it begins (last word only), near misspellings. */
type Derived = { term: number; weight: number }[];

export class InvertedIndex {
  #termIds = new Map<string, number>();
  #terms: string[] = [];
  #sorted: string[] = []; // every term in order, for prefixes
  #unsorted: string[] = []; // terms added since the last query, merged into #sorted by the next one
  #postings: (Postings | undefined)[][] = TEXT_FIELDS.map(() => []); // [field][term]
  #fieldLength: number[][] = TEXT_FIELDS.map(() => []); // [field][doc], distinct terms
  #totalLength = TEXT_FIELDS.map(() => 0); // over live documents
  #ids: string[] = []; // [doc] → id
  #docTerms: (Uint32Array | null)[] = []; // [doc] → (term × 16 + field, frequency) pairs; null once removed
  #byId = new Map<string, number>();
  #livePostings = 0;
  #deadPostings = 0;
  // Per-query scratch, reused: a document's score and how many query words it has matched so far.
  #score = new Float64Array(0);
  #count = new Uint32Array(0);

  get size(): number {
    return this.#byId.size;
  }

  /** Postings of live documents and of removed ones not yet compacted away. */
  get postings(): { live: number; dead: number } {
    return { live: this.#livePostings, dead: this.#deadPostings };
  }

  /** Adds the document `id`, or replaces it when already there. */
  put(id: string, text: DocumentText): void {
    this.remove(id);
    this.#add(
      id,
      fieldTerms(text).map((terms) => {
        const counts = new Map<string, number>();
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
        return counts;
      }),
    );
  }

  /** Removes `id`: its postings become tombstones, skipped by queries and dropped by compaction. */
  remove(id: string): void {
    const doc = this.#byId.get(id);
    if (doc === undefined) return;
    this.#byId.delete(id);
    const pairs = this.#docTerms[doc]!;
    this.#docTerms[doc] = null;
    for (let i = 0; i < pairs.length; i += 2) this.#postings[pairs[i]! & 15]![pairs[i]! >>> 4]!.live--;
    for (let f = 0; f < TEXT_FIELDS.length; f++) this.#totalLength[f]! -= this.#fieldLength[f]![doc]!;
    this.#livePostings -= pairs.length / 2;
    this.#deadPostings += pairs.length / 2;
    // Compacting costs one pass over the live postings; after a quarter more dead ones, that is amortised.
    if (this.#deadPostings * 4 > this.#livePostings + this.#deadPostings) this.compact();
  }

  /** Rebuilds the index from its live documents: tombstones, unused terms and document slots go. */
  compact(): void {
    const docs: [string, Map<string, number>[]][] = [];
    for (const [id, doc] of this.#byId) {
      const fields = TEXT_FIELDS.map(() => new Map<string, number>());
      const pairs = this.#docTerms[doc]!;
      for (let i = 0; i < pairs.length; i += 2)
        fields[pairs[i]! & 15]!.set(this.#terms[pairs[i]! >>> 4]!, pairs[i + 1]!);
      docs.push([id, fields]);
    }
    const fresh = new InvertedIndex();
    for (const [id, fields] of docs) fresh.#add(id, fields);
    this.#termIds = fresh.#termIds;
    this.#terms = fresh.#terms;
    this.#sorted = fresh.#sorted;
    this.#unsorted = fresh.#unsorted;
    this.#postings = fresh.#postings;
    this.#fieldLength = fresh.#fieldLength;
    this.#totalLength = fresh.#totalLength;
    this.#ids = fresh.#ids;
    this.#docTerms = fresh.#docTerms;
    this.#byId = fresh.#byId;
    this.#livePostings = fresh.#livePostings;
    this.#deadPostings = 0;
    this.#score = new Float64Array(0);
    this.#count = new Uint32Array(0);
  }

  /** The documents matching every word of `query` (in `fields` only, when given), best first. */
  query(query: string, fields?: readonly TextField[]): IndexHit[] {
    const words = [...new Set(tokenize(query))];
    if (words.length === 0) return [];
    this.#sortTerms();
    const allowed = fields === undefined ? null : new Set(fields.map((field) => TEXT_FIELDS.indexOf(field)));
    const lastWord = tokenize(query).at(-1)!;
    // The rarest word first: later words only visit the documents every earlier word matched.
    const derived = words
      .map((word) => this.#derive(word, word === lastWord))
      .map((terms) => ({ terms, cost: this.#cost(terms, allowed) }))
      .sort((a, b) => a.cost - b.cost);
    if (derived[0]!.cost === 0) return [];
    const n = this.#ids.length;
    if (this.#score.length < n) {
      this.#score = new Float64Array(Math.ceil(n * 1.25));
      this.#count = new Uint32Array(Math.ceil(n * 1.25));
    }
    const touched: number[] = [];
    derived.forEach(({ terms }, word) => {
      for (const { term, weight } of terms) this.#accumulate(term, weight, word, allowed, touched);
    });
    const all = words.length;
    const docs: number[] = [];
    for (const doc of touched) if (this.#count[doc] === all) docs.push(doc);
    const hits: IndexHit[] = [];
    for (const at of byScoreDescending(docs.map((doc) => this.#score[doc]!))) {
      const doc = docs[at]!;
      // MiniSearch multiplies by the number of query words matched: here always all of them.
      hits.push({ id: this.#ids[doc]!, score: this.#score[doc]! * all, matches: {} });
      this.#count[doc] = hits.length + all; // the hit's place + all + 1, told apart from a count of words
    }
    // A second walk over the same postings, for the hits only: cheaper than noting every posting on the way.
    for (const { terms } of derived) for (const { term } of terms) this.#addMatches(term, allowed, hits, all);
    for (const doc of touched) {
      this.#score[doc] = 0;
      this.#count[doc] = 0;
    }
    return hits;
  }

  #addMatches(term: number, allowed: ReadonlySet<number> | null, hits: IndexHit[], all: number): void {
    const text = this.#terms[term]!;
    for (let f = 0; f < TEXT_FIELDS.length; f++) {
      if (allowed !== null && !allowed.has(f)) continue;
      const postings = this.#postings[f]![term];
      if (postings === undefined || postings.live === 0) continue;
      const field = TEXT_FIELDS[f]!;
      for (const doc of postings.docs) {
        const at = this.#count[doc]! - all;
        if (at <= 0 || this.#docTerms[doc] === null) continue;
        const matches = hits[at - 1]!.matches;
        const list = matches[text];
        if (list === undefined) matches[text] = ONLY[f]!;
        else if (!list.includes(field)) matches[text] = [...list, field];
      }
    }
  }

  #add(id: string, fields: Map<string, number>[]): void {
    const doc = this.#ids.length;
    this.#ids.push(id);
    this.#byId.set(id, doc);
    const pairs: number[] = [];
    fields.forEach((counts, f) => {
      this.#fieldLength[f]![doc] = counts.size;
      this.#totalLength[f]! += counts.size;
      const table = this.#postings[f]!;
      for (const [text, freq] of counts) {
        const term = this.#termId(text);
        const postings = (table[term] ??= { docs: [], freqs: [], live: 0 });
        postings.docs.push(doc);
        postings.freqs.push(freq);
        postings.live++;
        pairs.push(term * 16 + f, freq);
      }
    });
    this.#docTerms.push(Uint32Array.from(pairs));
    this.#livePostings += pairs.length / 2;
  }

  #termId(text: string): number {
    let term = this.#termIds.get(text);
    if (term !== undefined) return term;
    term = this.#terms.length;
    this.#termIds.set(text, term);
    this.#terms.push(text);
    this.#unsorted.push(text);
    return term;
  }

  #sortTerms(): void {
    if (this.#unsorted.length === 0) return;
    if (this.#unsorted.length < 64)
      for (const term of this.#unsorted) this.#sorted.splice(this.#lowerBound(term), 0, term);
    else this.#sorted = [...this.#sorted, ...this.#unsorted].sort();
    this.#unsorted = [];
  }

  #lowerBound(term: string): number {
    let low = 0;
    let high = this.#sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.#sorted[mid]! < term) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #derive(word: string, isLast: boolean): Derived {
    const terms: Derived = [];
    const seen = new Set<number>();
    const exact = this.#termIds.get(word);
    if (exact !== undefined) {
      terms.push({ term: exact, weight: 1 });
      seen.add(exact);
    }
    if (isLast) {
      for (let at = this.#lowerBound(word); at < this.#sorted.length && this.#sorted[at]!.startsWith(word); at++) {
        const text = this.#sorted[at]!;
        if (text === word) continue;
        const term = this.#termIds.get(text)!;
        seen.add(term);
        const distance = text.length - word.length;
        terms.push({ term, weight: (PREFIX_WEIGHT * text.length) / (text.length + 0.3 * distance) });
      }
    }
    const edits = fuzzyEdits(word);
    if (edits === 0) return terms;
    for (const [text, distance] of termsWithinEdits(this.#sorted, word, edits)) {
      const term = this.#termIds.get(text)!;
      if (distance === 0 || seen.has(term)) continue;
      terms.push({ term, weight: (FUZZY_WEIGHT * text.length) / (text.length + distance) });
    }
    return terms;
  }

  #cost(terms: Derived, allowed: ReadonlySet<number> | null): number {
    let cost = 0;
    for (const { term } of terms)
      for (let f = 0; f < TEXT_FIELDS.length; f++)
        if (allowed === null || allowed.has(f)) cost += this.#postings[f]![term]?.live ?? 0;
    return cost;
  }

  #accumulate(
    term: number,
    weight: number,
    word: number,
    allowed: ReadonlySet<number> | null,
    touched: number[],
  ): void {
    const live = this.#byId.size;
    for (let f = 0; f < TEXT_FIELDS.length; f++) {
      if (allowed !== null && !allowed.has(f)) continue;
      const postings = this.#postings[f]![term];
      if (postings === undefined || postings.live === 0) continue;
      const boost = BOOST[f]! * weight;
      const idf = Math.log(1 + (live - postings.live + 0.5) / (postings.live + 0.5));
      const average = this.#totalLength[f]! / live;
      const lengths = this.#fieldLength[f]!;
      const { docs, freqs } = postings;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const count = this.#count[doc]!;
        // A document counts when it matched every earlier word; a second term of this word adds to it.
        if (count !== word && count !== word + 1) continue;
        if (this.#docTerms[doc] === null) continue;
        if (count === word) {
          this.#count[doc] = word + 1;
          if (word === 0) touched.push(doc);
        }
        const tf = freqs[i]!;
        const norm = 1 - BM25.b + (BM25.b * lengths[doc]!) / average;
        this.#score[doc]! += boost * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * norm));
      }
    }
  }
}

/** One field alone, shared by every match in that field only (frozen: nothing may change a shared list). */
const ONLY = TEXT_FIELDS.map((field) => Object.freeze([field]) as unknown as TextField[]);
