// The Dataset view. properties.description and schemaMetadata.fields[].description are the current
// descriptions (description.ts: latest edit, else ingested); the edit layer stays readable.

import type { AspectReader } from '../../store/catalogue.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { parseDatasetUrn, type DatasetKey } from '../../urn.ts';
import { aspectObject, num, obj, objects, str, strings } from '../../aspects/read.ts';
import { containerOf, parentContainersOf, type ContainerView } from './container.ts';
import { currentDescription, editedColumnDescriptions } from './description.ts';
import { registerEntityView } from './entity-registry.ts';
import { foreignKeysView } from './foreign-keys.ts';
import { deprecationView, domainView, glossaryTermsOf, glossaryTermsView, statusView } from './governance.ts';
import { SchemaFieldView } from './schema-field.ts';
import { DataPlatformView } from './platform.ts';
import { auditStamp, customProperties, institutionalMemoryView, ownershipView, subTypesView } from './shared.ts';
import { globalTagsView } from './tag.ts';

export class DatasetView {
  readonly __typename = 'Dataset';
  readonly type = 'DATASET';
  readonly urn: string;
  readonly #reader: AspectReader;
  readonly #key: DatasetKey;

  constructor(reader: AspectReader, urn: string, key: DatasetKey) {
    this.#reader = reader;
    this.urn = urn;
    this.#key = key;
  }

  get origin(): string {
    return this.#key.origin;
  }

  name(): string {
    return str(this.#aspect('datasetProperties'), 'name') ?? this.#key.name;
  }

  exists(): boolean {
    return this.#reader.exists(this.urn);
  }

  platform(): DataPlatformView {
    return new DataPlatformView(this.#reader, this.#key.platform);
  }

  container(): ContainerView | null {
    return containerOf(this.#reader, this.urn);
  }

  parentContainers() {
    return parentContainersOf(this.#reader, this.urn);
  }

  /** datasetProperties.uri, as DataHub's mapper answers the deprecated field. */
  uri(): string | null {
    return str(this.#aspect('datasetProperties'), 'uri');
  }

  /** Always null: DataHub's mapper never sets this deprecated field from any aspect. */
  platformNativeType(): null {
    return null;
  }

  deprecation() {
    return deprecationView(this.#reader, this.urn);
  }

  glossaryTerms() {
    return glossaryTermsView(this.#reader, this.urn);
  }

  domain() {
    return domainView(this.#reader, this.urn);
  }

  properties() {
    const properties = this.#aspect('datasetProperties');
    const edited = str(this.#aspect('editableDatasetProperties'), 'description');
    // DataHub answers null without datasetProperties; an edit still has to be readable (rule 5).
    if (properties === null && edited === null) return null;
    return new DatasetPropertiesView(this.urn, this.#key, properties, currentDescription(edited, properties));
  }

  description(): string | null {
    return this.properties()?.description ?? null;
  }

  editableProperties() {
    const editable = this.#aspect('editableDatasetProperties');
    return editable === null ? null : { description: str(editable, 'description'), name: str(editable, 'name') };
  }

  schemaMetadata() {
    const schema = this.#aspect('schemaMetadata');
    if (schema === null) return null;
    const edits = editedColumnDescriptions(this.#aspect('editableSchemaMetadata'));
    return {
      aspectVersion: 0,
      datasetUrn: this.urn,
      name: str(schema, 'schemaName') ?? this.#key.name,
      platformUrn: str(schema, 'platform') ?? this.#key.platform,
      version: num(schema, 'version') ?? 0,
      cluster: str(schema, 'cluster'),
      hash: str(schema, 'hash') ?? '',
      platformSchema: platformSchemaView(obj(schema, 'platformSchema')),
      fields: objects(schema, 'fields').map(
        (field) => new SchemaFieldView(this.#reader, this.urn, field, edits.get(str(field, 'fieldPath') ?? '')),
      ),
      primaryKeys: strings(schema, 'primaryKeys'),
      foreignKeys: foreignKeysView(this.#reader, schema),
      createdAt: num(obj(schema, 'created'), 'time'),
    };
  }

  editableSchemaMetadata() {
    const editable = this.#aspect('editableSchemaMetadata');
    if (editable === null) return null;
    return {
      editableSchemaFieldInfo: objects(editable, 'editableSchemaFieldInfo').map((info) => {
        const tags = () => globalTagsView(this.#reader, obj(info, 'globalTags'), this.urn);
        return {
          fieldPath: str(info, 'fieldPath') ?? '',
          description: str(info, 'description'),
          tags,
          globalTags: tags,
          glossaryTerms: () => glossaryTermsOf(this.#reader, obj(info, 'glossaryTerms'), this.urn),
        };
      }),
    };
  }

  institutionalMemory() {
    return institutionalMemoryView(this.#reader, this.urn);
  }

  tags() {
    return globalTagsView(this.#reader, this.#aspect('globalTags'), this.urn);
  }

  globalTags() {
    return this.tags();
  }

  ownership() {
    return ownershipView(this.#reader, this.urn);
  }

  status() {
    return statusView(this.#reader, this.urn);
  }

  subTypes() {
    return subTypesView(this.#reader, this.urn);
  }

  #aspect(name: string): JsonObject | null {
    return aspectObject(this.#reader, this.urn, name);
  }
}

registerEntityView('dataset', {
  view: (reader, urn) => {
    try {
      return new DatasetView(reader, urn, parseDatasetUrn(urn));
    } catch {
      return null;
    }
  },
  // DatasetView.name without parsing the URN: datasetProperties.name, else the urn's name part.
  name: (reader, urn) =>
    str(aspectObject(reader, urn, 'datasetProperties'), 'name') ??
    urn.slice(urn.indexOf(',') + 1, urn.lastIndexOf(',')),
});

/**
 * A dataset's properties as DataHub answers them. The custom properties and lastModified are made only when
 * a document selects them: a search page shows a name and a description for each of its results.
 */
class DatasetPropertiesView {
  readonly name: string;
  readonly qualifiedName: string | null;
  readonly origin: string;
  readonly description: string | null;
  readonly externalUrl: string | null;
  readonly created: number | null;
  readonly #urn: string;
  readonly #properties: JsonObject | null;

  constructor(urn: string, key: DatasetKey, properties: JsonObject | null, description: string | null) {
    this.name = str(properties, 'name') ?? key.name;
    this.qualifiedName = str(properties, 'qualifiedName');
    this.origin = key.origin;
    this.description = description;
    this.externalUrl = str(properties, 'externalUrl');
    this.created = num(obj(properties, 'created'), 'time');
    this.#urn = urn;
    this.#properties = properties;
  }

  customProperties() {
    return customProperties(this.#properties, this.#urn);
  }

  lastModified() {
    return auditStamp(obj(this.#properties, 'lastModified'));
  }
}

/** The platformSchema union: key/value schemas stay split, every other kind is shown as a table schema. */
function platformSchemaView(platformSchema: JsonObject | null) {
  const member = platformSchema === null ? undefined : Object.keys(platformSchema)[0];
  if (platformSchema === null || member === undefined) return null;
  const value = obj(platformSchema, member);
  if (member.endsWith('.KeyValueSchema')) {
    return {
      __typename: 'KeyValueSchema',
      keySchema: str(value, 'keySchema') ?? '',
      valueSchema: str(value, 'valueSchema') ?? '',
    };
  }
  const schema =
    str(value, 'documentSchema') ?? str(value, 'tableSchema') ?? str(value, 'rawSchema') ?? str(value, 'schema');
  return { __typename: 'TableSchema', schema: schema ?? JSON.stringify(value ?? {}) };
}
