// What never leaves minihub when its catalogue is sent to another server (`minihub push`): secrets and
// what guards them. Pure: it filters export.ts's records and counts what it left out.

/**
 * Entity types whose every aspect is secret: minihub's access tokens (a hash keyed with this data
 * directory's signing key), DataHub's secrets (encrypted values for ingestion recipes) and invite tokens.
 * export.ts already leaves the access tokens out.
 */
const SECRET_ENTITY_TYPES: Readonly<Record<string, string>> = {
  dataHubAccessToken: 'access token',
  dataHubSecret: 'secret',
  inviteToken: 'invite token',
};

/** Aspects that are secret on whatever entity holds them: users' salted password hashes. */
const SECRET_ASPECTS: Readonly<Record<string, string>> = {
  corpUserCredentials: 'user password',
  dataHubAccessTokenInfo: 'access token',
  dataHubSecretValue: 'secret',
};

/** Counts, per kind ("user password", ...), what withoutSecrets() left out. */
export type LeftOut = Map<string, number>;

/** Whether the aspect `aspectName` of an entity of `entityType` must never leave: its kind, or null. */
export function secretKind(entityType: string, aspectName: string): string | null {
  return SECRET_ENTITY_TYPES[entityType] ?? SECRET_ASPECTS[aspectName] ?? null;
}

/** `records` without the secret ones, counting each left out in `leftOut` (entities of a secret type once each). */
export function* withoutSecrets<T extends { entityType: string; entityUrn: string; aspectName: string }>(
  records: Iterable<T>,
  leftOut: LeftOut,
): Generator<T> {
  let lastUrn: string | null = null;
  for (const record of records) {
    const kind = secretKind(record.entityType, record.aspectName);
    if (kind === null) {
      yield record;
      continue;
    }
    const entityWide = SECRET_ENTITY_TYPES[record.entityType] !== undefined;
    if (!entityWide || record.entityUrn !== lastUrn) leftOut.set(kind, (leftOut.get(kind) ?? 0) + 1);
    lastUrn = record.entityUrn;
  }
}
