// One search over the index: the query's matches (or every entity for `*`), the types and filters
// applied, soft-deleted entities left out unless asked for, ranked (or in sortInput's order) then by URN.
// Paging, facets and the GraphQL shapes are the caller's; this file decides what matches and in which order.

import type { FacetValues } from './documents.ts';
import type { TextField } from './fields.ts';
import type { SearchFilter } from './filters.ts';
import type { IndexSnapshot } from './search-index.ts';
import { badRequest } from '../errors.ts';
import { RankedMatches } from './ranked-matches.ts';
import { tokenize } from './text.ts';
import { RANKED, type SearchSort } from './sort.ts';

export interface SearchRequest {
  /** DataHub EntityType names; null or empty for every searched type. */
  types: readonly string[] | null;
  query: string;
  filter: SearchFilter;
  /** searchFlags.includeSoftDeleted. */
  includeSoftDeleted: boolean;
  /** Search these text fields only (autocomplete: names); all of them when absent. */
  fields?: readonly TextField[];
  /** The order (sort.ts); ranked when absent. */
  sort?: SearchSort;
  /**
   * The same for the same types, filter and includeSoftDeleted (their inputs as JSON): the index keeps what
   * the filter said of each entity under it while nothing changes.
   */
  filterKey: string;
}

/** Different words one query may hold: each is looked up, with its prefixes and typos, before any is ranked. */
export const MAX_QUERY_WORDS = 32;

function checkQueryWords(query: string): void {
  const words = new Set(tokenize(query)).size;
  if (words > MAX_QUERY_WORDS)
    throw badRequest(`The search query has ${words} different words; minihub searches at most ${MAX_QUERY_WORDS}`);
}

/** Whether `query` asks for everything: DataHub's `*`, or nothing typed. */
export function matchesAll(query: string): boolean {
  const text = query.trim();
  return text === '' || text === '*';
}

// The last answer, reused while the index is unchanged: a client scrolling page after page asks the same,
// and the ranking done for one page is kept for the next.
let last: { index: IndexSnapshot; version: number; key: string; matches: RankedMatches } | null = null;

/** Every match of `request`, in its sort's order (best first by default), ties by URN. */
export function runSearch(index: IndexSnapshot, request: SearchRequest, key: string): RankedMatches {
  if (last !== null && last.index.engine === index.engine && last.version === index.version && last.key === key)
    return last.matches;
  const keep = keeper(request);
  checkQueryWords(request.query);
  const sort = request.sort ?? RANKED;
  const urns: string[] = [];
  const facetsOf: FacetValues[] = [];
  let matches: RankedMatches;
  if (matchesAll(request.query)) {
    for (const [urn, facets] of index.facets)
      if (keep(facets, urn)) {
        urns.push(urn);
        facetsOf.push(facets);
      }
    matches = new RankedMatches(urns, new Float64Array(urns.length), facetsOf, () => ({}), sort);
  } else {
    // The engine asks the filter before scoring a document: every hit it answers is kept.
    const filter = { key: request.filterKey, keeps: keep };
    const result = index.engine.query(request.query, request.fields, filter);
    for (let i = 0; i < result.size; i++) {
      urns.push(result.id(i));
      facetsOf.push(result.payload(i)!);
    }
    matches = new RankedMatches(urns, result.scores, facetsOf, (k) => result.matches(k), sort);
  }
  last = { index, version: index.version, key, matches };
  return matches;
}

/**
 * Whether an entity is kept: of a searched type, not soft-deleted unless asked for, passing the filter. Made
 * once per search, asked once per entity the query's rarest word matches; the usual search (no types, no
 * soft-deleted entities) tests only what it needs.
 */
function keeper(request: SearchRequest): (facets: FacetValues, urn: string) => boolean {
  const { filter } = request;
  const test = filter.matches;
  const removedToo = request.includeSoftDeleted || filter.namesRemoved;
  const types = request.types?.length ? new Set(request.types) : null;
  if (types === null)
    return removedToo ? (facets, urn) => test(urn, facets) : (facets, urn) => !facets.removed && test(urn, facets);
  return (facets, urn) => types.has(facets.entityType) && (removedToo || !facets.removed) && test(urn, facets);
}
