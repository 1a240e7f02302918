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

type FacetField = keyof typeof FACET_VALUES;

/** The facet fields answered, with DataHub's display names. */
export const FACET_FIELDS: readonly {
  field: FacetField;
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
  const counts = countValues(matches);
  return FACET_FIELDS.map(({ field, displayName }) => {
    const counted = counts[field];
    for (const value of selected.get(field) ?? []) if (!counted.has(value)) counted.set(value, 0);
    const aggregations = [...counted]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, Math.max(0, maxValues));
    return { field, displayName, aggregations };
  });
}

// One pass over the matches for every field at once, reading each value straight off the entity: a search
// matching most of the catalogue pays for this per match, so no reader is called and no array is made.
function countValues(matches: readonly FacetValues[]): Record<FacetField, Map<string, number>> {
  const types = new Map<string, number>();
  const platforms = new Map<string, number>();
  const origins = new Map<string, number>();
  const containers = new Map<string, number>();
  const tags = new Map<string, number>();
  const owners = new Map<string, number>();
  for (const facets of matches) {
    countOne(types, facets.entityType);
    countOne(platforms, facets.platform);
    countOne(origins, facets.origin);
    countOne(containers, facets.container);
    for (const tag of facets.tags) countOne(tags, tag);
    for (const owner of facets.owners) countOne(owners, owner);
  }
  return { _entityType: types, platform: platforms, origin: origins, container: containers, tags, owners };
}

function countOne(counts: Map<string, number>, value: string | null): void {
  if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
}
