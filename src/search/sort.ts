// DataHub's SearchSortInput checked into one order over matches: each criterion in turn, then the URN, as
// DataHub breaks ties; no criterion is the ranked order. An unknown field is a 400 naming it. Each match's
// sort values are what a scroll id keeps (cursor.ts), so the next page starts right after the last one sent.
// The sorting itself is ranked-matches.ts's.

import { badRequest, shown } from '../errors.ts';
import type { FacetValues } from './documents.ts';

/** What a sort reads of a match. */
export interface Sortable {
  urn: string;
  score: number;
  facets: FacetValues;
}

/** DataHub's SortCriterion. */
export interface SortCriterionInput {
  field: string;
  sortOrder: string;
}

/** DataHub's SearchSortInput: sortCriteria, else the deprecated sortCriterion. */
export interface SearchSortInput {
  sortCriterion?: SortCriterionInput | null;
  sortCriteria?: readonly SortCriterionInput[] | null;
}

/** One value a match sorts by; null where the entity has none (sorted last, as DataHub's index does). */
export type SortValue = string | number | null;

/** A checked sort: the criteria as [field, order] pairs (what a scroll id carries) and the values per match. */
export interface SearchSort {
  criteria: readonly (readonly [string, 'ASCENDING' | 'DESCENDING'])[];
  values(match: Sortable): SortValue[];
}

/** The sort fields minihub answers, each reading its value off a match. */
const FIELDS: Record<string, (match: Sortable) => SortValue> = {
  // The web app's "Name A to Z / Z to A" (`_entityName`; `name` in older versions), without regard to case
  // as DataHub's keyword normalizer.
  _entityName: (match) => match.facets.name.toLowerCase(),
  name: (match) => match.facets.name.toLowerCase(),
  _entityType: (match) => match.facets.entityType,
  urn: (match) => match.urn,
  platform: (match) => match.facets.platform,
  origin: (match) => match.facets.origin,
  // The web app's "Last Modified in Platform": DataHub reads it from operations, which minihub does not keep,
  // so every entity lacks it and the URN decides, as in a DataHub that has no operations either.
  lastOperationTime: () => null,
  // Not a DataHub field: the web app's "Relevance", the ranked order.
  relevance: (match) => match.score,
};

/** No criterion: the ranked order, best score first. */
export const RANKED: SearchSort = { criteria: [], values: (match) => [match.score] };

/** The names sortInput accepts, for error messages. */
export const SORT_FIELDS = Object.keys(FIELDS);

/** Checks `sortInput`; without criteria, the ranked order. */
export function parseSort(input: SearchSortInput | null | undefined): SearchSort {
  const given = input?.sortCriteria ?? (input?.sortCriterion ? [input.sortCriterion] : []);
  return sortOf(
    given.map((criterion) => [criterion.field, criterion.sortOrder]),
    (field) =>
      badRequest(
        `Unknown sort field "${shown(field)}": minihub sorts by ${SORT_FIELDS.map((f) => `"${f}"`).join(', ')}`,
      ),
  );
}

/** The sort of `[field, order]` pairs (a scroll id's); `unknown` makes the error for a field not in FIELDS. */
export function sortOf(
  criteria: readonly (readonly [string, string])[],
  unknown: (field: string) => Error,
): SearchSort {
  if (criteria.length === 0) return RANKED;
  const readers = criteria.map(([field]) => {
    const read = Object.hasOwn(FIELDS, field) ? FIELDS[field] : undefined;
    if (read === undefined) throw unknown(field);
    return read;
  });
  return {
    criteria: criteria.map(([field, order]) => [field, order === 'DESCENDING' ? 'DESCENDING' : 'ASCENDING'] as const),
    values: (match) => readers.map((read) => read(match)),
  };
}

/** Whether two sorts order the same way (a scroll id's and a later page's). */
export function sameSort(a: SearchSort, b: SearchSort): boolean {
  return JSON.stringify(a.criteria) === JSON.stringify(b.criteria);
}

/** Orders two matches' sort values under `sort`, then their URNs; negative when `a` comes first. */
export function compareSorted(
  sort: SearchSort,
  a: { values: readonly SortValue[]; urn: string },
  b: { values: readonly SortValue[]; urn: string },
): number {
  // The ranked order is score descending.
  const orders = sort.criteria.length === 0 ? ['DESCENDING'] : sort.criteria.map(([, order]) => order);
  for (let i = 0; i < orders.length; i++) {
    const order = compareValues(a.values[i] ?? null, b.values[i] ?? null, orders[i] === 'DESCENDING');
    if (order !== 0) return order;
  }
  return a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0;
}

function compareValues(a: SortValue, b: SortValue, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -order : order;
}
