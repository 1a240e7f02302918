// DataHub's facets over a search's matches (their facet values): per facet field, how many matches hold
// each value. Counted over every match after all filters (a facet's own filter included, as DataHub's
// aggregations run on the filtered query), with each filtered-on value listed even at count 0 as DataHub
// adds it back. Filters read the same fields of FacetValues on their own (filters.ts).

import type { CountedValues, FacetGroup, FacetValues } from './documents.ts';

/** The facet fields answered, with DataHub's display names, in the order answers list them. */
const FACET_FIELDS = [
  { field: '_entityType', displayName: 'Type' },
  { field: 'platform', displayName: 'Platform' },
  { field: 'origin', displayName: 'Environment' },
  { field: 'container', displayName: 'Container' },
  { field: 'tags', displayName: 'Tag' },
  { field: 'owners', displayName: 'Owned By' },
] as const;

type FacetField = (typeof FACET_FIELDS)[number]['field'];

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
    const counted = counts[field].entries();
    for (const value of selected.get(field) ?? []) if (!counted.has(value)) counted.set(value, 0);
    const aggregations = [...counted]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, Math.max(0, maxValues));
    return { field, displayName, aggregations };
  });
}

// One pass over the matches for every field at once. Matches sharing a group (facet-pool.ts: most do) are
// counted as one, its values added once with their number: a search matching most of the catalogue pays a
// pointer read per match, no string compared and no array walked. Synchronous: the groups' scratch fields
// are shared by every search.
function countValues(matches: readonly FacetValues[]): Record<FacetField, ValueCounter> {
  const counts = {
    _entityType: new ValueCounter(),
    platform: new ValueCounter(),
    origin: new ValueCounter(),
    container: new ValueCounter(),
    tags: new ValueCounter(),
    owners: new ValueCounter(),
  };
  const count = ++counted;
  const groups: FacetGroup[] = [];
  for (const facets of matches) {
    const group = facets.group;
    if (group.scratchCountedIn === count) group.scratchHits++;
    else {
      group.scratchCountedIn = count;
      group.scratchHits = 1;
      groups.push(group);
    }
  }
  for (const group of groups) addValues(counts, group, group.scratchHits);
  return counts;
}

/** Facet counts made so far: each marks the groups it counted. */
let counted = 0;

function addValues(counts: Record<FacetField, ValueCounter>, values: CountedValues, times: number): void {
  counts._entityType.add(values.entityType, times);
  counts.platform.add(values.platform, times);
  counts.origin.add(values.origin, times);
  counts.container.add(values.container, times);
  for (const tag of values.tags) counts.tags.add(tag, times);
  for (const owner of values.owners) counts.owners.add(owner, times);
}

/** Few distinct values are kept in a list; past this many, in a map. */
const LISTED_VALUES = 16;

/**
 * Counts of values. Most facet fields hold a handful of distinct values over a search's matches (a few
 * types, platforms, environments), shared string objects from the index's pool: a short list compared by
 * identity first is several times cheaper per match than a hash lookup; a field with many values moves to one.
 */
class ValueCounter {
  readonly #values: string[] = [];
  readonly #counts: number[] = [];
  #map: Map<string, number> | null = null;

  /** Counts `value` `times` more. */
  add(value: string | null, times: number): void {
    if (value === null) return;
    if (this.#map !== null) {
      this.#map.set(value, (this.#map.get(value) ?? 0) + times);
      return;
    }
    const values = this.#values;
    for (let i = 0; i < values.length; i++)
      if (values[i] === value) {
        this.#counts[i]! += times;
        return;
      }
    if (values.length < LISTED_VALUES) {
      values.push(value);
      this.#counts.push(times);
      return;
    }
    this.#map = this.entries();
    this.#map.set(value, times);
  }

  /** Value → count. */
  entries(): Map<string, number> {
    return this.#map ?? new Map(this.#values.map((value, i) => [value, this.#counts[i]!]));
  }
}
