// Suggests the entity type a mistyped URN probably meant, for error messages only. Bounded: input
// longer than any candidate gets no suggestion, so no message costs more than a few hundred steps.

// The entity types people type most; used only to suggest a fix in error messages.
const COMMON_ENTITY_TYPES = [
  'dataset',
  'corpuser',
  'corpGroup',
  'tag',
  'container',
  'dataPlatform',
  'glossaryTerm',
  'schemaField',
];
// A suggestion is at most two edits away, so nothing longer than the longest candidate + 2 can have one.
const MAX_SUGGESTED_LENGTH = Math.max(...COMMON_ENTITY_TYPES.map((type) => type.length)) + 2;

/** A hint such as ` (did you mean "dataset"?)` for a mistyped entity type, or '' when nothing is close. */
export function didYouMean(entityType: string): string {
  // Bounds the edit distances below to a few hundred steps, whatever the input.
  if (entityType === '' || entityType.length > MAX_SUGGESTED_LENGTH) return '';
  const lower = entityType.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of COMMON_ENTITY_TYPES) {
    if (candidate === entityType) return '';
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Two edits catch typos like "datset" without suggesting "tag" for every short word.
  return best !== undefined && bestDistance <= Math.min(2, Math.floor(best.length / 3))
    ? ` (did you mean "${best}"?)`
    : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
