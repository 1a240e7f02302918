// One query's matches as the inverted index answers them (index-result.ts's IndexResult): documents by
// number, read from the index only when asked. Holds no text and ranks nothing.

import type { IndexResult, TermMatches } from './index-result.ts';

/** A document's matched terms, as the index reads them from the document's own terms. */
export interface ResultTerms {
  matchesOf(doc: number, matched: Uint32Array, allowed: ReadonlySet<number> | null): TermMatches;
}

// A class, not an object of closures: one is made per query (tsx names every closure it makes).
export class QueryResult<T> implements IndexResult<T> {
  readonly size: number;
  readonly scores: Float64Array;
  readonly #ids: readonly string[];
  readonly #payloads: readonly (T | undefined)[];
  readonly #terms: ResultTerms;
  readonly #docs: Uint32Array;
  readonly #matched: Uint32Array;
  readonly #allowed: ReadonlySet<number> | null;

  constructor(
    ids: readonly string[],
    payloads: readonly (T | undefined)[],
    terms: ResultTerms,
    docs: Uint32Array,
    scores: Float64Array,
    matched: Uint32Array,
    allowed: ReadonlySet<number> | null,
  ) {
    this.size = docs.length;
    this.scores = scores;
    this.#ids = ids;
    this.#payloads = payloads;
    this.#terms = terms;
    this.#docs = docs;
    this.#matched = matched;
    this.#allowed = allowed;
  }

  id(i: number): string {
    return this.#ids[this.#docs[i]!]!;
  }

  payload(i: number): T | undefined {
    return this.#payloads[this.#docs[i]!];
  }

  matches(i: number): TermMatches {
    return this.#terms.matchesOf(this.#docs[i]!, this.#matched, this.#allowed);
  }
}
