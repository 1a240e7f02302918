// `minihub push --since TIME`: the time, and which aspects the log says changed at or after it. Reads
// the log file (the caller holds the store open, so nothing writes it meanwhile); never writes.

import { MinihubError } from '../errors.ts';
import type { McpRecord } from '../datahub/export.ts';
import type { Catalogue } from '../store/catalogue.ts';
import { readRecords } from '../store/log-lines.ts';
import type { LogFileSystem } from '../store/log-fs.ts';
import { parseUrn } from '../urn.ts';
import { keyAspectName } from '../rest/key-aspects.ts';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `2026-01-31`, `2026-01-31T12:00:00Z` (ISO 8601), or `90s`, `15m`, `1h`, `30d` ago → epoch milliseconds. */
export function parseSince(text: string, now: number): number {
  const ago = /^(\d+)([smhd])$/.exec(text);
  if (ago !== null) return now - Number(ago[1]) * (UNIT_MS[ago[2] as string] as number);
  const time = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) {
    throw new MinihubError(
      'USAGE',
      `--since ${text} is not a time; expected an ISO date or time (2026-01-31, 2026-01-31T12:00:00Z) or how long ago (90s, 15m, 1h, 30d)`,
    );
  }
  return time;
}

/** An aspect to remove on the target, for one removed here since the time. */
export interface DeleteRecord {
  entityType: string;
  entityUrn: string;
  changeType: 'DELETE';
  aspectName: string;
}

/**
 * The aspects whose log records are at or after `since`, in the order first changed: those still present as
 * UPSERTs of their current value, those removed as DELETEs (an entity removed whole: one DELETE of its key
 * aspect, which removes the entity on the target). A compaction rewrites every aspect with its own time, so
 * aspects compacted after `since` are sent too; but removals before such a compaction are gone from the
 * log, so `compactedAt` says when it ran (the caller warns that those removals are not sent).
 */
export async function changedSince(
  fs: LogFileSystem,
  logPath: string,
  catalogue: Pick<Catalogue, 'aspect' | 'exists'>,
  since: number,
): Promise<{ records: (McpRecord | DeleteRecord)[]; compactedAt: number | null }> {
  const changed = new Map<string, Set<string>>();
  let compactedAt: number | null = null;
  await readRecords(fs.readChunks(logPath), (record) => {
    if (record.time < since) return;
    // A compaction keeps what is present only: what was removed between `since` and it is no longer known.
    if (record.op === 'compact') compactedAt ??= record.time;
    for (const { urn, aspect } of record.changes) {
      let aspects = changed.get(urn);
      if (aspects === undefined) changed.set(urn, (aspects = new Set()));
      aspects.add(aspect);
    }
  });
  const records: (McpRecord | DeleteRecord)[] = [];
  for (const [urn, aspects] of changed) {
    const { entityType } = parseUrn(urn);
    if (!catalogue.exists(urn)) {
      records.push({ entityType, entityUrn: urn, changeType: 'DELETE', aspectName: keyAspectName(entityType) });
      continue;
    }
    for (const aspectName of aspects) {
      const value = catalogue.aspect(urn, aspectName);
      records.push(
        value === undefined
          ? { entityType, entityUrn: urn, changeType: 'DELETE', aspectName }
          : { entityType, entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { json: value } },
      );
    }
  }
  return { records, compactedAt };
}
