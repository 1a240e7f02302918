// Facet values as one string object per distinct value, counted: counting facets and filtering over many
// matches then compare pointers, not characters, and a value no indexed entity holds any more is let go.
// Knows facet values only, never the index.

import type { FacetValues } from './documents.ts';

export class FacetPool {
  // Value → the one string kept for it, and how many indexed values share it.
  #values = new Map<string, { value: string; count: number }>();

  /** How many distinct values are kept. */
  get size(): number {
    return this.#values.size;
  }

  /**
   * `facets` with its values replaced by the kept ones. Custom properties are left as they are: their values
   * (times, run ids) are mostly unique, and nobody counts facets of them.
   */
  share(facets: FacetValues): FacetValues {
    const one = (value: string | null) => (value === null ? null : this.#take(value));
    const many = (values: readonly string[]) => values.map((value) => this.#take(value));
    return {
      ...facets,
      entityType: this.#take(facets.entityType),
      platform: one(facets.platform),
      origin: one(facets.origin),
      container: one(facets.container),
      typeNames: many(facets.typeNames),
      tags: many(facets.tags),
      owners: many(facets.owners),
    };
  }

  /** Lets go of what share() took for `facets`: the entity was indexed again or removed. */
  release(facets: FacetValues): void {
    this.#drop(facets.entityType);
    for (const value of [facets.platform, facets.origin, facets.container]) if (value !== null) this.#drop(value);
    for (const values of [facets.typeNames, facets.tags, facets.owners]) for (const value of values) this.#drop(value);
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
