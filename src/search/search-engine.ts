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

const HAS_LETTER = /\p{L}/u;

/** Fuzzy matching starts at this many letters: a shorter word is matched as typed (or as a prefix). */
export const FUZZY_MIN_LENGTH = 5;

/** The engine: MiniSearch with minihub's terms, weights and matching rules. */
export function createSearchEngine(): SearchEngine {
  // Documents are keyed by `urn`, leaving `id` to the text field of that name (the URN's own id).
  const index = new MiniSearch<{ urn: string } & DocumentText>({
    idField: 'urn',
    fields: TEXT_FIELDS,
    // A document's terms are worked out by put() (fieldTerms); a query's here.
    tokenize: (text, field) => (field === undefined ? tokenize(text) : (pending?.get(field) ?? tokenize(text))),
    // tokenize already gives lower-case words; keep them as they are.
    processTerm: (term) => term,
    searchOptions: {
      boost: { ...FIELD_WEIGHTS },
      combineWith: 'AND',
      // As you type: only the last word may be a prefix of a longer one.
      prefix: (_term, i, terms) => i === terms.length - 1,
      // One edit for words of 5 to 9 letters, two from 10 on; never for a number, where 42421 is not a typo of 42422.
      fuzzy: (term) => (term.length < FUZZY_MIN_LENGTH || !HAS_LETTER.test(term) ? false : term.length < 10 ? 1 : 2),
      maxFuzzy: 2,
    },
  });
  let pending: Map<string, string[]> | null = null;
  return {
    put(id, text) {
      if (index.has(id)) index.discard(id);
      pending = fieldTerms(text);
      try {
        index.add({ urn: id, ...text });
      } finally {
        pending = null;
      }
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

// Heaviest first; fields of equal weight in the table's order.
const BY_WEIGHT = [...TEXT_FIELDS].sort((a, b) => FIELD_WEIGHTS[b] - FIELD_WEIGHTS[a]);

/**
 * Each field's terms, a word kept only in the heaviest field that holds it: a dataset's name words are
 * found by its name, not again in its description and twenty column descriptions. Ranking loses little
 * (the heaviest match dominates the score) and a word common to every dataset costs one posting each, not
 * four, in build time, memory and every query that has it. A field of many values (columns, tags...)
 * also counts each word once: twenty columns described alike are not twenty times as relevant.
 */
function fieldTerms(text: DocumentText): Map<string, string[]> {
  const seen = new Set<string>();
  const terms = new Map<string, string[]>();
  for (const field of BY_WEIGHT) {
    const all = tokenize(text[field]);
    const kept = (LIST_FIELDS.has(field) ? [...new Set(all)] : all).filter((term) => !seen.has(term));
    for (const term of kept) seen.add(term);
    terms.set(field, kept);
  }
  return terms;
}
