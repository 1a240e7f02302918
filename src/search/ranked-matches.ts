// A search's matches in ranked order (score descending, then URN), ranked only as far as a page reaches:
// a client asking for ten of 100,000 matches pays for a pass over them, not for sorting them all. It
// orders matches; what matches is src/search/query.ts's.

import type { FacetValues } from './documents.ts';
import type { TextField } from './fields.ts';
import { compareSorted, RANKED, type SearchSort, type SortValue } from './sort.ts';

export interface Match {
  urn: string;
  score: number;
  facets: FacetValues;
  /** Matched term → the fields it was found in; empty for `*`. */
  terms(): Record<string, TextField[]>;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HIGH = LITTLE_ENDIAN ? 1 : 0;
const LOW = 1 - HIGH;

export class RankedMatches {
  readonly #urns: readonly string[];
  readonly #scores: Float64Array;
  readonly #facets: readonly FacetValues[];
  readonly #terms: (k: number) => Record<string, TextField[]>;
  readonly #sort: SearchSort;
  #order: Uint32Array | null = null; // positions; ranked in [0, #exact), the rest in no order
  #exact = 0;

  constructor(
    urns: readonly string[],
    scores: Float64Array,
    facets: readonly FacetValues[],
    terms: (k: number) => Record<string, TextField[]>,
    sort: SearchSort = RANKED,
  ) {
    this.#sort = sort;
    this.#urns = urns;
    this.#scores = scores;
    this.#facets = facets;
    this.#terms = terms;
  }

  get length(): number {
    return this.#urns.length;
  }

  /** Every match's facet values, in no particular order. */
  get facets(): readonly FacetValues[] {
    return this.#facets;
  }

  /** The matches ranked `start` to `end` (exclusive). */
  slice(start: number, end: number): Match[] {
    const page: Match[] = [];
    const last = Math.min(end, this.length);
    if (start >= last) return page;
    this.#rankUpTo(last - 1);
    const order = this.#order!;
    for (let i = Math.max(0, start); i < last; i++) {
      const k = order[i]!;
      page.push(new PageMatch(this.#urns[k]!, this.#scores[k]!, this.#facets[k]!, this.#terms, k));
    }
    return page;
  }

  /** How many matches come at or before `position` (a scroll id's): where the page after it starts. */
  countUpTo(position: { values: readonly SortValue[]; urn: string }): number {
    const [score] = position.values;
    if (this.#sort === RANKED && typeof score === 'number') {
      // No ranking needed: one pass comparing each match with the position.
      let count = 0;
      for (let k = 0; k < this.#urns.length; k++) {
        const other = this.#scores[k]!;
        if (other > score || (other === score && this.#urns[k]! <= position.urn)) count++;
      }
      return count;
    }
    this.#sortAll();
    const order = this.#order!;
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareSorted(this.#sort, this.#keyed(order[middle]!), position) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  #keyed(k: number): { values: SortValue[]; urn: string } {
    const urn = this.#urns[k]!;
    return { values: this.#sort.values({ urn, score: this.#scores[k]!, facets: this.#facets[k]! }), urn };
  }

  // Any sort but the ranked one (sortInput's): every match's values worked out once, then one sort of all.
  #sortAll(): void {
    if (this.#order !== null && this.#exact === this.#order.length) return;
    const keyed = Array.from({ length: this.#urns.length }, (_, k) => ({ k, ...this.#keyed(k) }));
    keyed.sort((a, b) => compareSorted(this.#sort, a, b));
    this.#order = Uint32Array.from(keyed, ({ k }) => k);
    this.#exact = this.#order.length;
  }

  // Ranks exactly every position up to `i`. A few more (a page) are picked from the rest with a bounded
  // heap, one pass and mostly a number compared; many more (a long scroll) sort the rest once, natively
  // on the scores' leading bits, then exactly within each run of scores those bits cannot tell apart.
  #rankUpTo(i: number): void {
    if (this.#sort !== RANKED) return this.#sortAll();
    if (this.#order === null) {
      this.#order = new Uint32Array(this.#urns.length);
      for (let k = 0; k < this.#order.length; k++) this.#order[k] = k;
    }
    const order = this.#order;
    const wanted = i + 1 - this.#exact;
    if (wanted <= 0) return;
    const rest = order.length - this.#exact;
    if (wanted <= PICK_AT_MOST && wanted * 8 < rest) this.#pick(wanted);
    else this.#sortRest();
  }

  #compare = (a: number, b: number): number =>
    this.#scores[b]! - this.#scores[a]! ||
    (this.#urns[a]! < this.#urns[b]! ? -1 : this.#urns[a]! > this.#urns[b]! ? 1 : 0);

  // Moves the best `count` of the unranked positions to the front of them, in order.
  #pick(count: number): void {
    const order = this.#order!;
    const compare = this.#compare;
    const heap: number[] = []; // the best so far, the worst of them on top
    for (let p = this.#exact; p < order.length; p++) {
      const k = order[p]!;
      if (heap.length < count) {
        heap.push(k);
        siftUp(heap, heap.length - 1, compare);
      } else if (compare(k, heap[0]!) < 0) {
        heap[0] = k;
        siftDown(heap, compare);
      }
    }
    const best = heap.sort(compare);
    const chosen = new Set(best);
    const others: number[] = [];
    for (let p = this.#exact; p < order.length; p++) if (!chosen.has(order[p]!)) others.push(order[p]!);
    order.set(best, this.#exact);
    order.set(others, this.#exact + best.length);
    this.#exact += best.length;
  }

  #sortRest(): void {
    const order = this.#order!;
    const rest = order.subarray(this.#exact);
    rest.set(approximateOrder(this.#scores, rest));
    const high = new Uint32Array(this.#scores.buffer, this.#scores.byteOffset, this.#scores.length * 2);
    for (let start = 0; start < rest.length;) {
      const key = high[2 * rest[start]! + HIGH];
      let end = start + 1;
      while (end < rest.length && high[2 * rest[end]! + HIGH] === key) end++;
      if (end - start > 1) rest.set(Array.from(rest.subarray(start, end)).sort(this.#compare), start);
      start = end;
    }
    this.#exact = order.length;
  }
}

// A class, not an object of closures: one is made per result of every page.
class PageMatch implements Match {
  readonly urn: string;
  readonly score: number;
  readonly facets: FacetValues;
  readonly #terms: (k: number) => Record<string, TextField[]>;
  readonly #k: number;

  constructor(
    urn: string,
    score: number,
    facets: FacetValues,
    terms: (k: number) => Record<string, TextField[]>,
    k: number,
  ) {
    this.urn = urn;
    this.score = score;
    this.facets = facets;
    this.#terms = terms;
    this.#k = k;
  }

  terms(): Record<string, TextField[]> {
    return this.#terms(this.#k);
  }
}

/** A page at most this long is picked from the unranked matches; a longer stretch sorts them all. */
const PICK_AT_MOST = 1000;

// A max-heap under `compare` (the worst ranked on top).
function siftUp(heap: number[], at: number, compare: (a: number, b: number) => number): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (compare(heap[at]!, heap[parent]!) <= 0) return;
    [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
    at = parent;
  }
}

function siftDown(heap: number[], compare: (a: number, b: number) => number): void {
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= heap.length) return;
    const child = left + 1 < heap.length && compare(heap[left + 1]!, heap[left]!) > 0 ? left + 1 : left;
    if (compare(heap[child]!, heap[at]!) <= 0) return;
    [heap[at], heap[child]] = [heap[child]!, heap[at]!];
    at = child;
  }
}

/**
 * `positions` ordered by their score (none negative) from the highest down, as far as the scores'
 * leading 32 bits tell: a typed array sorts numbers natively, far faster than a comparator; each key's
 * low 32 bits carry the position.
 */
function approximateOrder(scores: Float64Array, positions: Uint32Array): Uint32Array {
  const keys = new Float64Array(positions.length);
  const words = new Uint32Array(keys.buffer);
  positions.forEach((k, i) => {
    keys[i] = scores[k]!;
    words[2 * i + LOW] = k;
  });
  keys.sort();
  const order = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = words[2 * (keys.length - 1 - i) + LOW]!;
  return order;
}
