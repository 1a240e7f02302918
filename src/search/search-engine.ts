// The seam between the search index and the full-text engine (MiniSearch): add or replace a document,
// remove one, query with field weights, prefix on the last word and fuzzy on longer words. Nothing else
// here knows which engine runs, so another could take its place; this file never reads the catalogue.

import MiniSearch from 'minisearch';

import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from './fields.ts';
import { tokenize } from './text.ts';

/** One matching document: its id, its score, and which of its fields each matched term was found in. */
export interface EngineHit {
  id: string;
  score: number;
  /** Matched document term → the fields it occurs in. */
  matches: Record<string, TextField[]>;
}

export interface SearchEngine {
  /** Adds the document `id`, or replaces it when already there. */
  put(id: string, text: DocumentText): void;
  /** Removes the document `id`; nothing when it is not there. */
  remove(id: string): void;
  /** The documents matching every word of `query` (in `fields` only, when given), best first. */
  query(query: string, fields?: readonly TextField[]): EngineHit[];
  readonly size: number;
}

const LIST_FIELDS: ReadonlySet<string> = new Set<TextField>([
  'fieldPaths',
  'fieldDescriptions',
  'tags',
  'owners',
  'typeNames',
  'customProperties',
  'links',
]);

/** Fuzzy matching starts at this many letters: a shorter word is matched as typed (or as a prefix). */
export const FUZZY_MIN_LENGTH = 5;

/** The engine: MiniSearch with minihub's terms, weights and matching rules. */
export function createSearchEngine(): SearchEngine {
  // Documents are keyed by `urn`, leaving `id` to the text field of that name (the URN's own id).
  const index = new MiniSearch<{ urn: string } & DocumentText>({
    idField: 'urn',
    fields: TEXT_FIELDS,
    // A field of many values (columns, tags...) counts each word once: twenty columns described alike
    // would otherwise index the same words twenty times, costing build time and memory, not relevance.
    tokenize: (text, field) =>
      field !== undefined && LIST_FIELDS.has(field) ? [...new Set(tokenize(text))] : tokenize(text),
    // tokenize already gives lower-case words; keep them as they are.
    processTerm: (term) => term,
    searchOptions: {
      boost: { ...FIELD_WEIGHTS },
      combineWith: 'AND',
      // As you type: only the last word may be a prefix of a longer one.
      prefix: (_term, i, terms) => i === terms.length - 1,
      // One edit for words of 5 to 9 letters, two from 10 on.
      fuzzy: (term) => (term.length < FUZZY_MIN_LENGTH ? false : term.length < 10 ? 1 : 2),
      maxFuzzy: 2,
    },
  });
  return {
    put(id, text) {
      if (index.has(id)) index.discard(id);
      index.add({ urn: id, ...text });
    },
    remove(id) {
      if (index.has(id)) index.discard(id);
    },
    query(query, fields) {
      return index.search(query, fields === undefined ? {} : { fields: [...fields] }).map((result) => ({
        id: result.id as string,
        score: result.score,
        matches: result.match as Record<string, TextField[]>,
      }));
    },
    get size() {
      return index.documentCount;
    },
  };
}
