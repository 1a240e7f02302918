// Container.entities: one page of the entities a container holds (the catalogue's index of `container`
// aspects), in DataHub's SearchResults shape. It lists direct children only, so a cycle cannot loop it.

import type { AspectReader } from '../../store/catalogue.ts';
import { entityKindOf, type EntityView } from './entity-registry.ts';

/** DataHub's default page size for a container's entities, and the most one page may ask for (its search window). */
export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 10_000;

export interface ContainerEntitiesInput {
  query?: string | null;
  start?: number | null;
  count?: number | null;
  /** Accepted for DataHub's documents; minihub applies no facet filters. */
  filters?: readonly unknown[] | null;
}

export function containerEntities(reader: AspectReader, container: string, input: ContainerEntitiesInput | null) {
  const start = Math.max(0, input?.start ?? 0);
  const count = Math.min(Math.max(0, input?.count ?? DEFAULT_COUNT), MAX_COUNT);
  // DataHub's match-all query is "*"; any other text matches a case-insensitive part of the name.
  const text = (input?.query ?? '').trim().toLowerCase();
  const query = text === '*' ? '' : text;
  const page: EntityView[] = [];
  let total = 0;
  for (const urn of reader.contained(container)) {
    // Entities of types minihub has no view for (charts, dashboards...) are neither listed nor counted.
    const kind = entityKindOf(urn);
    if (kind === undefined) continue;
    if (query !== '' && !kind.name(reader, urn).toLowerCase().includes(query)) continue;
    // Only the page's entities get views: counting the others costs a type lookup (and the name, with a query).
    if (total >= start && page.length < count) {
      const view = kind.view(reader, urn);
      if (view === null) continue;
      page.push(view);
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
