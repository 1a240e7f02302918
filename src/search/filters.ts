// DataHub's search filters: orFilters (an OR of AND lists of FacetFilterInput) or the deprecated
// `filters` (one AND list), checked once into predicates over an entity's facet values. An unknown field
// or an operator minihub does not apply is a 400 naming it, never a silent empty result.

import { badRequest, shown } from '../errors.ts';
import { browsePathTerms } from './browse-path.ts';
import { SEARCHED_TYPES, type FacetValues } from './documents.ts';

/** DataHub's FacetFilterInput. */
export interface FacetFilterInput {
  field: string;
  value?: string | null;
  values?: readonly string[] | null;
  negated?: boolean | null;
  condition?: string | null;
}

export interface AndFilterInput {
  and?: readonly FacetFilterInput[] | null;
}

/** Whether one entity (its URN and facet values) passes; called once per match, so it allocates nothing. */
type Predicate = (urn: string, facets: FacetValues) => boolean;

/** A checked filter: OR of ANDs, plus which fields and values it names (facets keep those values). */
export interface SearchFilter {
  matches: Predicate;
  /** Whether a clause names `removed`: then soft-deleted entities are not left out by default. */
  namesRemoved: boolean;
  /** Facet field → the values filtered on (non-negated), so the facet lists them even at count 0. */
  selected: ReadonlyMap<string, readonly string[]>;
}

/** What an entity holds of a field: one value, none, or several (no array is made for one). */
type HeldValues = string | null | readonly string[];

/** Whether any value `held` passes `test`. */
function someValue(held: HeldValues, test: (value: string) => boolean): boolean {
  if (held === null) return false;
  return typeof held === 'string' ? test(held) : held.some(test);
}

/** The filter fields minihub answers, each reading its values off an entity (the facet fields first). */
const FIELDS: Record<string, (urn: string, facets: FacetValues) => HeldValues> = {
  _entityType: (_urn, facets) => facets.entityType,
  platform: (_urn, facets) => facets.platform,
  origin: (_urn, facets) => facets.origin,
  container: (_urn, facets) => facets.container,
  tags: (_urn, facets) => facets.tags,
  owners: (_urn, facets) => facets.owners,
  typeNames: (_urn, facets) => facets.typeNames,
  removed: (_urn, facets) => (facets.removed ? 'true' : 'false'),
  urn: (urn) => urn,
  customProperties: (_urn, facets) => facets.customProperties,
  browsePathV2: (_urn, facets) => browsePathTerms(facets.browsePathV2),
};

/** Other names DataHub's clients send for the same fields. */
const ALIASES: Record<string, string> = {
  'platform.keyword': 'platform',
  env: 'origin',
  entityType: '_entityType',
  'tags.keyword': 'tags',
  'container.keyword': 'container',
  'owners.keyword': 'owners',
};

type Compare = (actual: string, wanted: string) => boolean;

// _entityType values are DataHub's EntityType names; clients send them in either case.
const CONDITIONS: Record<string, Compare> = {
  EQUAL: (actual, wanted) => actual === wanted,
  IN: (actual, wanted) => actual === wanted,
  IEQUAL: (actual, wanted) => actual.toLowerCase() === wanted.toLowerCase(),
  CONTAIN: (actual, wanted) => actual.toLowerCase().includes(wanted.toLowerCase()),
  START_WITH: (actual, wanted) => actual.toLowerCase().startsWith(wanted.toLowerCase()),
  END_WITH: (actual, wanted) => actual.toLowerCase().endsWith(wanted.toLowerCase()),
};

/** The names filters accept, for error messages. */
export const FILTER_FIELDS = [...Object.keys(FIELDS), ...Object.keys(ALIASES)];

/** Checks `orFilters`, else the deprecated `filters`; no clause at all matches everything. */
export function parseFilters(
  orFilters: readonly AndFilterInput[] | null | undefined,
  filters: readonly FacetFilterInput[] | null | undefined,
): SearchFilter {
  const groups = orFilters?.length ? orFilters.map((group) => group.and ?? []) : filters?.length ? [filters] : [];
  let namesRemoved = false;
  const selected = new Map<string, string[]>();
  const ors = groups.map((group) => {
    const ands = group.map((input) => {
      const field = canonicalField(input.field);
      if (field === 'removed') namesRemoved = true;
      const values = input.values ?? (input.value != null ? [input.value] : []);
      if (input.negated !== true) selected.set(field, [...(selected.get(field) ?? []), ...values]);
      const test = predicate(field, input.condition ?? 'EQUAL', values);
      return input.negated === true ? (urn: string, facets: FacetValues) => !test(urn, facets) : test;
    });
    return ands.length === 1 ? ands[0]! : (urn: string, facets: FacetValues) => ands.every((test) => test(urn, facets));
  });
  // One clause (the usual filter) is its own test: a match passes through no wrapper.
  const matches: Predicate =
    ors.length === 0 ? () => true : ors.length === 1 ? ors[0]! : (urn, facets) => ors.some((test) => test(urn, facets));
  return { matches, namesRemoved, selected };
}

function canonicalField(field: string): string {
  const name = (Object.hasOwn(ALIASES, field) ? ALIASES[field] : undefined) ?? field;
  // Own keys only: every object also answers toString, constructor and the like.
  if (Object.hasOwn(FIELDS, name)) return name;
  throw badRequest(
    `Unknown search filter field "${shown(field)}": minihub filters on ${FILTER_FIELDS.map((f) => `"${f}"`).join(', ')}`,
  );
}

function predicate(field: string, condition: string, values: readonly string[]): Predicate {
  const read = FIELDS[field] as (urn: string, facets: FacetValues) => HeldValues;
  if (condition === 'EXISTS') return (urn, facets) => someValue(read(urn, facets), (value) => value !== '');
  const compare = CONDITIONS[condition];
  if (compare === undefined) {
    throw badRequest(
      `Unsupported search filter condition ${condition} on "${shown(field)}": minihub applies ${[...Object.keys(CONDITIONS), 'EXISTS'].join(', ')}`,
    );
  }
  // `dataset` and `corpuser` (the URN's type) name DATASET and CORP_USER too.
  const wanted =
    field === '_entityType' ? values.map((value) => SEARCHED_TYPES.get(value) ?? value.toUpperCase()) : values;
  if (condition === 'EQUAL' || condition === 'IN') return heldIn(read, new Set(wanted));
  const wantedBy = (actual: string) => wanted.some((value) => compare(actual, value));
  return (urn, facets) => someValue(read(urn, facets), wantedBy);
}

// The exact conditions (the usual ones: a platform, a type, a tag) as one set lookup per value held.
function heldIn(read: (urn: string, facets: FacetValues) => HeldValues, wanted: ReadonlySet<string>): Predicate {
  return (urn, facets) => {
    const held = read(urn, facets);
    if (held === null) return false;
    if (typeof held === 'string') return wanted.has(held);
    for (const value of held) if (wanted.has(value)) return true;
    return false;
  };
}
