// Turns the catalogue into DataHub MetadataChangeProposals, one per aspect, as DataHub's `file` sink
// writes them, so DataHub's `file` source can load them. No file I/O: the file's bytes go to a sink
// the caller owns (the CLI's file or stdout), chunk by chunk.

import { parseUrn } from '../urn.ts';
import { ChunkedWriter, MAX_CHUNK_BYTES, type ChunkSink } from '../store/chunked-writer.ts';
import type { Catalogue } from '../store/catalogue.ts';
import type { JsonValue } from '../aspects/json.ts';

/**
 * One MetadataChangeProposal in the `{"json": …}` form DataHub's file sink writes (and its file source reads).
 * @example
 * const records: McpRecord[] = hub.store.export();
 * // [{ entityType: 'dataset', entityUrn: 'urn:li:dataset:(…)', changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { json: { … } } }, …]
 */
export interface McpRecord {
  entityType: string;
  entityUrn: string;
  changeType: 'UPSERT';
  aspectName: string;
  aspect: { json: JsonValue };
}

// minihub's personal access tokens must never leave the machine. Their records hold a hash keyed with
// this data directory's signing key: useless to a DataHub, which signs with its own key, and material
// for guessing a token offline for anyone who also gets the key. DataHub would also list them as tokens
// it can never accept. The aspect name is checked too, in case one ever sits on another entity.
const TOKEN_ENTITY_TYPE = 'dataHubAccessToken';
const TOKEN_ASPECT = 'dataHubAccessTokenInfo';

/**
 * Every aspect of every entity as an UPSERT proposal, in the catalogue's order (entities as first
 * written, then their aspects as first written), so ingesting the result rebuilds the same catalogue
 * in the same order. Values are copies in Pegasus JSON, the form the store holds and MCPs carry.
 * Access tokens are left out. Users' `roleMembership` is kept: DataHub has that aspect too.
 */
export function exportCatalogue(catalogue: Pick<Catalogue, 'entities'>): McpRecord[] {
  return [...exportedRecords(catalogue)].map((record) => ({
    ...record,
    aspect: { json: structuredClone(record.aspect.json) },
  }));
}

/**
 * The records of exportCatalogue() one at a time, as they are asked for, holding the catalogue's own
 * values (not copies: only for serialising). The catalogue must not change until the last is taken.
 */
export function* exportedRecords(catalogue: Pick<Catalogue, 'entities'>): Generator<McpRecord> {
  for (const [urn, aspects] of catalogue.entities()) yield* entityRecords(urn, aspects);
}

/** exportedRecords() of entities read as they are asked for (a log read from disk, see LogIndex). */
export async function* exportedRecordsOf(
  entities: AsyncIterable<[string, ReadonlyMap<string, JsonValue>]>,
): AsyncGenerator<McpRecord> {
  for await (const [urn, aspects] of entities) yield* entityRecords(urn, aspects);
}

function* entityRecords(urn: string, aspects: ReadonlyMap<string, JsonValue>): Generator<McpRecord> {
  // The same parse ingestion checks `entityType` against, so the two always agree.
  const { entityType } = parseUrn(urn);
  if (entityType === TOKEN_ENTITY_TYPE) return;
  for (const [aspectName, value] of aspects) {
    if (aspectName === TOKEN_ASPECT) continue;
    yield { entityType, entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { json: value } };
  }
}

/** The text of a DataHub file: a JSON array, each record indented by 4 as DataHub's file sink writes it. */
export function mcpFileText(records: readonly McpRecord[]): string {
  if (records.length === 0) return '[]\n';
  return `[\n${records.map((record) => JSON.stringify(record, null, 4)).join(',\n')}\n]\n`;
}

/**
 * Writes the bytes of mcpFileText(records) to `sink` record by record, in chunks of at most
 * `maxChunkBytes` (one record larger than that goes alone), so the file is never one string.
 * Returns how many records were written.
 */
export async function writeMcpFile(
  records: Iterable<McpRecord> | AsyncIterable<McpRecord>,
  sink: ChunkSink,
  maxChunkBytes?: number,
): Promise<number> {
  const writer = new ChunkedWriter(sink, maxChunkBytes);
  let count = 0;
  for await (const record of records) {
    await writer.add(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(record, null, 4)}`);
    count++;
  }
  await writer.add(count === 0 ? '[]\n' : '\n]\n');
  await writer.flush();
  return count;
}

/**
 * The bytes of mcpFileText(records) as Buffers of about `maxChunkBytes`, built one at a time as they are
 * asked for: for a reader that pulls (an HTTP answer streamed with backpressure) where writeMcpFile pushes.
 */
export function* mcpFileChunks(records: Iterable<McpRecord>, maxChunkBytes = MAX_CHUNK_BYTES): Generator<Buffer> {
  let parts: string[] = [];
  let bytes = 0;
  let count = 0;
  for (const record of records) {
    const text = `${count === 0 ? '[\n' : ',\n'}${JSON.stringify(record, null, 4)}`;
    count++;
    parts.push(text);
    bytes += text.length;
    if (bytes >= maxChunkBytes) {
      yield Buffer.from(parts.join(''));
      parts = [];
      bytes = 0;
    }
  }
  parts.push(count === 0 ? '[]\n' : '\n]\n');
  yield Buffer.from(parts.join(''));
}
