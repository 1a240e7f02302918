// What deleteTag removes besides the tag itself: every association with it, on entities (globalTags),
// on edited columns (editableSchemaMetadata) and on ingested columns (schemaMetadata), as DataHub's
// reference cleanup after a hard delete does. A pure builder of changes; it never writes.

import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../aspects/json.ts';

/** The aspects that may hold a tag association, and the key of their per-column list (null: the aspect is a GlobalTags). */
const CARRIERS: Record<string, string | null> = {
  globalTags: null,
  editableSchemaMetadata: 'editableSchemaFieldInfo',
  schemaMetadata: 'fields',
};

/**
 * The changes that drop `tagUrn` from every aspect of `candidates` that carries it. The candidates are
 * every entity of the catalogue: one pass over it per deleteTag, acceptable for a rare admin mutation
 * (DataHub asks its graph index instead, which minihub does not keep).
 */
export function tagReferenceRemovals(
  reader: AspectReader,
  candidates: Iterable<[urn: string, aspects: Iterable<string>]>,
  tagUrn: string,
): AspectChange[] {
  const changes: AspectChange[] = [];
  for (const [urn, aspects] of candidates) {
    for (const aspect of aspects) {
      if (!Object.hasOwn(CARRIERS, aspect)) continue;
      const value = reader.aspect(urn, aspect);
      if (!isJsonObject(value)) continue;
      const listKey = CARRIERS[aspect] as string | null;
      const updated = listKey === null ? withoutTag(value, tagUrn) : withoutTagInList(value, listKey, tagUrn);
      if (updated !== null) changes.push({ urn, aspect, value: updated });
    }
  }
  return changes;
}

/** A GlobalTags-shaped object without `tagUrn`, or null when it had no such association. */
function withoutTag(globalTags: JsonObject, tagUrn: string): JsonObject | null {
  const tags = globalTags.tags;
  if (!Array.isArray(tags)) return null;
  const kept = tags.filter((association) => !(isJsonObject(association) && association.tag === tagUrn));
  return kept.length === tags.length ? null : { ...globalTags, tags: kept };
}

/** The aspect with `tagUrn` dropped from each entry's globalTags in its list `key`; null when none had it. */
function withoutTagInList(aspect: JsonObject, key: string, tagUrn: string): JsonObject | null {
  const entries = aspect[key];
  if (!Array.isArray(entries)) return null;
  let changed = false;
  const updated = entries.map((entry): JsonValue => {
    if (!isJsonObject(entry) || !isJsonObject(entry.globalTags)) return entry;
    const globalTags = withoutTag(entry.globalTags, tagUrn);
    if (globalTags === null) return entry;
    changed = true;
    return { ...entry, globalTags };
  });
  return changed ? { ...aspect, [key]: updated } : null;
}
