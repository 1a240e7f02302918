// A hand-written in-memory inverted index scored with BM25+ per field, as MiniSearch scored it: documents
// in, ranked ids with their matched terms out. Removal cleans up as it goes, a posting list at a time, so
// no call ever rebuilds the whole index. It knows text and weights only, never the catalogue; which terms a
// query word stands for is query-terms.ts's.

import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from './fields.ts';
import { tokenize } from './text.ts';
import { TermCounter } from './field-terms.ts';
import { TermDictionary } from './term-dictionary.ts';
import { derivedTerms, termBits, type Derived } from './query-terms.ts';
import { PostingList, PostingSlabs } from './posting-list.ts';
import type { BuiltIndex } from './built-index.ts';
import { NO_RESULT, type IndexResult, type TermMatches } from './index-result.ts';
import { QueryResult } from './query-result.ts';
import { FilterVerdicts, KEPT, REFUSED, UNASKED, type DocumentFilter } from './filter-verdicts.ts';

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const BOOST = TEXT_FIELDS.map((field) => FIELD_WEIGHTS[field]);

export class InvertedIndex<T = unknown> {
  #terms = new TermDictionary();
  // [term] → its posting list per field, chained in field order. Removed documents' postings are cleaned
  // out of a list once they are as many as the live ones, so they never outnumber them.
  #lists: (PostingList | null)[] = [];
  #slabs = new PostingSlabs();
  #fieldLength: number[][] = TEXT_FIELDS.map(() => []); // [field][doc], distinct terms
  #totalLength = TEXT_FIELDS.map(() => 0); // over live documents
  #ids: string[] = []; // [doc] → id
  #payloads: (T | undefined)[] = []; // [doc] → what put() was given with it
  // [doc] → its terms as term × 16 + field (frequencies are the postings'); null once removed.
  #docTerms: (Uint32Array | null)[] = [];
  // [doc] → postings of a removed document still in some list; at zero its slot is free for another.
  #references: number[] = [];
  #freeDocs: number[] = [];
  #byId = new Map<string, number>();
  #livePostings = 0;
  #deadPostings = 0;
  #counter = new TermCounter();
  // Per-query scratch, reused: a document's score and how many query words it has matched so far.
  #score = new Float64Array(0);
  #count = new Uint32Array(0);
  #verdicts = new FilterVerdicts();

  /** An empty index, or the one a first build laid out (index-builder.ts), document d carrying payloads[d]. */
  constructor(built?: BuiltIndex, payloads: (T | undefined)[] = []) {
    if (built === undefined) return;
    this.#payloads = payloads;
    this.#terms = built.terms;
    this.#lists = built.lists;
    this.#slabs = built.slabs;
    this.#fieldLength = built.fieldLength;
    this.#totalLength = built.totalLength;
    this.#ids = built.ids;
    this.#byId = built.byId;
    this.#docTerms = built.docTerms;
    this.#livePostings = built.postings;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** What the index holds: postings of live documents and of removed ones not yet cleaned out, slots, terms. */
  get stats(): { live: number; dead: number; slots: number; terms: number } {
    const slots = this.#ids.length - this.#freeDocs.length;
    return { live: this.#livePostings, dead: this.#deadPostings, slots, terms: this.#terms.size };
  }

  /** Adds the document `id`, or replaces it when already there; a query's result hands back `payload` with it. */
  put(id: string, text: DocumentText, payload?: T): void {
    this.remove(id);
    this.#verdicts.clear();
    const doc = this.#freeDocs.pop() ?? this.#ids.length;
    this.#ids[doc] = id;
    this.#payloads[doc] = payload;
    this.#byId.set(id, doc);
    const pairs = this.#counter.pairs(text, this.#terms);
    const lengths = TEXT_FIELDS.map(() => 0);
    const keys = new Uint32Array(pairs.length / 2);
    for (let i = 0; i < pairs.length; i += 2) {
      const f = pairs[i]! & 15;
      keys[i / 2] = pairs[i]!;
      this.#listOf(pairs[i]! >>> 4, f).add(doc, pairs[i + 1]!);
      lengths[f]!++;
    }
    lengths.forEach((length, f) => {
      this.#fieldLength[f]![doc] = length;
      this.#totalLength[f]! += length;
    });
    this.#docTerms[doc] = keys;
    this.#livePostings += keys.length;
  }

  /**
   * Removes `id`. Its postings stay behind, skipped by queries, until a posting list holds as many removed
   * documents as live ones: then that list is cleaned, which costs its length, paid for by the removals
   * that filled it. A document's slot and a term's number are reused once no list names them.
   */
  remove(id: string): void {
    const doc = this.#byId.get(id);
    if (doc === undefined) return;
    this.#verdicts.clear();
    this.#byId.delete(id);
    this.#payloads[doc] = undefined;
    const keys = this.#docTerms[doc]!;
    this.#docTerms[doc] = null;
    this.#references[doc] = keys.length;
    for (let f = 0; f < TEXT_FIELDS.length; f++) this.#totalLength[f]! -= this.#fieldLength[f]![doc]!;
    this.#livePostings -= keys.length;
    this.#deadPostings += keys.length;
    if (keys.length === 0) this.#freeDocs.push(doc);
    for (const key of keys) {
      const f = key & 15;
      const term = key >>> 4;
      const list = this.#list(term, f)!;
      list.live--;
      if (list.length >= 2 * list.live) this.#clean(term, list);
    }
  }

  // The list of `term` in field `f`, made (in its place in the chain) when there is none.
  #listOf(term: number, f: number): PostingList {
    let before: PostingList | null = null;
    let list = this.#lists[term] ?? null;
    while (list !== null && list.field < f) [before, list] = [list, list.next];
    if (list !== null && list.field === f) return list;
    const made = new PostingList(this.#slabs, f, list);
    if (before === null) this.#lists[term] = made;
    else before.next = made;
    return made;
  }

  #list(term: number, f: number): PostingList | undefined {
    for (let list = this.#lists[term] ?? null; list !== null; list = list.next) if (list.field === f) return list;
    return undefined;
  }

  // Drops the removed documents from one posting list, and the list itself (and its term) once empty.
  #clean(term: number, list: PostingList): void {
    this.#deadPostings -= list.clean(this.#isLive, this.#unreferenced);
    if (list.length > 0) return;
    let first: PostingList | null = this.#lists[term]!;
    if (first === list) this.#lists[term] = first = list.next;
    else {
      let before = first;
      while (before.next !== list) before = before.next!;
      before.next = list.next;
    }
    if (first === null) this.#terms.drop(term);
  }

  #isLive = (doc: number): boolean => this.#docTerms[doc] !== null;
  #unreferenced = (doc: number): void => {
    if (--this.#references[doc]! === 0) this.#freeDocs.push(doc);
  };

  /**
   * The documents matching every word of `query` (in `fields` only, when given) that `filter` keeps (when
   * given; a document stored without a payload is then left out), in no particular order: their scores at
   * once, the terms they matched only when asked, for the few a page shows. The filter is asked of a
   * document the rarest word matches before it is scored, and its answer kept until the index changes, so
   * documents it refuses cost a byte read (Elasticsearch applies a filter as a set of documents too).
   */
  query(query: string, fields?: readonly TextField[], filter?: DocumentFilter<T>): IndexResult<T> {
    const tokens = tokenize(query);
    const words = [...new Set(tokens)];
    if (words.length === 0) return NO_RESULT;
    const allowed = fields === undefined ? null : new Set(fields.map((field) => TEXT_FIELDS.indexOf(field)));
    const lastWord = tokens.at(-1)!;
    // Every word must match: one that matches nothing ends the query before the others are looked up.
    const derived: { terms: Derived; cost: number }[] = [];
    for (const word of words) {
      const terms = derivedTerms(this.#terms, word, word === lastWord);
      const cost = this.#cost(terms, allowed);
      if (cost === 0) return NO_RESULT;
      derived.push({ terms, cost });
    }
    // The rarest word first: later words only visit the documents every earlier word matched.
    derived.sort((a, b) => a.cost - b.cost);
    const n = this.#ids.length;
    if (this.#score.length < n) {
      this.#score = new Float64Array(Math.ceil(n * 1.25));
      this.#count = new Uint32Array(Math.ceil(n * 1.25));
    }
    const touched: number[] = [];
    const verdicts = filter === undefined ? null : this.#verdicts.of(filter.key, n);
    for (let word = 0; word < derived.length; word++)
      for (const { term, weight } of derived[word]!.terms)
        this.#accumulate(term, weight, word, allowed, touched, verdicts, filter ?? null);
    const all = words.length;
    const found = new Uint32Array(touched.length);
    const scores = new Float64Array(touched.length);
    let size = 0;
    for (const doc of touched) {
      // MiniSearch multiplies by the number of query words matched: here always all of them.
      if (this.#count[doc] === all) {
        found[size] = doc;
        scores[size++] = this.#score[doc]! * all;
      }
      this.#score[doc] = 0;
      this.#count[doc] = 0;
    }
    const matched = termBits(derived, this.#lists.length);
    const docs = found.subarray(0, size);
    return new QueryResult(this.#ids, this.#payloads, this, docs, scores.subarray(0, size), matched, allowed);
  }

  /** The query terms (`matched`) document `doc` holds, by field: read from its own terms, not the postings. */
  matchesOf(doc: number, matched: Uint32Array, allowed: ReadonlySet<number> | null): TermMatches {
    const found: TermMatches = {};
    const keys = this.#docTerms[doc];
    if (keys === null || keys === undefined) return found;
    // Every term a document holds has its bit: no range check, one branch (rarely taken) per term.
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const term = key >>> 4;
      if ((matched[term >>> 5]! & (1 << (term & 31))) === 0) continue;
      const f = key & 15;
      if (allowed !== null && !allowed.has(f)) continue;
      const text = this.#terms.text(term);
      const fields = found[text];
      if (fields === undefined) found[text] = [TEXT_FIELDS[f]!];
      else fields.push(TEXT_FIELDS[f]!);
    }
    return found;
  }

  #cost(terms: Derived, allowed: ReadonlySet<number> | null): number {
    let cost = 0;
    for (const { term } of terms)
      for (let list = this.#lists[term] ?? null; list !== null; list = list.next)
        if (allowed === null || allowed.has(list.field)) cost += list.live;
    return cost;
  }

  #accumulate(
    term: number,
    weight: number,
    word: number,
    allowed: ReadonlySet<number> | null,
    touched: number[],
    verdicts: Uint8Array | null,
    filter: DocumentFilter<T> | null,
  ): void {
    const live = this.#byId.size;
    const counts = this.#count;
    for (let list = this.#lists[term] ?? null; list !== null; list = list.next) {
      const f = list.field;
      if ((allowed !== null && !allowed.has(f)) || list.live === 0) continue;
      const boost = BOOST[f]! * weight;
      const idf = Math.log(1 + (live - list.live + 0.5) / (list.live + 0.5));
      const average = this.#totalLength[f]! / live;
      const lengths = this.#fieldLength[f]!;
      const { docs, start } = list;
      for (let i = start; i < start + list.length; i++) {
        const doc = docs[i]!;
        const count = counts[doc]!;
        // A document counts when it matched every earlier word; a second term of this word adds to it.
        if (count !== word && count !== word + 1) continue;
        if (count === word) {
          if (word === 0) {
            // Removed documents' postings stay until their list is cleaned (the filter refuses them too);
            // a later word's documents all passed here.
            if (verdicts !== null) {
              const verdict = verdicts[doc];
              if (verdict === REFUSED || (verdict === UNASKED && !this.#asked(doc, verdicts, filter!))) continue;
            } else if (this.#docTerms[doc] === null) continue;
            touched.push(doc);
          }
          counts[doc] = word + 1;
        }
        const tf = list.freq(i);
        const norm = 1 - BM25.b + (BM25.b * lengths[doc]!) / average;
        this.#score[doc]! += boost * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * norm));
      }
    }
  }

  // Asks `filter` of `doc` and notes its answer.
  #asked(doc: number, verdicts: Uint8Array, filter: DocumentFilter<T>): boolean {
    const payload = this.#payloads[doc];
    const kept = this.#docTerms[doc] !== null && payload !== undefined && filter.keeps(payload, this.#ids[doc]!);
    verdicts[doc] = kept ? KEPT : REFUSED;
    return kept;
  }
}
