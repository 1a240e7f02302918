// Scroll ids: opaque to clients, a position in one sorted order (the sort's criteria, the last match's sort
// values and URN), so the next page starts right after it, in the same order, even when entities were
// added or removed in between.

import { badRequest } from '../errors.ts';
import type { Match, RankedMatches } from './ranked-matches.ts';
import { sameSort, sortOf, type SearchSort, type SortValue } from './sort.ts';

/** Where a scroll id says the next page starts, and in which order. */
export interface ScrollPosition {
  sort: SearchSort;
  values: SortValue[];
  urn: string;
}

const INVALID = 'Invalid scrollId: pass the nextScrollId of the previous page unchanged';

export function scrollIdAfter(match: Match, sort: SearchSort): string {
  return Buffer.from(JSON.stringify([sort.criteria, sort.values(match), match.urn])).toString('base64url');
}

/** The position `scrollId` names (null without one); a malformed id is a 400. */
export function readScrollId(scrollId: string | null | undefined): ScrollPosition | null {
  if (scrollId == null || scrollId === '') return null;
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
  } catch {
    position = null;
  }
  if (!Array.isArray(position) || position.length !== 3) throw badRequest(INVALID);
  const [criteria, values, urn] = position as unknown[];
  const pairs = Array.isArray(criteria) ? criteria : null;
  if (
    pairs === null ||
    !pairs.every(
      (pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'),
    ) ||
    !Array.isArray(values) ||
    !values.every((value) => value === null || typeof value === 'string' || typeof value === 'number') ||
    typeof urn !== 'string'
  )
    throw badRequest(INVALID);
  const sort = sortOf(pairs as [string, string][], () => badRequest(INVALID));
  return { sort, values: values as SortValue[], urn };
}

/**
 * The order a scroll page follows: the scroll id's. A page that names its own sort must name the same one,
 * so that no page is cut from a different order than the one before it.
 */
export function scrollSort(requested: SearchSort, named: boolean, position: ScrollPosition | null): SearchSort {
  if (position === null) return requested;
  if (named && !sameSort(requested, position.sort))
    throw badRequest('The sortInput differs from the one the scrollId was made with: scroll again from the first page');
  return position.sort;
}

/** Where the page after `position` starts in `matches`, which are in the position's sort (0 without one). */
export function scrollStart(matches: RankedMatches, position: ScrollPosition | null): number {
  return position === null ? 0 : matches.countUpTo(position);
}
