// listAccessTokens' facet filters as DataHub's web app sends them: ownerUrn / actorUrn equal to one of
// the values (the personal and the manage-tokens pages), expiresAt compared with a time (its "expired"
// view), each optionally negated. Turns them into one predicate; refuses what it cannot answer.

import type { TokenMetadata } from '../auth/tokens.ts';
import { badRequest, shown } from '../errors.ts';

/** DataHub's FacetFilterInput. */
export interface FacetFilterInput {
  field: string;
  value?: string | null;
  values?: string[] | null;
  negated?: boolean | null;
  condition?: string | null;
}

export interface TokenFilter {
  /** The URNs an ownerUrn / actorUrn equality filter that is not negated allows, else null. */
  readonly urns: ReadonlySet<string> | null;
  matches(token: TokenMetadata): boolean;
}

const URN_FIELDS = ['ownerUrn', 'actorUrn'] as const;
const FIELDS = [...URN_FIELDS, 'expiresAt'];
const EQUALITY = ['EQUAL', 'IN'];
const COMPARE: Record<string, (left: number, right: number) => boolean> = {
  GREATER_THAN: (left, right) => left > right,
  GREATER_THAN_OR_EQUAL_TO: (left, right) => left >= right,
  LESS_THAN: (left, right) => left < right,
  LESS_THAN_OR_EQUAL_TO: (left, right) => left <= right,
};

export function tokenFilter({ field, value, values, negated, condition }: FacetFilterInput): TokenFilter {
  if (!FIELDS.includes(field))
    throw badRequest(`cannot filter access tokens on "${shown(field)}"; expected one of ${FIELDS.join(', ')}`);
  const given = values ?? (value == null ? [] : [value]);
  const test = field === 'expiresAt' ? expiryTest(given, condition ?? 'EQUAL') : urnTest(field, given, condition);
  const not = negated === true;
  return {
    urns: not ? null : test.set,
    matches: (token) => test.matches(token) !== not,
  };
}

function urnTest(field: string, given: string[], condition: string | null | undefined) {
  if (condition != null && !EQUALITY.includes(condition)) throw refused(field, condition);
  // A set: a filter may list a hundred thousand values, and every token is matched against them.
  const set = new Set(given);
  const key = field as (typeof URN_FIELDS)[number];
  return { set, matches: (token: TokenMetadata) => set.has(token[key]) };
}

function expiryTest(given: string[], condition: string) {
  const times = given.map((text) => {
    const time = Number(text);
    if (text.trim() === '' || !Number.isFinite(time))
      throw badRequest(`cannot filter access tokens on expiresAt "${shown(text)}"; expected a time in milliseconds`);
    return time;
  });
  // A token that never expires has no expiresAt, and so matches no comparison, as in DataHub's index.
  if (EQUALITY.includes(condition)) {
    const set = new Set(times);
    return { set: null, matches: (token: TokenMetadata) => token.expiresAt !== null && set.has(token.expiresAt) };
  }
  const compare = COMPARE[condition];
  if (compare === undefined || times.length !== 1) throw refused('expiresAt', condition);
  const [time] = times as [number];
  return { set: null, matches: (token: TokenMetadata) => token.expiresAt !== null && compare(token.expiresAt, time) };
}

function refused(field: string, condition: string) {
  const allowed = field === 'expiresAt' ? [...EQUALITY, ...Object.keys(COMPARE)] : EQUALITY;
  return badRequest(
    `cannot filter access tokens on ${field} with condition ${shown(condition)}; expected ${allowed.join(', ')}` +
      (field === 'expiresAt' ? ' with one time' : ''),
  );
}
