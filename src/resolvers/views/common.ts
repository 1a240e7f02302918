// Small views every entity view uses: audit stamps and custom properties, read from stored aspect JSON.
// Imports no other view, so any view may import it without an import circle.

import type { JsonObject } from '../../aspects/json.ts';
import { num, obj, str } from '../../aspects/read.ts';

export interface AuditStampView {
  time: number;
  actor: string | null;
}

export function auditStamp(stamp: JsonObject | null): AuditStampView {
  return { time: num(stamp, 'time') ?? 0, actor: str(stamp, 'actor') };
}

/** An optional stamp (e.g. a link's updateStamp): null when the aspect has none. */
export function optionalAuditStamp(stamp: JsonObject | null): AuditStampView | null {
  return stamp === null ? null : auditStamp(stamp);
}

export function customProperties(properties: JsonObject | null, urn: string) {
  const map = obj(properties, 'customProperties');
  if (map === null) return null;
  return Object.entries(map).map(([key, value]) => ({
    key,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    associatedUrn: urn,
  }));
}
