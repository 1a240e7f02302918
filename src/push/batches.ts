// Turns the records a push sends into the bodies of DataHub's ingestProposalBatch requests: each proposal
// as DataHub's SDK serialises it (aspect.value a JSON string), at most N per body and bodies kept under a
// byte cap, built one at a time as they are asked for. Pure: no I/O.

import type { McpRecord } from '../datahub/export.ts';
import type { DeleteRecord } from './since.ts';

export type PushRecord = McpRecord | DeleteRecord;

/** Proposals per request, as `datahub ingest` sends them by default. */
export const DEFAULT_BATCH = 100;
/** Body bytes per request: under minihub's own default limit (1 MiB), with room for its headers' sake. */
export const MAX_BODY_BYTES = 1_000_000;

export interface Batch {
  /** The JSON body, `{"proposals": [...], "async": "false"}`. */
  body: string;
  /** Its proposals, and how many distinct entities first appear in it. */
  proposals: number;
  entities: number;
}

/** What every proposal of one push carries: when it was observed and a run id DataHub can roll back by. */
export interface RunMetadata {
  lastObserved: number;
  runId: string;
}

/** One record as the SDK's MetadataChangeProposalWrapper serialises it. */
export function proposalJson(record: PushRecord, run: RunMetadata): string {
  const { entityType, entityUrn, changeType, aspectName } = record;
  const systemMetadata = { lastObserved: run.lastObserved, runId: run.runId };
  if (record.changeType === 'DELETE') {
    return JSON.stringify({ entityType, entityUrn, changeType, aspectName, systemMetadata });
  }
  const aspect = { value: JSON.stringify(record.aspect.json), contentType: 'application/json' };
  return JSON.stringify({ entityType, entityUrn, changeType, aspectName, aspect, systemMetadata });
}

// async "false": DataHub answers once the proposals are written, so an acknowledged batch is a written one.
const HEAD = '{"proposals":[';
const TAIL = '],"async":"false"}';

/**
 * The request bodies for `records`, each of at most `size` proposals and `maxBytes` bytes (a proposal
 * larger than that goes alone, and the target decides). Entities are counted where first seen, assuming an
 * entity's records come together, as the catalogue gives them.
 */
export function* batches(
  records: Iterable<PushRecord>,
  run: RunMetadata,
  size = DEFAULT_BATCH,
  maxBytes = MAX_BODY_BYTES,
): Generator<Batch> {
  let parts: string[] = [];
  let bytes = HEAD.length + TAIL.length;
  let entities = 0;
  let lastUrn: string | null = null;
  for (const record of records) {
    const json = proposalJson(record, run);
    const length = Buffer.byteLength(json) + 1;
    if (parts.length > 0 && (parts.length >= size || bytes + length > maxBytes)) {
      yield { body: `${HEAD}${parts.join(',')}${TAIL}`, proposals: parts.length, entities };
      parts = [];
      bytes = HEAD.length + TAIL.length;
      entities = 0;
    }
    if (record.entityUrn !== lastUrn) entities++;
    lastUrn = record.entityUrn;
    parts.push(json);
    bytes += length;
  }
  if (parts.length > 0) yield { body: `${HEAD}${parts.join(',')}${TAIL}`, proposals: parts.length, entities };
}
