// What the index keeps of one entity: its text, field by field (fields.ts), and the values filters and
// facets compare (platform, origin, tags...). Built from the catalogue's aspects; never writes anything.

import { aspectObject, bool } from '../aspects/read.ts';
import { entityTypeOf } from '../resolvers/views/entity-registry.ts';
import type { AspectReader } from '../store/catalogue.ts';
import { browsePathV2 } from './browse-path.ts';
import { DocumentSource } from './document-source.ts';
import { TEXT_FIELDS, type DocumentText } from './fields.ts';

/** The entity types searched, by URN entity type, with DataHub's EntityType name. */
export const SEARCHED_TYPES: ReadonlyMap<string, string> = new Map([
  ['dataset', 'DATASET'],
  ['container', 'CONTAINER'],
  ['tag', 'TAG'],
  ['corpuser', 'CORP_USER'],
  ['corpGroup', 'CORP_GROUP'],
]);

/** The values filters and facets compare, per entity, as read from its aspects (FacetPool.share pools them). */
export interface EntityValues {
  /** DataHub's EntityType name: DATASET, CONTAINER, TAG, CORP_USER or CORP_GROUP. */
  entityType: string;
  /** The display name, for autocomplete and for ties. */
  name: string;
  platform: string | null;
  origin: string | null;
  typeNames: readonly string[];
  tags: readonly string[];
  container: string | null;
  owners: readonly string[];
  removed: boolean;
  /** `key=value`, DataHub's filter form. */
  customProperties: readonly string[];
  /** DataHub's browsePathV2 value (browse-path.ts); null for types without one. */
  browsePathV2: string | null;
}

/** An indexed entity's values, pooled: the index holds only these. */
export interface FacetValues extends EntityValues {
  /** The facet-counted values, shared by every indexed entity holding the same (facet-pool.ts). */
  readonly group: FacetGroup;
}

/** The values facets count (facets.ts). */
export interface CountedValues {
  readonly entityType: string;
  readonly platform: string | null;
  readonly origin: string | null;
  readonly container: string | null;
  readonly tags: readonly string[];
  readonly owners: readonly string[];
}

/**
 * The counted values, one object for every entity holding the same ones (facet-pool.ts): a search counts
 * its matches per group, then each group's values once. The index's groups are shared by every search, so
 * their two scratch fields are facetsOf's alone and valid only within one call of it: it must stay
 * synchronous (no await between marking a group and reading it), or two counts would mix.
 */
export interface FacetGroup extends CountedValues {
  /** Facet-count scratch: the number of the count that last met this group. */
  scratchCountedIn: number;
  /** Facet-count scratch: that count's matches in this group so far. */
  scratchHits: number;
}

export interface SearchDocument {
  /** Each field's text; a field of several values (columns, tags...) has one per line. */
  text: DocumentText;
  facets: EntityValues;
  /** Every tag whose name the text holds (the entity's and its columns'): renaming one changes this text. */
  namedTags: readonly string[];
}

/** The document of `urn`, or null when it is not searched (another type, or no longer there). */
export function searchDocument(reader: AspectReader, urn: string): SearchDocument | null {
  const entityType = searchedType(reader, urn);
  if (entityType === null) return null;
  const source = new DocumentSource(reader, urn, entityType);
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, source.text(field)])) as DocumentText;
  const { parts } = source;
  const facets: EntityValues = {
    entityType,
    name: parts.name,
    platform: parts.platform,
    origin: parts.origin,
    typeNames: source.typeNames,
    tags: source.tags,
    container: source.container,
    owners: source.owners,
    removed: bool(aspectObject(reader, urn, 'status'), 'removed') ?? false,
    customProperties: source.properties.map(([key, value]) => `${key}=${value}`),
    browsePathV2: browsePathV2(reader, urn, entityType, parts.id),
  };
  return { text, facets, namedTags: source.namedTags };
}

/**
 * The source of `urn`'s document text (DocumentSource: each part read on first use), or null when it is not
 * searched: what matchedFields reads a page's results' lines from, one field at a time.
 */
export function documentSource(reader: AspectReader, urn: string): DocumentSource | null {
  const entityType = searchedType(reader, urn);
  return entityType === null ? null : new DocumentSource(reader, urn, entityType);
}

function searchedType(reader: AspectReader, urn: string): string | null {
  const entityType = SEARCHED_TYPES.get(entityTypeOf(urn));
  return entityType === undefined || !reader.exists(urn) ? null : entityType;
}
