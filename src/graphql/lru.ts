// A least-recently-used map bounded by entry count and by a total weight the caller defines (bytes,
// characters). The one eviction mechanism behind the document cache and the response cache. Reads
// refresh recency only past half the bounds, so a cache that never fills pays nothing for it.

export class Lru<K, V> {
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: (key: K, value: V) => number;
  readonly #entries = new Map<K, V>();
  #weight = 0;

  constructor(limits: { maxEntries?: number; maxWeight: number }, weigh: (key: K, value: V) => number) {
    this.#maxEntries = limits.maxEntries ?? Number.POSITIVE_INFINITY;
    this.#maxWeight = limits.maxWeight;
    this.#weigh = weigh;
  }

  /** The value; from half the bounds on, it also becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    // Re-inserting moves the entry to the young end of the Map's insertion order. That costs two more
    // hash operations per hit, and order only matters once an eviction could come: at half the bounds.
    if (value !== undefined && (2 * this.#entries.size > this.#maxEntries || 2 * this.#weight > this.#maxWeight)) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Stores `value`, then evicts the least recently used entries until both bounds hold again. */
  set(key: K, value: V): void {
    this.delete(key);
    this.#entries.set(key, value);
    this.#weight += this.#weigh(key, value);
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= this.#weigh(oldest, entry);
    }
  }

  delete(key: K): void {
    const value = this.#entries.get(key);
    if (value === undefined) return;
    this.#entries.delete(key);
    this.#weight -= this.#weigh(key, value);
  }

  get size(): number {
    return this.#entries.size;
  }
}
