// The first of a file ingest's two readings: what the file holds (records, rejections, entities), where
// each aspect is first upserted, and the last value of an aspect upserted more than once. Values of
// aspects upserted once are not kept. Pure over the text; it writes nothing.

import type { JsonValue } from '../aspects/json.ts';
import { readRecord, type IngestedAspect, type RejectedRecord } from './datahub-file.ts';
import { recordsOf, RESTART, type TextPieces } from './read-records.ts';

export interface IngestPlan {
  records: number;
  rejected: RejectedRecord[];
  /** Distinct entities per entity type. */
  entities: Map<string, Set<string>>;
  /** For each aspect (aspectKey), the number of its first upsert among all the file's aspects in order. */
  firstUpsert: Map<string, number>;
  /** The last value of each aspect upserted more than once: it is written where the aspect first comes. */
  laterValue: Map<string, JsonValue>;
  /** Aspects in the file, repeats included. */
  aspects: number;
  /** Whether the text was first read as a JSON array and then again as JSON lines (read-records.ts). */
  restarted: boolean;
}

/** The key of one entity's aspect; a NUL cannot occur in a URN. */
export function aspectKey(urn: string, aspect: string): string {
  return `${urn}\u0000${aspect}`;
}

/** Reads the whole text once; throws BAD_REQUEST when it is not a DataHub file at all. */
export function planIngest(pieces: TextPieces, source: string): IngestPlan {
  const fresh = (restarted: boolean): IngestPlan => ({
    records: 0,
    rejected: [],
    entities: new Map(),
    firstUpsert: new Map(),
    laterValue: new Map(),
    aspects: 0,
    restarted,
  });
  let plan = fresh(false);
  for (const item of recordsOf(pieces, source)) {
    if (item === RESTART) {
      plan = fresh(true);
      continue;
    }
    plan.records++;
    // Values are built (Avro unwrapped, names shortened) only for a record repeating an aspect.
    const read = readRecord(item, false);
    if ('reason' in read) {
      plan.rejected.push(read);
      continue;
    }
    let built: IngestedAspect[] | null = null;
    read.forEach(({ urn, entityType, aspect }, index) => {
      let urns = plan.entities.get(entityType);
      if (urns === undefined) plan.entities.set(entityType, (urns = new Set()));
      urns.add(urn);
      const key = aspectKey(urn, aspect);
      if (plan.firstUpsert.has(key)) {
        built ??= readRecord(item) as IngestedAspect[];
        plan.laterValue.set(key, (built[index] as IngestedAspect).value);
      } else plan.firstUpsert.set(key, plan.aspects);
      plan.aspects++;
    });
  }
  return plan;
}
