// Search's root fields: searchAcrossEntities, search, scrollAcrossEntities, autoComplete and
// autoCompleteForMultiple, in DataHub's shapes, over the live index (src/search). Paging, scroll ids and
// facets are put in shape here; what matches and in which order is src/search/query.ts's.

import { badRequest } from '../errors.ts';
import { readScrollId, scrollIdAfter, scrollSort, scrollStart } from '../search/cursor.ts';
import { SEARCHED_TYPES } from '../search/documents.ts';
import { DEFAULT_MAX_AGG_VALUES, facetsOf } from '../search/facets.ts';
import { parseFilters, type AndFilterInput, type FacetFilterInput } from '../search/filters.ts';
import type { TextField } from '../search/fields.ts';
import { runSearch } from '../search/query.ts';
import type { Match, RankedMatches } from '../search/ranked-matches.ts';
import { parseSort, type SearchSort, type SearchSortInput } from '../search/sort.ts';
import type { AspectReader } from '../store/catalogue.ts';
import type { QueryContext } from './context.ts';
import { AggregationView, SearchResultView, searchedEntity } from './search-views.ts';

/** DataHub's default page size for search, and the most one page may hold (its Elasticsearch window). */
export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 10_000;
/** What autocomplete completes: names, as DataHub's enableAutocomplete fields. */
const NAME_FIELDS: readonly TextField[] = ['name', 'qualifiedName', 'id'];
/** autoComplete's default number of suggestions. */
const DEFAULT_LIMIT = 10;

interface SearchFlags {
  skipAggregates?: boolean | null;
  maxAggValues?: number | null;
  includeSoftDeleted?: boolean | null;
  skipHighlighting?: boolean | null;
}

interface CommonInput {
  types?: readonly string[] | null;
  query: string;
  count?: number | null;
  filters?: readonly FacetFilterInput[] | null;
  orFilters?: readonly AndFilterInput[] | null;
  searchFlags?: SearchFlags | null;
  sortInput?: SearchSortInput | null;
}

interface PageInput extends CommonInput {
  start?: number | null;
}

interface ScrollInput extends CommonInput {
  scrollId?: string | null;
}

interface AutoCompleteInput {
  type?: string | null;
  types?: readonly string[] | null;
  query: string;
  limit?: number | null;
  filters?: readonly FacetFilterInput[] | null;
  orFilters?: readonly AndFilterInput[] | null;
}

/** Every match of `input`, in `sort`'s order, with the filter's selected values for the facets. */
async function matchesOf(
  input: CommonInput,
  types: readonly string[] | null,
  { search }: QueryContext,
  sort: SearchSort,
  fields?: readonly TextField[],
) {
  const filter = parseFilters(input.orFilters, input.filters);
  const includeSoftDeleted = input.searchFlags?.includeSoftDeleted === true;
  const index = await search.current();
  const filterKey = JSON.stringify([types, input.orFilters, input.filters, includeSoftDeleted]);
  // JSON text ends where its brackets close, so the filter's key is joined as it is, not quoted again.
  const key = JSON.stringify([input.query, fields, sort.criteria]) + filterKey;
  const request = { types, query: input.query, filter, includeSoftDeleted, fields, sort, filterKey };
  const matches = runSearch(index, request, key);
  return { matches, selected: filter.selected };
}

function pageSize(count: number | null | undefined): number {
  if (count != null && count < 0) throw badRequest(`count must not be negative, got ${count}`);
  return Math.min(count ?? DEFAULT_COUNT, MAX_COUNT);
}

function results(reader: AspectReader, page: readonly Match[], flags: SearchFlags | null | undefined) {
  const highlight = flags?.skipHighlighting !== true;
  const answers: SearchResultView[] = [];
  for (const match of page) {
    const entity = searchedEntity(reader, match.urn);
    if (entity !== null) answers.push(new SearchResultView(reader, match, entity, highlight));
  }
  return answers;
}

function facets(
  reader: AspectReader,
  input: CommonInput,
  matches: RankedMatches,
  selected: Parameters<typeof facetsOf>[1],
) {
  if (input.searchFlags?.skipAggregates === true) return [];
  return facetsOf(matches.facets, selected, input.searchFlags?.maxAggValues ?? DEFAULT_MAX_AGG_VALUES).map((facet) => ({
    field: facet.field,
    displayName: facet.displayName,
    entity: null,
    aggregations: facet.aggregations.map(({ value, count }) => new AggregationView(reader, facet.field, value, count)),
  }));
}

async function searchPage(input: PageInput, types: readonly string[] | null, context: QueryContext) {
  const { matches, selected } = await matchesOf(input, types, context, parseSort(input.sortInput));
  const start = Math.max(0, input.start ?? 0);
  const count = pageSize(input.count);
  return {
    start,
    count,
    total: matches.length,
    searchResults: results(context.reader, matches.slice(start, start + count), input.searchFlags),
    // Counted only when the document selects them (the SDK's scroll does not).
    facets: () => facets(context.reader, input, matches, selected),
    suggestions: [],
  };
}

async function complete(input: AutoCompleteInput, type: string, context: QueryContext) {
  const limit = Math.max(0, input.limit ?? DEFAULT_LIMIT);
  const { matches } = await matchesOf({ ...input, types: [type] }, [type], context, parseSort(null), NAME_FIELDS);
  const page = matches.slice(0, limit);
  return {
    type,
    suggestions: [...new Set(page.map((match) => match.facets.name))],
    entities: page.flatMap((match) => searchedEntity(context.reader, match.urn) ?? []),
  };
}

export const searchQueries = {
  searchAcrossEntities({ input }: { input: PageInput }, context: QueryContext) {
    return searchPage(input, input.types ?? null, context);
  },

  search({ input }: { input: PageInput & { type: string } }, context: QueryContext) {
    return searchPage(input, [input.type], context);
  },

  async scrollAcrossEntities({ input }: { input: ScrollInput }, context: QueryContext) {
    const position = readScrollId(input.scrollId);
    const requested = parseSort(input.sortInput);
    const sort = scrollSort(requested, requested.criteria.length > 0, position);
    const { matches, selected } = await matchesOf(input, input.types ?? null, context, sort);
    const start = scrollStart(matches, position);
    const count = pageSize(input.count);
    const page = matches.slice(start, start + count);
    const last = page.at(-1);
    return {
      nextScrollId: last !== undefined && start + count < matches.length ? scrollIdAfter(last, sort) : null,
      count,
      total: matches.length,
      searchResults: results(context.reader, page, input.searchFlags),
      // Counted only when the document selects them (the SDK's scroll does not).
      facets: () => facets(context.reader, input, matches, selected),
    };
  },

  async autoComplete({ input }: { input: AutoCompleteInput }, context: QueryContext) {
    const { suggestions, entities } = await complete(input, input.type ?? 'DATASET', context);
    return { query: input.query, suggestions, entities };
  },

  async autoCompleteForMultiple({ input }: { input: AutoCompleteInput }, context: QueryContext) {
    const types = input.types?.length ? input.types : [...SEARCHED_TYPES.values()];
    const perType = await Promise.all(types.map((type) => complete(input, type, context)));
    return { query: input.query, suggestions: perType.filter((entry) => entry.suggestions.length > 0) };
  },
};
