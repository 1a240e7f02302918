// What the index keeps of one entity: its text, field by field (fields.ts), and the values filters and
// facets compare (platform, origin, tags...). Built from the catalogue's aspects; never writes anything.

import type { JsonObject } from '../aspects/json.ts';
import { aspectObject, bool, obj, objects, str, strings, urnId } from '../aspects/read.ts';
import { currentDescription } from '../resolvers/views/description.ts';
import { entityTypeOf } from '../resolvers/views/entity-registry.ts';
import type { AspectReader } from '../store/catalogue.ts';
import { browsePathV2 } from './browse-path.ts';
import type { DocumentText } from './fields.ts';

/** The entity types searched, by URN entity type, with DataHub's EntityType name. */
export const SEARCHED_TYPES: ReadonlyMap<string, string> = new Map([
  ['dataset', 'DATASET'],
  ['container', 'CONTAINER'],
  ['tag', 'TAG'],
  ['corpuser', 'CORP_USER'],
  ['corpGroup', 'CORP_GROUP'],
]);

/** The values filters and facets compare, per entity. */
export interface FacetValues {
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

export interface SearchDocument {
  /** Each field's text; a field of several values (columns, tags...) has one per line. */
  text: DocumentText;
  facets: FacetValues;
  /** Every tag whose name the text holds (the entity's and its columns'): renaming one changes this text. */
  namedTags: readonly string[];
}

/** The document of `urn`, or null when it is not searched (another type, or no longer there). */
export function searchDocument(reader: AspectReader, urn: string): SearchDocument | null {
  const entityType = SEARCHED_TYPES.get(entityTypeOf(urn));
  if (entityType === undefined || !reader.exists(urn)) return null;
  const parts = entityParts(reader, urn, entityType);
  const tags = tagUrns(aspectObject(reader, urn, 'globalTags'));
  const owners = objects(aspectObject(reader, urn, 'ownership'), 'owners').flatMap(
    (owner) => str(owner, 'owner') ?? [],
  );
  const container = str(aspectObject(reader, urn, 'container'), 'container');
  const typeNames = strings(aspectObject(reader, urn, 'subTypes'), 'typeNames') ?? [];
  const properties = Object.entries(obj(parts.properties, 'customProperties') ?? {}).flatMap(([key, value]) =>
    typeof value === 'string' ? [[key, value] as const] : [],
  );
  const links = objects(aspectObject(reader, urn, 'institutionalMemory'), 'elements');
  const namedTags = [...new Set([...tags, ...parts.columnTags])];
  const text: DocumentText = {
    name: parts.name,
    qualifiedName: parts.qualifiedName ?? '',
    id: parts.id,
    description: parts.description ?? '',
    tags: namedTags.map((tag) => tagName(reader, tag)).join('\n'),
    platform: parts.platform === null ? '' : urnId(parts.platform),
    origin: parts.origin ?? '',
    container: container === null ? '' : containerName(reader, container),
    owners: owners.map(urnId).join('\n'),
    typeNames: typeNames.join('\n'),
    customProperties: properties.map(([key, value]) => `${key} ${value}`).join('\n'),
    links: links.map((link) => str(link, 'description') ?? '').join('\n'),
    fieldPaths: parts.fieldPaths.join('\n'),
    fieldDescriptions: parts.fieldDescriptions.join('\n'),
  };
  const facets: FacetValues = {
    entityType,
    name: parts.name,
    platform: parts.platform,
    origin: parts.origin,
    typeNames,
    tags,
    container,
    owners,
    removed: bool(aspectObject(reader, urn, 'status'), 'removed') ?? false,
    customProperties: properties.map(([key, value]) => `${key}=${value}`),
    browsePathV2: browsePathV2(reader, urn, entityType, parts.id),
  };
  return { text, facets, namedTags };
}

/** What differs between entity types: where name, description, platform and columns come from. */
interface EntityParts {
  name: string;
  id: string;
  qualifiedName: string | null;
  description: string | null;
  properties: JsonObject | null;
  platform: string | null;
  origin: string | null;
  fieldPaths: string[];
  fieldDescriptions: string[];
  columnTags: string[];
}

function entityParts(reader: AspectReader, urn: string, entityType: string): EntityParts {
  const empty = {
    qualifiedName: null,
    platform: null,
    origin: null,
    fieldPaths: [],
    fieldDescriptions: [],
    columnTags: [],
  };
  const aspect = (name: string) => aspectObject(reader, urn, name);
  switch (entityType) {
    case 'DATASET': {
      // urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD): split at the last two commas, as parseDatasetUrn does.
      const inner = urn.slice(urn.indexOf('(') + 1, urn.lastIndexOf(')'));
      const last = inner.lastIndexOf(',');
      const first = inner.lastIndexOf(',', last - 1);
      const id = inner.slice(first + 1, last);
      const properties = aspect('datasetProperties');
      return {
        ...columns(aspect('schemaMetadata'), aspect('editableSchemaMetadata')),
        name: str(properties, 'name') ?? id,
        id,
        qualifiedName: str(properties, 'qualifiedName'),
        description: currentDescription(str(aspect('editableDatasetProperties'), 'description'), properties),
        properties,
        platform: inner.slice(0, first),
        origin: inner.slice(last + 1),
      };
    }
    case 'CONTAINER': {
      const properties = aspect('containerProperties');
      return {
        ...empty,
        name: str(properties, 'name') ?? urnId(urn),
        id: urnId(urn),
        qualifiedName: str(properties, 'qualifiedName'),
        description: currentDescription(str(aspect('editableContainerProperties'), 'description'), properties),
        properties,
        platform: str(aspect('dataPlatformInstance'), 'platform'),
        // DataHub's containers keep their env as a custom property; `origin` is read from there too.
        origin: str(obj(properties, 'customProperties'), 'env') ?? str(obj(properties, 'customProperties'), 'instance'),
      };
    }
    case 'TAG': {
      const properties = aspect('tagProperties');
      return {
        ...empty,
        name: str(properties, 'name') ?? urnId(urn),
        id: urnId(urn),
        description: str(properties, 'description'),
        properties,
      };
    }
    case 'CORP_USER': {
      const info = aspect('corpUserInfo');
      const editable = aspect('corpUserEditableInfo');
      const name = str(editable, 'displayName') ?? str(info, 'displayName') ?? str(info, 'fullName') ?? urnId(urn);
      const about = [str(info, 'title'), str(info, 'email'), str(editable, 'aboutMe')].filter((part) => part !== null);
      return { ...empty, name, id: urnId(urn), description: about.join(' '), properties: info };
    }
    default: {
      const info = aspect('corpGroupInfo');
      const editable = aspect('corpGroupEditableInfo');
      return {
        ...empty,
        name: str(info, 'displayName') ?? urnId(urn),
        id: urnId(urn),
        description: currentDescription(str(editable, 'description'), info),
        properties: info,
      };
    }
  }
}

/** A dataset's column paths, their current descriptions (the edit, else ingested) and their tags. */
function columns(schema: JsonObject | null, editable: JsonObject | null) {
  const edits = new Map<string, JsonObject>();
  for (const info of objects(editable, 'editableSchemaFieldInfo')) {
    const path = str(info, 'fieldPath');
    if (path !== null) edits.set(path, info);
  }
  const fieldPaths: string[] = [];
  const fieldDescriptions: string[] = [];
  const columnTags: string[] = [];
  for (const field of objects(schema, 'fields')) {
    const path = str(field, 'fieldPath') ?? '';
    const edit = edits.get(path);
    fieldPaths.push(simplePath(path));
    const description = currentDescription(str(edit, 'description'), field);
    if (description !== null) fieldDescriptions.push(description);
    columnTags.push(...tagUrns(obj(field, 'globalTags')), ...tagUrns(obj(edit, 'globalTags')));
  }
  return { fieldPaths, fieldDescriptions, columnTags };
}

/** A v2 field path without its `[version=2.0].[type=...]` parts, as DataHub's simplified fieldPaths. */
function simplePath(path: string): string {
  return path.startsWith('[') ? path.replace(/\[[^\]]*\]\.?/g, '') : path;
}

function tagUrns(globalTags: JsonObject | null): string[] {
  return objects(globalTags, 'tags').flatMap((association) => str(association, 'tag') ?? []);
}

function tagName(reader: AspectReader, tag: string): string {
  return str(aspectObject(reader, tag, 'tagProperties'), 'name') ?? urnId(tag);
}

function containerName(reader: AspectReader, container: string): string {
  return str(aspectObject(reader, container, 'containerProperties'), 'name') ?? urnId(container);
}
