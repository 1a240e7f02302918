// Builders of the aspect changes behind the edit mutations: links and column descriptions.
// Pure functions of the current state and the input; they throw DataHub's errors and never write.

import { badRequest, shown } from '../errors.ts';
import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import { ColumnEditChange } from '../store/column-edit.ts';
import { hasEntry } from '../store/field-positions.ts';
import { COLUMN_EDIT_ASPECT } from '../store/log-record.ts';
import type { JsonObject } from '../aspects/json.ts';
import { aspectObject, objects } from '../aspects/read.ts';
import { parseUrn } from '../urn.ts';

export interface NewLink {
  url: string;
  description: string;
  author: string;
  time: number;
}

/** Adds each link to the entity's institutionalMemory; a link whose url is already there is updated. */
export function upsertLinks(reader: AspectReader, urn: string, links: readonly NewLink[]): AspectChange {
  const elements = storedLinks(reader, urn);
  // url → index, so a request with thousands of links costs thousands of steps, not millions.
  const indexes = new Map<unknown, number>();
  elements.forEach((element, index) => {
    if (!indexes.has(element.url)) indexes.set(element.url, index);
  });
  for (const link of links) {
    checkLink(link);
    const element: JsonObject = {
      url: link.url,
      description: link.description,
      createStamp: { time: link.time, actor: link.author },
    };
    const index = indexes.get(link.url);
    if (index === undefined) indexes.set(link.url, elements.push(element) - 1);
    else elements[index] = element;
  }
  return { urn, aspect: 'institutionalMemory', value: { elements } };
}

/** Removes the link with `url`; nothing to write when there is none. */
export function removeLinkChange(reader: AspectReader, urn: string, url: string): AspectChange[] {
  const elements = storedLinks(reader, urn);
  const kept = elements.filter((element) => element.url !== url);
  return kept.length === elements.length ? [] : [{ urn, aspect: 'institutionalMemory', value: { elements: kept } }];
}

/** A link as DataHub's updateLink names it: its URL and its label (stored as the element's description). */
export interface LinkRef {
  url: string;
  label: string;
}

/**
 * Replaces the link with `current`'s URL and label by `next`, keeping its place and createStamp and
 * stamping the update, as DataHub does; DataHub's 400s for a link that is not there and for a result
 * that would repeat another link's URL and label.
 */
export function updateLinkChange(reader: AspectReader, urn: string, current: LinkRef, next: NewLink): AspectChange {
  const elements = storedLinks(reader, urn);
  const matches = (element: JsonObject, { url, label }: LinkRef) =>
    element.url === url && element.description === label;
  const index = elements.findIndex((element) => matches(element, current));
  if (index === -1) {
    throw badRequest(
      `Failed to update the link '${shown(current.url)}' with label '${shown(current.label)}'. The link does not exist`,
    );
  }
  checkLink(next);
  const wanted = { url: next.url, label: next.description };
  if (elements.some((element, other) => other !== index && matches(element, wanted))) {
    throw badRequest(`The link '${shown(next.url)}' with label '${shown(next.description)}' already exists`);
  }
  const updated: JsonObject = {
    ...(elements[index] as JsonObject),
    url: next.url,
    description: next.description,
    updateStamp: { time: next.time, actor: next.author },
  };
  return { urn, aspect: 'institutionalMemory', value: { elements: elements.with(index, updated) } };
}

/**
 * Sets the edited description of one column in editableSchemaMetadata, keeping every other entry and
 * the entry's tags. The column must exist in the ingested schema, matched by exact fieldPath; a null
 * fieldPath (no subResource given) names no column. The log keeps only the edit (see column-edit.ts).
 */
export function editFieldDescription(
  reader: AspectReader,
  urn: string,
  fieldPath: string | null,
  description: string,
): AspectChange {
  requireExisting(reader, urn);
  requireField(reader, urn, fieldPath);
  return new ColumnEditChange(urn, { fieldPath, description }, reader.aspect(urn, COLUMN_EDIT_ASPECT));
}

/**
 * DataHub's refusal of a column edit whose column is not in the dataset's ingested schema, matched by
 * exact fieldPath; a null fieldPath (no subResource given) names no column.
 */
export function requireField(reader: AspectReader, urn: string, fieldPath: string | null): asserts fieldPath is string {
  // DataHub formats a missing subResource into its messages as "null" (Java's String.format); so do these.
  const field = fieldPath === null ? 'null' : shown(fieldPath);
  const schema = aspectObject(reader, urn, 'schemaMetadata');
  if (schema === null) throw badRequest(`Failed to update ${urn} & field ${field}. ${urn} has no schema.`);
  if (fieldPath === null || !hasField(schema, fieldPath)) {
    throw badRequest(`Failed to update ${urn} & field ${field}. Field ${field} does not exist in the datasets schema.`);
  }
}

/** Whether the schema's fields hold an object whose fieldPath is `fieldPath` (found by its remembered place). */
function hasField(schema: JsonObject, fieldPath: string): boolean {
  return Array.isArray(schema.fields) && hasEntry(schema.fields, fieldPath);
}

/** DataHub's refusal of an edit to an entity that does not exist. */
export function requireExisting(reader: AspectReader, urn: string): void {
  if (!reader.exists(urn)) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
}

function storedLinks(reader: AspectReader, urn: string): JsonObject[] {
  return objects(aspectObject(reader, urn, 'institutionalMemory'), 'elements');
}

function checkLink(link: NewLink): void {
  if (!URL.canParse(link.url))
    throw badRequest(`link url "${shown(link.url)}" is not an absolute URL; expected e.g. https://example.com/page`);
  const author = parseUrn(link.author);
  if (author.entityType !== 'corpuser' && author.entityType !== 'corpGroup') {
    throw badRequest(`link author "${shown(link.author)}" is not a user or group urn; expected urn:li:corpuser:<name>`);
  }
}
