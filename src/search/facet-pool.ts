// Facet values as one string object per distinct value, lists of them (tags, owners) as one array per
// distinct list, and the facet-counted values of an entity as one group per distinct combination, counted:
// counting facets and filtering over many matches then compare pointers and read few objects, and a value,
// list or group no indexed entity holds any more is let go. Knows facet values only, never the index.

import type { CountedValues, EntityValues, FacetGroup, FacetValues } from './documents.ts';

const NONE: readonly string[] = Object.freeze([]);

export class FacetPool {
  // Value → the one string kept for it, and how many indexed values share it.
  #values = new Map<string, { value: string; count: number }>();
  // A list's values as JSON (no two lists alike, whatever characters they hold) → the one array kept for
  // it, and how many entities share it.
  #lists = new Map<string, { list: readonly string[]; count: number }>();
  // The group's values (lists by their keys above) → the group, and how many entities share it.
  #groups = new Map<string, { group: FacetGroup; count: number }>();

  /** How many distinct values are kept. */
  get size(): number {
    return this.#values.size;
  }

  /** How many distinct non-empty lists are kept. */
  get lists(): number {
    return this.#lists.size;
  }

  /** How many distinct groups of facet-counted values are kept. */
  get groups(): number {
    return this.#groups.size;
  }

  /**
   * `facets` with its values replaced by the kept ones. Custom properties are left as they are: their values
   * (times, run ids) are mostly unique, and nobody counts facets of them.
   */
  share(facets: EntityValues): FacetValues {
    const one = (value: string | null) => (value === null ? null : this.#take(value));
    const many = (values: readonly string[]) => this.#takeList(values.map((value) => this.#take(value)));
    const counted = {
      entityType: this.#take(facets.entityType),
      platform: one(facets.platform),
      origin: one(facets.origin),
      container: one(facets.container),
      tags: many(facets.tags),
      owners: many(facets.owners),
    };
    // Every field named in one literal, none spread or added later: objects of one layout, their fields in
    // the object itself, so counting facets over many matches reads each match once (a spread copy given
    // another field made every read of it several times slower).
    const { name, removed, customProperties, browsePathV2 } = facets;
    const { entityType, platform, origin, container, tags, owners } = counted;
    const typeNames = many(facets.typeNames);
    const group = this.#takeGroup(counted);
    return {
      entityType,
      name,
      platform,
      origin,
      typeNames,
      tags,
      container,
      owners,
      removed,
      customProperties,
      browsePathV2,
      group,
    };
  }

  /** Lets go of what share() took for `facets`: the entity was indexed again or removed. */
  release(facets: FacetValues): void {
    this.#drop(facets.entityType);
    for (const value of [facets.platform, facets.origin, facets.container]) if (value !== null) this.#drop(value);
    for (const values of [facets.typeNames, facets.tags, facets.owners]) {
      for (const value of values) this.#drop(value);
      this.#dropList(values);
    }
    const key = groupKey(facets);
    const kept = this.#groups.get(key);
    if (kept !== undefined && --kept.count === 0) this.#groups.delete(key);
  }

  #takeGroup(facets: CountedValues): FacetGroup {
    const key = groupKey(facets);
    const kept = this.#groups.get(key);
    if (kept !== undefined) {
      kept.count++;
      return kept.group;
    }
    const group = facetGroup(facets);
    this.#groups.set(key, { group, count: 1 });
    return group;
  }

  // Most entities have no tags or types and share their owners: one array for each distinct list, which
  // facet counting over many matches finds in cache rather than reading each entity's own.
  #takeList(values: readonly string[]): readonly string[] {
    if (values.length === 0) return NONE;
    const key = JSON.stringify(values);
    const kept = this.#lists.get(key);
    if (kept === undefined) {
      this.#lists.set(key, { list: values, count: 1 });
      return values;
    }
    kept.count++;
    return kept.list;
  }

  #dropList(values: readonly string[]): void {
    if (values.length === 0) return;
    const key = JSON.stringify(values);
    const kept = this.#lists.get(key);
    if (kept !== undefined && --kept.count === 0) this.#lists.delete(key);
  }

  #take(value: string): string {
    const kept = this.#values.get(value);
    if (kept === undefined) {
      this.#values.set(value, { value, count: 1 });
      return value;
    }
    kept.count++;
    return kept.value;
  }

  #drop(value: string): void {
    const kept = this.#values.get(value);
    if (kept !== undefined && --kept.count === 0) this.#values.delete(value);
  }
}

/** A group of `values`' own (a pool's are shared), its facet-count scratch clear. */
export function facetGroup(values: CountedValues): FacetGroup {
  const { entityType, platform, origin, container, tags, owners } = values;
  return { entityType, platform, origin, container, tags, owners, scratchCountedIn: 0, scratchHits: 0 };
}

// JSON of each part: no two groups alike share a key, whatever characters their values hold.
function groupKey(facets: CountedValues): string {
  const { entityType, platform, origin, container, tags, owners } = facets;
  return JSON.stringify([entityType, platform, origin, container, tags, owners]);
}
