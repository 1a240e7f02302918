// The rule every map of entities to their aspects follows (the catalogue, a LogIndex of places in the
// log): removing an entity's last aspect removes the entity, so a later change re-creates it last. Pure.

/**
 * Sets `aspect` of `urn` to `value`, or removes it when `value` is null; returns the entity's aspects
 * after a set, undefined after a removal.
 */
export function putAspect<V>(
  entities: Map<string, Map<string, V>>,
  urn: string,
  aspect: string,
  value: V | null,
): Map<string, V> | undefined {
  let aspects = entities.get(urn);
  if (value === null) {
    aspects?.delete(aspect);
    if (aspects?.size === 0) entities.delete(urn);
    return undefined;
  }
  if (aspects === undefined) {
    aspects = new Map();
    entities.set(urn, aspects);
  }
  aspects.set(aspect, value);
  return aspects;
}

/** The URNs of `urns` whose entity type (the third URN segment) is `entityType`, in their order. */
export function* urnsOfType(urns: Iterable<string>, entityType: string): Iterable<string> {
  const prefix = `urn:li:${entityType}:`;
  for (const urn of urns) if (urn.startsWith(prefix)) yield urn;
}
