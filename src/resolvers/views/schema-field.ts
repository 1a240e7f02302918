// One column of a dataset's schema as GraphQL's SchemaField. Fields are getters, so a query pays only
// for what it selects; `description` is the current one (description.ts: the edit, else ingested).

import type { AspectReader } from '../../store/catalogue.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { bool, obj, str } from '../../aspects/read.ts';
import { currentDescription } from './description.ts';
import { glossaryTermsOf } from './governance.ts';
import { globalTagsView } from './tag.ts';

const FIELD_TYPES = new Set([
  'BOOLEAN',
  'FIXED',
  'STRING',
  'BYTES',
  'NUMBER',
  'DATE',
  'TIME',
  'ENUM',
  'NULL',
  'MAP',
  'ARRAY',
  'UNION',
  'STRUCT',
]);

export class SchemaFieldView {
  readonly #reader: AspectReader;
  readonly #datasetUrn: string;
  readonly #field: JsonObject;
  readonly #edited: string | undefined;

  constructor(reader: AspectReader, datasetUrn: string, field: JsonObject, editedDescription: string | undefined) {
    this.#reader = reader;
    this.#datasetUrn = datasetUrn;
    this.#field = field;
    this.#edited = editedDescription;
  }

  get fieldPath(): string {
    return str(this.#field, 'fieldPath') ?? '';
  }

  get description(): string | null {
    return currentDescription(this.#edited, this.#field);
  }

  get jsonPath(): string | null {
    return str(this.#field, 'jsonPath');
  }

  get label(): string | null {
    return str(this.#field, 'label');
  }

  get nullable(): boolean {
    return bool(this.#field, 'nullable') ?? false;
  }

  /** `{type: {"com.linkedin.schema.StringType": {}}}` → `STRING`, as DataHub's SchemaFieldMapper does. */
  get type(): string {
    const union = obj(obj(this.#field, 'type'), 'type');
    const member = union === null ? undefined : Object.keys(union)[0];
    const simple = member
      ?.slice(member.lastIndexOf('.') + 1)
      .replace(/Type$/, '')
      .toUpperCase();
    if (simple === 'RECORD') return 'STRUCT';
    return simple !== undefined && FIELD_TYPES.has(simple) ? simple : 'NULL';
  }

  get nativeDataType(): string | null {
    return str(this.#field, 'nativeDataType');
  }

  get recursive(): boolean {
    return bool(this.#field, 'recursive') ?? false;
  }

  get isPartOfKey(): boolean | null {
    return bool(this.#field, 'isPartOfKey');
  }

  get isPartitioningKey(): boolean | null {
    return bool(this.#field, 'isPartitioningKey');
  }

  get jsonProps(): string | null {
    return str(this.#field, 'jsonProps');
  }

  tags() {
    return globalTagsView(this.#reader, obj(this.#field, 'globalTags'), this.#datasetUrn);
  }

  globalTags() {
    return this.tags();
  }

  /** The column's glossaryTerms as ingested in the schema; null without them. */
  glossaryTerms() {
    return glossaryTermsOf(this.#reader, obj(this.#field, 'glossaryTerms'), this.#datasetUrn);
  }
}
