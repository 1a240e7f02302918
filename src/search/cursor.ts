// Scroll ids: opaque to clients, a position in the ranked order (the last score and URN sent), so the
// next page starts right after it even when entities were added or removed in between.

import { badRequest } from '../errors.ts';
import type { Match, RankedMatches } from './ranked-matches.ts';

export function scrollIdAfter(match: Match): string {
  return Buffer.from(JSON.stringify([match.score, match.urn])).toString('base64url');
}

/** Where the page after `scrollId` starts in `matches` (0 without one); a malformed id is a 400. */
export function scrollStart(matches: RankedMatches, scrollId: string | null | undefined): number {
  if (scrollId == null || scrollId === '') return 0;
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    position = null;
  }
  if (!Array.isArray(position) || typeof position[0] !== 'number' || typeof position[1] !== 'string')
    throw badRequest('Invalid scrollId: pass the nextScrollId of the previous page unchanged');
  const [score, urn] = position as [number, string];
  // Right after the matches that rank at or before the position (score descending, then URN ascending).
  return matches.countUpTo(score, urn);
}
