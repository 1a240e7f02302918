// Ordering search hits by score, best first, without a comparator: numbers only, nothing of the index.

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The positions of `scores` (all positive) from the highest score down. A typed array sorts numbers
 * natively, far faster than a comparator over objects: each score's low 32 mantissa bits are replaced by
 * its position, which leaves the order of positive doubles unchanged but for scores equal to about six digits
 * (callers that need an exact order sort again, as src/search/query.ts does).
 */
export function byScoreDescending(scores: number[]): number[] {
  const keys = Float64Array.from(scores);
  const words = new Uint32Array(keys.buffer);
  const low = LITTLE_ENDIAN ? 0 : 1;
  // The complement, so that of equal scores the earlier position comes first, as a stable sort would.
  for (let i = 0; i < keys.length; i++) words[2 * i + low] = 0xffffffff - i;
  keys.sort();
  const order: number[] = [];
  for (let i = keys.length - 1; i >= 0; i--) order.push(0xffffffff - words[2 * i + low]!);
  return order;
}
