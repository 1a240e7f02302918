// Container.entities: one page of the entities a container holds (the catalogue's index of `container`
// aspects), in DataHub's SearchResults shape, filtered by entity type as DataHub's clients filter it.
// It lists direct children only, so a cycle cannot loop it, and leaves soft-deleted ones out, as DataHub's search does.

import { badRequest, shown } from '../../errors.ts';
import { aspectObject, bool } from '../../aspects/read.ts';
import type { AspectReader } from '../../store/catalogue.ts';
import { entityKindOf, entityTypeOf, type EntityView } from './entity-registry.ts';

/** DataHub's default page size for a container's entities, and the most one page may ask for (its search window). */
export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 10_000;

export interface ContainerEntitiesInput {
  query?: string | null;
  start?: number | null;
  count?: number | null;
  /** Facet filters, all of which must hold; only the entity type (`_entityType`) is kept for a listing. */
  filters?: readonly FacetFilter[] | null;
}

interface FacetFilter {
  field: string;
  value?: string | null;
  values?: readonly string[] | null;
  negated?: boolean | null;
  condition?: string | null;
}

// The filter fields DataHub's clients send for a container's entity type.
const ENTITY_TYPE_FIELDS = new Set(['_entityType', 'entityType', '_entityType.keyword']);

/** A URN's entity type as DataHub's EntityType enum spells it: `corpGroup` → `CORP_GROUP`. */
function entityTypeName(urn: string): string {
  return entityTypeOf(urn)
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toUpperCase();
}

/** One predicate over child URNs for all the filters; a field or condition a listing cannot apply is a 400. */
function entityTypeFilter(filters: readonly FacetFilter[]): (urn: string) => boolean {
  const tests = filters.map((filter) => {
    if (!ENTITY_TYPE_FIELDS.has(filter.field)) {
      throw badRequest(
        `Container.entities cannot filter on "${shown(filter.field)}": a container's entities filter only on _entityType`,
      );
    }
    const condition = filter.condition ?? 'EQUAL';
    if (condition !== 'EQUAL' && condition !== 'IN') {
      throw badRequest(`Container.entities filters on _entityType with EQUAL or IN, not ${condition}`);
    }
    const wanted = new Set(
      [...(filter.values ?? []), ...(filter.value ? [filter.value] : [])].map((v) => v.toUpperCase()),
    );
    return (urn: string) => wanted.has(entityTypeName(urn)) !== (filter.negated === true);
  });
  return (urn) => tests.every((test) => test(urn));
}

export function containerEntities(reader: AspectReader, container: string, input: ContainerEntitiesInput | null) {
  const start = Math.max(0, input?.start ?? 0);
  const count = Math.min(Math.max(0, input?.count ?? DEFAULT_COUNT), MAX_COUNT);
  // DataHub's match-all query is "*"; any other text matches a case-insensitive part of the name.
  const text = (input?.query ?? '').trim().toLowerCase();
  const query = text === '*' ? '' : text;
  const kept = entityTypeFilter(input?.filters ?? []);
  const page: EntityView[] = [];
  let total = 0;
  for (const urn of reader.contained(container)) {
    // Entities of types minihub has no view for (charts, dashboards...) are neither listed nor counted.
    const kind = entityKindOf(urn);
    if (kind === undefined || !kept(urn) || bool(aspectObject(reader, urn, 'status'), 'removed') === true) continue;
    if (query !== '' && !kind.name(reader, urn).toLowerCase().includes(query)) continue;
    // Only the page's entities get views: counting the others costs a type lookup (and the name, with a
    // query). A child whose URN no view can parse is counted on every page alike, and listed on none.
    if (total >= start && page.length < count) {
      const view = kind.view(reader, urn);
      if (view !== null) page.push(view);
    }
    total++;
  }
  return {
    start,
    count,
    total,
    searchResults: page.map((entity) => ({ entity, insights: [], matchedFields: [], extraProperties: [] })),
    facets: [],
    suggestions: [],
  };
}
