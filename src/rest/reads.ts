// DataHub's REST reads: GET /aspects/{urn}?aspect=NAME&version=0 (one aspect, keyed by its full record
// name) and GET /entitiesV2/{urn}[?aspects=List(a,b)] (an entity's aspects, each in DataHub's envelope).
// Key aspects, which minihub does not store, are built from the URN. Reads the catalogue; never writes.

import type { JsonObject, JsonValue } from '../aspects/json.ts';
import { secretKind } from '../datahub/secrets.ts';
import { MinihubError, shown } from '../errors.ts';
import type { Catalogue } from '../store/catalogue.ts';
import { checkedEntityType } from '../urn.ts';
import { keyAspectOf } from './key-aspects.ts';
import { recordNameOf } from './record-names.ts';
import { quotedParam, RestliError } from './restli.ts';

// minihub keeps no per-aspect audit stamp: an aspect's `created` names DataHub's unknown actor at time 0.
const UNKNOWN_CREATED = { time: 0, actor: 'urn:li:corpuser:UNKNOWN' };

/** GET /aspects/{urn}: `{"version": 0, "aspect": {"<record name>": value}}`, or a 404 when absent. */
export function getAspect(catalogue: Catalogue, urn: string, params: URLSearchParams): JsonObject {
  checkUrn(urn);
  const aspect = singleParam(params, 'aspect');
  if (aspect === null) throw new RestliError(400, 'the "aspect" parameter is missing; expected ?aspect=<aspect name>');
  const version = singleParam(params, 'version') ?? '0';
  if (!/^\d+$/.test(version)) throw new RestliError(400, `version ${quotedParam(version)} is not a whole number`);
  // The key aspect only of an entity that exists: the SDK's exists() asks for it and expects a 404 otherwise.
  if (secretKind(checkedEntityType(urn), aspect) !== null)
    throw new RestliError(403, `${shown(urn)} ${shown(aspect)} is secret: minihub never serves it over REST`);
  const value = aspectValue(catalogue, urn, aspect, catalogue.exists(urn));
  if (value === undefined) {
    throw new RestliError(404, `${shown(urn)} has no aspect ${quotedParam(aspect)}`);
  }
  if (Number(version) !== 0) {
    // DataHub numbers older versions from 1; minihub keeps only the latest, version 0.
    throw new RestliError(
      404,
      `${shown(urn)} ${shown(aspect)}: no version ${version}; minihub keeps only the latest, version 0`,
    );
  }
  const recordName = recordNameOf(aspect);
  if (recordName === undefined) {
    throw new RestliError(
      501,
      `${shown(urn)} has aspect ${quotedParam(aspect)}, but minihub does not know its record name; read it with GET /entitiesV2/{urn}`,
    );
  }
  return { version: 0, aspect: { [recordName]: value } };
}

/**
 * GET /entitiesV2/{urn}: `{urn, entityName, aspects: {name: {name, type, version, value, created}}}`, all the
 * stored aspects or those `?aspects=List(a,b)` names, and the key aspect (unless `alwaysIncludeKeyAspect=false`).
 * As DataHub answers, every URN has a result: one that does not exist answers its key aspect alone.
 */
export function getEntity(catalogue: Catalogue, urn: string, params: URLSearchParams): JsonObject {
  const entityName = checkUrn(urn);
  const wanted = aspectList(singleParam(params, 'aspects'));
  // DataHub's default; its clients may ask for `alwaysIncludeKeyAspect=false`.
  const withKey = singleParam(params, 'alwaysIncludeKeyAspect') !== 'false';
  const key = keyAspectOf(urn);
  const names = new Set(wanted ?? catalogue.aspectNames(urn));
  if (key !== null && withKey) names.add(key.aspect);
  // No prototype: an aspect named __proto__ is a key like any other.
  const aspects: JsonObject = Object.create(null) as JsonObject;
  for (const name of names) {
    if (secretKind(entityName, name) !== null) continue;
    const value = aspectValue(catalogue, urn, name, withKey);
    if (value === undefined) continue;
    aspects[name] = { name, type: 'VERSIONED', version: 0, value, created: UNKNOWN_CREATED };
  }
  return { urn, entityName, aspects };
}

/** The stored aspect, else (when `withKey`) the key aspect built from the URN, else undefined. */
function aspectValue(catalogue: Catalogue, urn: string, aspect: string, withKey: boolean): JsonValue | undefined {
  const stored = catalogue.aspect(urn, aspect);
  if (stored !== undefined || !withKey) return stored;
  const key = keyAspectOf(urn);
  return key !== null && key.aspect === aspect ? key.value : undefined;
}

function checkUrn(urn: string): string {
  try {
    return checkedEntityType(urn);
  } catch (error) {
    if (error instanceof MinihubError) throw new RestliError(400, error.message);
    throw error;
  }
}

/** `List(a,b)` (Rest.li 2.0's array syntax, as the SDK sends it) as names; null when the parameter is absent. */
function aspectList(param: string | null): string[] | null {
  if (param === null) return null;
  const match = /^List\((.*)\)$/.exec(param);
  if (match === null) {
    throw new RestliError(400, `aspects ${quotedParam(param)} is not a Rest.li list; expected aspects=List(a,b)`);
  }
  return (match[1] ?? '').split(',').filter((name) => name !== '');
}

function singleParam(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1)
    throw new RestliError(400, `the "${name}" parameter is given ${values.length} times; expected once`);
  return values[0] ?? null;
}
