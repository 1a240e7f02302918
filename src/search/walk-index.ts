// A sorted term list laid out for the typo walk (term-neighbours.ts): code units in one array, what each
// term shares with the one before, where each term's subtree ends, and the terms in order of their endings.
// Built once per sorted list and only read afterwards; it knows code units, never which are still terms.

/** Longest common prefix a walk index tells exactly; longer ones read as this (no walk goes as deep). */
const MAX_SHARED = 255;

export interface WalkIndex {
  codes: Uint16Array;
  /** Where each term's code units begin in `codes`; one more entry, where the last one ends. */
  starts: Uint32Array;
  /** How many leading code units each term shares with the one before it (0 for the first; at most 255). */
  shared: Uint8Array;
  /**
   * For each term, the first later one that shares fewer code units with its predecessor than this one
   * does (the list's length when none): every term in between begins as this term's shared part does, so a
   * walk skips a whole subtree in a few jumps instead of a step per term.
   */
  after: Uint32Array;
  /** The terms' positions ordered by their code units read backwards: terms with one ending are together. */
  bySuffix: Uint32Array;
}

export function walkIndex(sorted: readonly string[]): WalkIndex {
  const count = sorted.length;
  const starts = new Uint32Array(count + 1);
  for (let at = 0; at < count; at++) starts[at + 1] = starts[at]! + sorted[at]!.length;
  const codes = new Uint16Array(starts[count]!);
  const shared = new Uint8Array(count);
  for (let at = 0; at < count; at++) {
    const term = sorted[at]!;
    const start = starts[at]!;
    for (let c = 0; c < term.length; c++) codes[start + c] = term.charCodeAt(c);
    if (at === 0) continue;
    const before = starts[at - 1]!;
    const limit = Math.min(term.length, start - before, MAX_SHARED);
    let common = 0;
    while (common < limit && codes[start + common] === codes[before + common]) common++;
    shared[at] = common;
  }
  // The next smaller share of each term, from the end with a stack of the terms not yet answered.
  const after = new Uint32Array(count);
  const open: number[] = [];
  for (let at = count - 1; at >= 0; at--) {
    while (open.length > 0 && shared[open[open.length - 1]!]! >= shared[at]!) open.pop();
    after[at] = open.length > 0 ? open[open.length - 1]! : count;
    open.push(at);
  }
  return { codes, starts, shared, after, bySuffix: byEnding(codes, starts, count) };
}

/** Up to this many terms are sorted by comparisons: ranking the code units costs more. */
const COMPARED_ONLY = 1024;

/**
 * The terms' positions ordered by their code units read backwards. A comparison sort of 130,000 terms
 * took 90 ms: here one native sort of numbers, each a term's last few code units (ranked among the code
 * units the terms use, as few bits as those need) and its position, then comparisons only within the
 * runs of terms whose last few code units are the same.
 */
function byEnding(codes: Uint16Array, starts: Uint32Array, count: number): Uint32Array {
  const order = new Uint32Array(count);
  const compare = (a: number, b: number) => compareEnds(codes, starts, a, b);
  // A few terms (those added since the vocabulary was laid out) are sorted by comparisons alone.
  if (count <= COMPARED_ONLY) {
    for (let at = 0; at < count; at++) order[at] = at;
    return order.sort(compare);
  }
  const rank = new Uint32Array(65536);
  for (let i = 0; i < codes.length; i++) rank[codes[i]!] = 1;
  let used = 0;
  for (let code = 0; code < rank.length; code++) if (rank[code] !== 0) rank[code] = ++used;
  // A float holds 53 bits exactly: the position's, and as many code units' as fit (a missing one is 0).
  const positions = 2 ** (32 - Math.clz32(count));
  const unitBits = 32 - Math.clz32(used);
  const units = Math.min(8, Math.floor((53 - Math.log2(positions)) / unitBits));
  const radix = 2 ** unitBits;
  const packed = new Float64Array(count);
  for (let at = 0; at < count; at++) {
    const first = starts[at]!;
    let key = 0;
    for (let back = 1, i = starts[at + 1]! - 1; back <= units; back++, i--)
      key = key * radix + (i >= first ? rank[codes[i]!]! : 0);
    packed[at] = key * positions + at;
  }
  packed.sort();
  for (let k = 0; k < count; k++) order[k] = packed[k]! % positions;
  for (let first = 0; first < count;) {
    const ending = Math.floor(packed[first]! / positions);
    let end = first + 1;
    while (end < count && Math.floor(packed[end]! / positions) === ending) end++;
    if (end - first > 1) order.subarray(first, end).sort(compare);
    first = end;
  }
  return order;
}

/** Terms `a` and `b` compared by their code units read backwards (a term that ends the other comes first). */
function compareEnds(codes: Uint16Array, starts: Uint32Array, a: number, b: number): number {
  let i = starts[a + 1]! - 1;
  let j = starts[b + 1]! - 1;
  const firstA = starts[a]!;
  const firstB = starts[b]!;
  for (; i >= firstA && j >= firstB; i--, j--) if (codes[i] !== codes[j]) return codes[i]! - codes[j]!;
  return i - firstA - (j - firstB);
}

/**
 * Calls `visit(at)` for each term (its position in the sorted list) that ends with `word.slice(from)`,
 * found by a binary search of the terms ordered by their endings.
 */
export function forEachEndingWith(index: WalkIndex, word: string, from: number, visit: (at: number) => void): void {
  const { bySuffix } = index;
  let low = 0;
  let high = bySuffix.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareEnding(index, bySuffix[mid]!, word, from) < 0) low = mid + 1;
    else high = mid;
  }
  for (let k = low; k < bySuffix.length && compareEnding(index, bySuffix[k]!, word, from) === 0; k++)
    visit(bySuffix[k]!);
}

/** Term `at`'s ending against `word.slice(from)`, both read backwards: 0 when the term ends with it. */
function compareEnding(index: WalkIndex, at: number, word: string, from: number): number {
  const { codes, starts } = index;
  const first = starts[at]!;
  let i = starts[at + 1]! - 1;
  for (let j = word.length - 1; j >= from; i--, j--) {
    if (i < first) return -1;
    const difference = codes[i]! - word.charCodeAt(j);
    if (difference !== 0) return difference;
  }
  return 0;
}
