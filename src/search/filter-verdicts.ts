// What a search filter said of each document slot of an inverted index, kept per filter while the index is
// unchanged: a filter is asked once per document, later searches with it read one byte. Knows slots and
// keys only; the index clears it whenever a document is put or removed.

/** Which documents a query keeps, by what put() stored with each and its id. */
export interface DocumentFilter<T> {
  /** The same key for the same filter: its verdicts are kept under it. */
  readonly key: string;
  keeps(payload: T, id: string): boolean;
}

export const UNASKED = 0;
export const KEPT = 1;
export const REFUSED = 2;

/** Filters whose verdicts are kept at once; past this many they are all let go. */
const KEPT_FILTERS = 16;

export class FilterVerdicts {
  #byKey = new Map<string, Uint8Array>();

  /** The verdicts of the filter `key` over `slots` document slots, UNASKED where not yet asked. */
  of(key: string, slots: number): Uint8Array {
    let verdicts = this.#byKey.get(key);
    if (verdicts === undefined || verdicts.length < slots) {
      if (this.#byKey.size >= KEPT_FILTERS) this.#byKey.clear();
      this.#byKey.set(key, (verdicts = new Uint8Array(slots)));
    }
    return verdicts;
  }

  /** Forgets every verdict: a document changed, or a slot now holds another. */
  clear(): void {
    if (this.#byKey.size > 0) this.#byKey.clear();
  }
}
