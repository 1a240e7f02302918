// Which view answers an entity of each type, by URN. Views that must hand out views of other types
// (a container's contents, a foreign key's dataset) ask here, so no two view files import each other.

import type { AspectReader } from '../../store/catalogue.ts';

/** What a listing needs of any entity view: graphql-js resolves the Entity interface by __typename. */
export interface EntityView {
  readonly urn: string;
  readonly __typename: string;
  /** The name a listing's query is matched against: the display name. */
  searchName(): string;
}

type Factory = (reader: AspectReader, urn: string) => EntityView | null;

const factories = new Map<string, Factory>();

/** Called once by each view module for the URN entity type (`dataset`, `container`...) it answers. */
export function registerEntityView(entityType: string, factory: Factory): void {
  factories.set(entityType, factory);
}

/** The URN's entity type: `urn:li:dataset:(...)` → `dataset`. */
export function entityTypeOf(urn: string): string {
  return urn.split(':', 3)[2] ?? '';
}

/** Whether some view answers entities of this URN's type. */
export function hasEntityView(urn: string): boolean {
  return factories.has(entityTypeOf(urn));
}

/** The view of the entity `urn` names, or null when no view answers its type or the URN is malformed. */
export function entityView(reader: AspectReader, urn: string): EntityView | null {
  return factories.get(entityTypeOf(urn))?.(reader, urn) ?? null;
}
