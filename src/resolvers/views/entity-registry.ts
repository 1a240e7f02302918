// Which view answers an entity of each type, by URN. Views that must hand out views of other types
// (a container's contents, a foreign key's dataset) ask here, so no two view files import each other.

import type { AspectReader } from '../../store/catalogue.ts';

/** What a listing needs of any entity view: graphql-js resolves the Entity interface by __typename. */
export interface EntityView {
  readonly urn: string;
  readonly __typename: string;
}

export interface EntityKind {
  /** The view of one entity of this type; null when its URN is malformed. */
  view(reader: AspectReader, urn: string): EntityView | null;
  /** The display name a listing's query is matched against, read without building a view. */
  name(reader: AspectReader, urn: string): string;
}

const kinds = new Map<string, EntityKind>();

/** Called once by each view module for the URN entity type (`dataset`, `container`...) it answers. */
export function registerEntityView(entityType: string, kind: EntityKind): void {
  kinds.set(entityType, kind);
}

/** The URN's entity type: `urn:li:dataset:(...)` → `dataset` (no array built: listings ask this per child). */
export function entityTypeOf(urn: string): string {
  const start = urn.indexOf(':', urn.indexOf(':') + 1) + 1;
  const end = urn.indexOf(':', start);
  return start === 0 || end < 0 ? '' : urn.slice(start, end);
}

/** The kind answering this URN's entity type, if any. */
export function entityKindOf(urn: string): EntityKind | undefined {
  return kinds.get(entityTypeOf(urn));
}

/** The view of the entity `urn` names, or null when no view answers its type or the URN is malformed. */
export function entityView(reader: AspectReader, urn: string): EntityView | null {
  return entityKindOf(urn)?.view(reader, urn) ?? null;
}
