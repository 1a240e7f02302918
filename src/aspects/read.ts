// Small typed readers over stored aspect JSON, for views, edits and privilege checks alike, so none
// casts or re-checks shapes by hand. They never throw on odd data: a field of the wrong type reads as absent.

import { isJsonObject, type JsonObject, type JsonValue } from './json.ts';
import type { AspectReader } from '../store/catalogue.ts';

export function aspectObject(reader: AspectReader, urn: string, name: string): JsonObject | null {
  const value = reader.aspect(urn, name);
  return isJsonObject(value) ? value : null;
}

export function str(object: JsonObject | null | undefined, key: string): string | null {
  const value = object?.[key];
  return typeof value === 'string' ? value : null;
}

export function num(object: JsonObject | null | undefined, key: string): number | null {
  const value = object?.[key];
  return typeof value === 'number' ? value : null;
}

export function bool(object: JsonObject | null | undefined, key: string): boolean | null {
  const value = object?.[key];
  return typeof value === 'boolean' ? value : null;
}

export function obj(object: JsonObject | null | undefined, key: string): JsonObject | null {
  const value = object?.[key];
  return isJsonObject(value) ? value : null;
}

export function objects(object: JsonObject | null | undefined, key: string): JsonObject[] {
  const value: JsonValue | undefined = object?.[key];
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

export function strings(object: JsonObject | null | undefined, key: string): string[] | null {
  const value = object?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null;
}

/** The last segment of a simple URN: `urn:li:tag:pii` → `pii`. */
export function urnId(urn: string): string {
  // Everything after the third colon, found without splitting: search answers ask it of every platform shown.
  let colon = -1;
  for (let i = 0; i < 3; i++) {
    colon = urn.indexOf(':', colon + 1);
    if (colon < 0) return '';
  }
  return urn.slice(colon + 1);
}
