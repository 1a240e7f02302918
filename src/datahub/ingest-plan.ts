// The first of a file ingest's two readings: what the file holds (records, rejections, entities), where
// each aspect is first upserted, and the last value of an aspect upserted more than once. Values of
// aspects upserted once are not kept. Pure over the text; it writes nothing.

import type { JsonValue } from '../aspects/json.ts';
import { aspectKey } from '../store/log-record.ts';
import { readRecord, type IngestedAspect, type RejectedRecord } from './datahub-file.ts';
import { recordsOf, RESTART, type TextPieces } from './read-records.ts';

export interface IngestPlan {
  records: number;
  rejected: RejectedRecord[];
  /** Distinct entities per entity type, in the order the types first come. */
  entities: Record<string, number>;
  /**
   * For each entity, for each of its aspects, the number of its first upsert among all the file's aspects
   * in order. By entity, then aspect: each URN is kept once (a key joining the two took twice the memory).
   */
  firstUpsert: Map<string, Map<string, number>>;
  /** Distinct aspects: what the second reading writes, unless unchanged. */
  distinct: number;
  /** The last value of each aspect upserted more than once (by aspectKey): written where the aspect first comes. */
  laterValue: Map<string, JsonValue>;
  /** Aspects in the file, repeats included. */
  aspects: number;
  /** Whether the text was first read as a JSON array and then again as JSON lines (read-records.ts). */
  restarted: boolean;
}

/** Reads the whole text once; throws BAD_REQUEST when it is not a DataHub file at all. */
export function planIngest(pieces: TextPieces, source: string): IngestPlan {
  const fresh = (restarted: boolean): IngestPlan => ({
    records: 0,
    rejected: [],
    entities: {},
    firstUpsert: new Map(),
    distinct: 0,
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
      let aspects = plan.firstUpsert.get(urn);
      if (aspects === undefined) {
        plan.firstUpsert.set(urn, (aspects = new Map()));
        plan.entities[entityType] = (plan.entities[entityType] ?? 0) + 1;
      }
      if (aspects.has(aspect)) {
        built ??= readRecord(item) as IngestedAspect[];
        plan.laterValue.set(aspectKey(urn, aspect), (built[index] as IngestedAspect).value);
      } else {
        aspects.set(aspect, plan.aspects);
        plan.distinct++;
      }
      plan.aspects++;
    });
  }
  return plan;
}
