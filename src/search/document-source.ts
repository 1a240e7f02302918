// One entity's searchable parts (name, description, columns, tags, owners...) read from its aspects on
// first use, and each text field built from them, so a caller needing one field reads only its aspects.
// Reads through an AspectReader only; which entities are searched and their facets are documents.ts's.

import type { JsonObject } from '../aspects/json.ts';
import { aspectObject, obj, objects, str, strings, urnId } from '../aspects/read.ts';
import { currentDescription, editedColumnDescriptions } from '../resolvers/views/description.ts';
import type { AspectReader } from '../store/catalogue.ts';
import {
  columnDescription,
  firstColumnDescription,
  firstColumnPath,
  firstOfLines,
  simplePath,
  type LineTest,
} from './column-lines.ts';
import type { TextField } from './fields.ts';

/** One entity's parts, each read from its aspects on first use: a field's text reads only what it needs. */
export class DocumentSource {
  readonly #reader: AspectReader;
  readonly #urn: string;
  readonly #entityType: string;
  #parts?: EntityParts;
  #columns?: Columns;
  #tags?: string[];
  #namedTags?: string[];
  #owners?: string[];
  #container?: string | null;
  #typeNames?: readonly string[];
  #properties?: (readonly [string, string])[];

  constructor(reader: AspectReader, urn: string, entityType: string) {
    this.#reader = reader;
    this.#urn = urn;
    this.#entityType = entityType;
  }

  #aspect(name: string): JsonObject | null {
    return aspectObject(this.#reader, this.#urn, name);
  }

  get parts(): EntityParts {
    return (this.#parts ??= entityParts(this.#reader, this.#urn, this.#entityType));
  }

  get columns(): Columns {
    this.#columns ??=
      this.#entityType === 'DATASET'
        ? columns(this.#aspect('schemaMetadata'), this.#aspect('editableSchemaMetadata'))
        : NO_COLUMNS;
    return this.#columns;
  }

  get tags(): string[] {
    return (this.#tags ??= tagUrns(this.#aspect('globalTags')));
  }

  get owners(): string[] {
    return (this.#owners ??= objects(this.#aspect('ownership'), 'owners').flatMap(
      (owner) => str(owner, 'owner') ?? [],
    ));
  }

  get container(): string | null {
    if (this.#container === undefined) this.#container = str(this.#aspect('container'), 'container');
    return this.#container;
  }

  get typeNames(): readonly string[] {
    return (this.#typeNames ??= strings(this.#aspect('subTypes'), 'typeNames') ?? []);
  }

  get properties(): (readonly [string, string])[] {
    return (this.#properties ??= Object.entries(obj(this.parts.properties, 'customProperties') ?? {}).flatMap(
      ([key, value]) => (typeof value === 'string' ? [[key, value] as const] : []),
    ));
  }

  /** Every tag whose name the text holds: the entity's and its columns'. */
  get namedTags(): string[] {
    return (this.#namedTags ??= [...new Set([...this.tags, ...this.columns.columnTags])]);
  }

  /**
   * The first of `field`'s lines (its text split at every newline) that `holder` holds, or undefined: a
   * column field's columns are read one at a time up to the first that holds, with no array of lines made.
   */
  firstLine(field: TextField, holder: LineTest): string | undefined {
    if (this.#columns === undefined && this.#entityType === 'DATASET') {
      if (field === 'fieldPaths') return firstColumnPath(this.#aspect('schemaMetadata'), holder);
      if (field === 'fieldDescriptions')
        return firstColumnDescription(this.#aspect('schemaMetadata'), this.#aspect('editableSchemaMetadata'), holder);
    }
    return firstOfLines(this.text(field), holder);
  }

  text(field: TextField): string {
    const reader = this.#reader;
    switch (field) {
      case 'name':
        return this.parts.name;
      case 'qualifiedName':
        return this.parts.qualifiedName ?? '';
      case 'id':
        return this.parts.id;
      case 'description':
        return this.parts.description ?? '';
      case 'tags':
        return this.namedTags.map((tag) => tagName(reader, tag)).join('\n');
      case 'platform':
        return this.parts.platform === null ? '' : urnId(this.parts.platform);
      case 'origin':
        return this.parts.origin ?? '';
      case 'container':
        return this.container === null ? '' : containerName(reader, this.container);
      case 'owners':
        return this.owners.map(urnId).join('\n');
      case 'typeNames':
        return this.typeNames.join('\n');
      case 'customProperties':
        return this.properties.map(([key, value]) => `${key} ${value}`).join('\n');
      case 'links':
        return objects(this.#aspect('institutionalMemory'), 'elements')
          .map((link) => str(link, 'description') ?? '')
          .join('\n');
      case 'fieldPaths':
        return this.columns.fieldPaths.join('\n');
      case 'fieldDescriptions':
        return this.columns.fieldDescriptions.join('\n');
    }
  }
}

/** What differs between entity types: where name, description, platform and columns come from. */
export interface EntityParts {
  name: string;
  id: string;
  qualifiedName: string | null;
  description: string | null;
  properties: JsonObject | null;
  platform: string | null;
  origin: string | null;
}

/** A dataset's columns as the text holds them (other types have none). */
export interface Columns {
  fieldPaths: string[];
  fieldDescriptions: string[];
  columnTags: string[];
}

const NO_COLUMNS: Columns = { fieldPaths: [], fieldDescriptions: [], columnTags: [] };

function entityParts(reader: AspectReader, urn: string, entityType: string): EntityParts {
  const empty = { qualifiedName: null, platform: null, origin: null };
  switch (entityType) {
    case 'DATASET': {
      // urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD): split at the last two commas, as parseDatasetUrn does.
      const inner = urn.slice(urn.indexOf('(') + 1, urn.lastIndexOf(')'));
      const last = inner.lastIndexOf(',');
      const first = inner.lastIndexOf(',', last - 1);
      const id = inner.slice(first + 1, last);
      const properties = aspectObject(reader, urn, 'datasetProperties');
      return {
        name: str(properties, 'name') ?? id,
        id,
        qualifiedName: str(properties, 'qualifiedName'),
        description: currentDescription(
          str(aspectObject(reader, urn, 'editableDatasetProperties'), 'description'),
          properties,
        ),
        properties,
        platform: inner.slice(0, first),
        origin: inner.slice(last + 1),
      };
    }
    case 'CONTAINER': {
      const properties = aspectObject(reader, urn, 'containerProperties');
      return {
        ...empty,
        name: str(properties, 'name') ?? urnId(urn),
        id: urnId(urn),
        qualifiedName: str(properties, 'qualifiedName'),
        description: currentDescription(
          str(aspectObject(reader, urn, 'editableContainerProperties'), 'description'),
          properties,
        ),
        properties,
        platform: str(aspectObject(reader, urn, 'dataPlatformInstance'), 'platform'),
        // DataHub's containers keep their env as a custom property; `origin` is read from there too.
        origin: str(obj(properties, 'customProperties'), 'env') ?? str(obj(properties, 'customProperties'), 'instance'),
      };
    }
    case 'TAG': {
      const properties = aspectObject(reader, urn, 'tagProperties');
      return {
        ...empty,
        name: str(properties, 'name') ?? urnId(urn),
        id: urnId(urn),
        description: str(properties, 'description'),
        properties,
      };
    }
    case 'CORP_USER': {
      const info = aspectObject(reader, urn, 'corpUserInfo');
      const editable = aspectObject(reader, urn, 'corpUserEditableInfo');
      const name = str(editable, 'displayName') ?? str(info, 'displayName') ?? str(info, 'fullName') ?? urnId(urn);
      const about = [str(info, 'title'), str(info, 'email'), str(editable, 'aboutMe')].filter((part) => part !== null);
      return { ...empty, name, id: urnId(urn), description: about.join(' '), properties: info };
    }
    default: {
      const info = aspectObject(reader, urn, 'corpGroupInfo');
      const editable = aspectObject(reader, urn, 'corpGroupEditableInfo');
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
function columns(schema: JsonObject | null, editable: JsonObject | null): Columns {
  const edited = editedColumnDescriptions(editable);
  const editedTags = editedColumnTags(editable);
  const fieldPaths: string[] = [];
  const fieldDescriptions: string[] = [];
  const columnTags: string[] = [];
  for (const field of objects(schema, 'fields')) {
    const path = str(field, 'fieldPath') ?? '';
    fieldPaths.push(simplePath(path));
    const description = columnDescription(field, path, edited);
    if (description !== null) fieldDescriptions.push(description);
    columnTags.push(...tagUrns(obj(field, 'globalTags')), ...(editedTags.get(path) ?? []));
  }
  return { fieldPaths, fieldDescriptions, columnTags };
}

/**
 * fieldPath -> the tags a dataset's column edits give it, from every edit of that path (an edit that only
 * describes a column leaves its tags as they were, as editedColumnDescriptions does for descriptions).
 */
function editedColumnTags(editable: JsonObject | null): Map<string, string[]> {
  const tags = new Map<string, string[]>();
  for (const info of objects(editable, 'editableSchemaFieldInfo')) {
    const path = str(info, 'fieldPath');
    const urns = tagUrns(obj(info, 'globalTags'));
    if (path === null || urns.length === 0) continue;
    const known = tags.get(path);
    if (known === undefined) tags.set(path, urns);
    else known.push(...urns);
  }
  return tags;
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
