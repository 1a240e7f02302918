// The seam between the search index and the full-text engine (a hand-written inverted index): add or
// replace a document, remove one, query with field weights, prefix on the last word and fuzzy on longer
// words. Nothing else here knows which engine runs, so another could take its place; this file never
// reads the catalogue.

import type { DocumentText, TextField } from './fields.ts';
import type { IndexResult } from './index-result.ts';
import type { DocumentFilter } from './filter-verdicts.ts';
import { InvertedIndex } from './inverted-index.ts';

/**
 * A query's matching documents in no particular order (ranking is the caller's): each one's id and score,
 * and on demand the query terms it holds by field. Valid until the engine next changes.
 */
export type EngineResult<T> = IndexResult<T>;

/** A full-text engine whose documents each carry a `T` (the index's facet values) back in results. */
export interface SearchEngine<T> {
  /** Adds the document `id` with its `payload`, or replaces it when already there. */
  put(id: string, text: DocumentText, payload?: T): void;
  /** Removes the document `id`; nothing when it is not there. */
  remove(id: string): void;
  /**
   * The documents matching every word of `query` (in `fields` only, when given) that `filter` keeps (when
   * given), asked before a document is scored.
   */
  query(query: string, fields?: readonly TextField[], filter?: DocumentFilter<T>): EngineResult<T>;
  readonly size: number;
}

/**
 * The engine: BM25+ per field times the field's weight, every query word required, the last word also
 * as a prefix, one edit forgiven on words of 5 to 9 letters and two from 10 on (never on a number).
 */
export function createSearchEngine<T>(): SearchEngine<T> {
  // Many documents at once are faster through engine-build.ts, which makes the same engine.
  return new InvertedIndex<T>();
}
