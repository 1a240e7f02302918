// DataHub's facets over a search's matches (their facet values): per facet field, how many matches hold
// each value. Counted over every match after all filters (a facet's own filter included, as DataHub's
// aggregations run on the filtered query), with each filtered-on value listed even at count 0 as DataHub
// adds it back. Its table of facet fields is also what filters read.

import type { FacetValues } from './documents.ts';

/** What an entity holds of a field: one value, none, or several (no array is made for one). */
export type HeldValues = string | null | readonly string[];

/** Whether any value `held` passes `test`. */
export function someValue(held: HeldValues, test: (value: string) => boolean): boolean {
  if (held === null) return false;
  return typeof held === 'string' ? test(held) : held.some(test);
}

/** Each facet field's reader of an entity's values; filters on these fields read them the same way. */
export const FACET_VALUES = {
  _entityType: (facets: FacetValues): HeldValues => facets.entityType,
  platform: (facets: FacetValues): HeldValues => facets.platform,
  origin: (facets: FacetValues): HeldValues => facets.origin,
  container: (facets: FacetValues): HeldValues => facets.container,
  tags: (facets: FacetValues): HeldValues => facets.tags,
  owners: (facets: FacetValues): HeldValues => facets.owners,
} as const;

/** The facet fields answered, with DataHub's display names. */
export const FACET_FIELDS: readonly {
  field: string;
  displayName: string;
  values: (facets: FacetValues) => HeldValues;
}[] = (
  [
    ['_entityType', 'Type'],
    ['platform', 'Platform'],
    ['origin', 'Environment'],
    ['container', 'Container'],
    ['tags', 'Tag'],
    ['owners', 'Owned By'],
  ] as const
).map(([field, displayName]) => ({ field, displayName, values: FACET_VALUES[field] }));

/** DataHub's default for searchFlags.maxAggValues. */
export const DEFAULT_MAX_AGG_VALUES = 20;

export interface Facet {
  field: string;
  displayName: string;
  aggregations: { value: string; count: number }[];
}

/** The facets of `matches`, most frequent value first (ties by value), at most `maxValues` each. */
export function facetsOf(
  matches: readonly FacetValues[],
  selected: ReadonlyMap<string, readonly string[]>,
  maxValues: number,
): Facet[] {
  return FACET_FIELDS.map(({ field, displayName, values }) => {
    const counts = new Map<string, number>();
    // Every match passes here for every field: no array is made for a single value.
    for (const facets of matches) {
      const held = values(facets);
      if (typeof held === 'string') counts.set(held, (counts.get(held) ?? 0) + 1);
      else if (held !== null) for (const value of held) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    for (const value of selected.get(field) ?? []) if (!counts.has(value)) counts.set(value, 0);
    const aggregations = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, Math.max(0, maxValues));
    return { field, displayName, aggregations };
  });
}
