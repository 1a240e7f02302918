// Builders of the aspect changes behind the tag mutations: an entity's tags in its globalTags aspect, a
// column's in editableSchemaMetadata.editableSchemaFieldInfo[].globalTags, where DataHub keeps them.
// Pure functions of the current state and the input; they never write.

import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import type { JsonObject } from '../aspects/json.ts';
import { aspectObject, obj, objects } from '../aspects/read.ts';

/** Where tags go: an entity, or one column (fieldPath) of a dataset. */
export interface TagTarget {
  urn: string;
  fieldPath: string | null;
}

export type TagEditMode = 'add' | 'remove';

/**
 * The tag edits of one mutation. Several targets may share an aspect (two columns of one dataset), so
 * each edit starts from the value the previous ones left, and each aspect lands as one change.
 */
export class TagEdits {
  readonly #reader: AspectReader;
  readonly #pending = new Map<string, AspectChange & { value: JsonObject }>();

  constructor(reader: AspectReader) {
    this.#reader = reader;
  }

  /** Adds (or removes) `tagUrns` on `target`; an edit that changes nothing records nothing. */
  apply(target: TagTarget, tagUrns: readonly string[], mode: TagEditMode): void {
    const { urn, fieldPath } = target;
    if (fieldPath === null) {
      const globalTags = this.#current(urn, 'globalTags');
      const tags = edited(objects(globalTags, 'tags'), tagUrns, mode);
      if (tags !== null) this.#set(urn, 'globalTags', { ...globalTags, tags });
      return;
    }
    const editable = this.#current(urn, 'editableSchemaMetadata');
    const infos = objects(editable, 'editableSchemaFieldInfo');
    const index = infos.findIndex((info) => info.fieldPath === fieldPath);
    const info: JsonObject = index === -1 ? { fieldPath } : (infos[index] as JsonObject);
    const globalTags = obj(info, 'globalTags');
    const tags = edited(objects(globalTags, 'tags'), tagUrns, mode);
    if (tags === null) return;
    const updated: JsonObject = { ...info, globalTags: { ...globalTags, tags } };
    const list = index === -1 ? [...infos, updated] : infos.with(index, updated);
    this.#set(urn, 'editableSchemaMetadata', { ...editable, editableSchemaFieldInfo: list });
  }

  /** One change per aspect that the edits changed; none when nothing changed. */
  changes(): AspectChange[] {
    return [...this.#pending.values()];
  }

  #current(urn: string, aspect: string): JsonObject | null {
    return this.#pending.get(key(urn, aspect))?.value ?? aspectObject(this.#reader, urn, aspect);
  }

  #set(urn: string, aspect: string, value: JsonObject): void {
    this.#pending.set(key(urn, aspect), { urn, aspect, value });
  }
}

function key(urn: string, aspect: string): string {
  return JSON.stringify([urn, aspect]);
}

/** The tag associations after the edit, or null when it changes nothing (a tag already there, or absent). */
function edited(associations: JsonObject[], tagUrns: readonly string[], mode: TagEditMode): JsonObject[] | null {
  const present = new Set(associations.map((association) => association.tag));
  if (mode === 'add') {
    const added = tagUrns.filter((tag) => !present.has(tag));
    return added.length === 0 ? null : [...associations, ...added.map((tag): JsonObject => ({ tag }))];
  }
  const dropped = new Set<unknown>(tagUrns);
  const kept = associations.filter((association) => !dropped.has(association.tag));
  return kept.length === associations.length ? null : kept;
}
