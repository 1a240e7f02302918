// DataHub's key aspect of an entity (datasetKey, tagKey, ...), built from its URN: DataHub stores one for
// every entity, minihub stores none, so reads answer it as DataHub would. Pure; it never writes.

import type { JsonObject } from '../aspects/json.ts';
import { parseDatasetUrn, parseUrn } from '../urn.ts';

/** Each entity type's key aspect and the fields its one-part URN key fills, as DataHub's PDL names them. */
const SINGLE_PART_KEYS: Record<string, { aspect: string; field: string }> = {
  tag: { aspect: 'tagKey', field: 'name' },
  corpuser: { aspect: 'corpUserKey', field: 'username' },
  corpGroup: { aspect: 'corpGroupKey', field: 'name' },
  container: { aspect: 'containerKey', field: 'guid' },
  dataPlatform: { aspect: 'dataPlatformKey', field: 'platformName' },
  glossaryTerm: { aspect: 'glossaryTermKey', field: 'name' },
  glossaryNode: { aspect: 'glossaryNodeKey', field: 'name' },
  domain: { aspect: 'domainKey', field: 'id' },
  ownershipType: { aspect: 'ownershipTypeKey', field: 'id' },
  telemetry: { aspect: 'telemetryKey', field: 'name' },
  dataHubIngestionSource: { aspect: 'dataHubIngestionSourceKey', field: 'id' },
  dataHubExecutionRequest: { aspect: 'dataHubExecutionRequestKey', field: 'id' },
};

/** The name of an entity type's key aspect: DataHub's when minihub knows it, else `<entityType>Key`. */
export function keyAspectName(entityType: string): string {
  if (entityType === 'dataset') return 'datasetKey';
  return SINGLE_PART_KEYS[entityType]?.aspect ?? `${entityType}Key`;
}

/** The key aspect of `urn` (name and value), or null for an entity type whose key fields minihub does not know. */
export function keyAspectOf(urn: string): { aspect: string; value: JsonObject } | null {
  const parsed = parseUrn(urn);
  if (parsed.entityType === 'dataset') {
    const { platform, name, origin } = parseDatasetUrn(urn);
    return { aspect: 'datasetKey', value: { platform, name, origin } };
  }
  const key = SINGLE_PART_KEYS[parsed.entityType];
  const [id] = parsed.parts;
  if (key === undefined || parsed.parts.length !== 1 || id === undefined) return null;
  return { aspect: key.aspect, value: { [key.field]: id } };
}
