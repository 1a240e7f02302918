// A map bounded by entry count and by a total weight the caller defines (bytes, characters), evicting
// about the least recently used first: the one eviction mechanism behind the document cache and the
// response cache. A read only marks its entry; eviction gives a marked entry a second chance (CLOCK).

interface Slot<V> {
  value: V;
  /** Read since it was stored or last given its second chance. */
  read: boolean;
}

export class Lru<K, V> {
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: (key: K, value: V) => number;
  readonly #removed: ((key: K, value: V) => void) | undefined;
  // Insertion order is the eviction order: the oldest entry first.
  readonly #entries = new Map<K, Slot<V>>();
  #weight = 0;

  /** `removed` hears of every entry that leaves, evicted, deleted or replaced, after it has left. */
  constructor(
    limits: { maxEntries?: number; maxWeight: number },
    weigh: (key: K, value: V) => number,
    removed?: (key: K, value: V) => void,
  ) {
    this.#maxEntries = limits.maxEntries ?? Number.POSITIVE_INFINITY;
    this.#maxWeight = limits.maxWeight;
    this.#weigh = weigh;
    this.#removed = removed;
  }

  /**
   * The value, marked as read. Moving it to the young end on every hit (delete and insert again) cost
   * three hash operations per cached answer under a read load; the mark costs none.
   */
  get(key: K): V | undefined {
    const slot = this.#entries.get(key);
    if (slot === undefined) return undefined;
    slot.read = true;
    return slot.value;
  }

  /**
   * Stores `value`, then evicts from the oldest end until both bounds hold again: an entry read since it
   * was stored goes to the young end unmarked instead, so each entry is passed over at most once, and the
   * entry just stored goes only when it alone is left over the bounds.
   */
  set(key: K, value: V): void {
    this.delete(key);
    this.#entries.set(key, { value, read: false });
    this.#weight += this.#weigh(key, value);
    while (this.#entries.size > this.#maxEntries || this.#weight > this.#maxWeight) {
      const oldest = this.#entries.keys().next().value as K;
      const slot = this.#entries.get(oldest) as Slot<V>;
      this.#entries.delete(oldest);
      if (slot.read || (oldest === key && this.#entries.size > 0)) {
        slot.read = false;
        this.#entries.set(oldest, slot);
      } else {
        this.#weight -= this.#weigh(oldest, slot.value);
        this.#removed?.(oldest, slot.value);
      }
    }
  }

  delete(key: K): void {
    const slot = this.#entries.get(key);
    if (slot === undefined) return;
    this.#entries.delete(key);
    this.#weight -= this.#weigh(key, slot.value);
    this.#removed?.(key, slot.value);
  }

  get size(): number {
    return this.#entries.size;
  }
}
