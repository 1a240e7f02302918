// Applies a DataHub file to the store as log records holding only the aspects that change (one per
// INGEST_BATCH_ASPECTS aspects), so ingesting the same file twice writes nothing the second time.

import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import type { JsonValue } from '../aspects/json.ts';
import type { Store } from '../store/store.ts';
import { parseDataHubFile, parseDataHubPieces, type ParsedFile, type RejectedRecord } from './datahub-file.ts';
import { fileText } from './file-text.ts';

/**
 * What ingesting one source did: RunningServer.seeded holds one per seed.
 * @example
 * const hub = await startServer({ seed: ['data/sample-catalogue.json'] });
 * const [report] = hub.seeded; // { source, records: 31, entities: { dataset: 5, … }, written: 39, unchanged: 0, rejected: [] }
 */
export interface IngestReport {
  source: string;
  records: number;
  /** Distinct entities in the file, per entity type. */
  entities: Record<string, number>;
  written: number;
  unchanged: number;
  rejected: RejectedRecord[];
}

/**
 * A seed or ingest source: a file path, or DataHub records already in memory (an array or one object).
 * @example
 * const seed: IngestSource[] = [
 *   'data/sample-catalogue.json',
 *   [{ entityType: 'tag', entityUrn: 'urn:li:tag:pii', changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { json: { name: 'pii' } } }],
 * ];
 */
export type IngestSource = string | JsonValue;

/** How far an ingest has got, reported after parsing and after each batch of aspects is committed. */
export interface IngestProgress {
  /** Records in the source, all parsed by the first report. */
  records: number;
  aspectsDone: number;
  aspectsTotal: number;
}

export async function ingest(
  store: Store,
  source: IngestSource,
  actor: string,
  onProgress?: (progress: IngestProgress) => void,
): Promise<IngestReport> {
  const { name, parsed } = parseSource(source);
  return ingestParsed(store, parsed, name, actor, onProgress);
}

/** The aspects of parsed files as changes, later ones winning, as ingesting them in order would leave them. */
export function parsedChanges(files: readonly ParsedFile[]): AspectChange[] {
  const latest = new Map<string, AspectChange>();
  for (const file of files) {
    for (const { urn, aspect, value } of file.aspects) latest.set(`${urn}\u0000${aspect}`, { urn, aspect, value });
  }
  return [...latest.values()];
}

/**
 * Reads (a path, in pieces: a file may exceed V8's string cap) and parses a source, naming it for
 * reports; ingestParsed() then applies it.
 */
export function parseSource(source: IngestSource): { name: string; parsed: ParsedFile } {
  if (typeof source === 'string') return { name: source, parsed: parseDataHubPieces(() => fileText(source), source) };
  return { name: '(records)', parsed: parseDataHubFile(JSON.stringify(source), '(records)') };
}

/**
 * Whether `change` would leave the aspect as it is (the same JSON, or a removal of an aspect that is not
 * there): such a change is never written, so ingesting the same records twice writes nothing the second time.
 */
export function isUnchanged(reader: AspectReader, change: AspectChange): boolean {
  const current = reader.aspect(change.urn, change.aspect);
  if (change.value === null) return current === undefined;
  return JSON.stringify(current) === JSON.stringify(change.value);
}

/** Aspects per log record: bounded, so a large file is many moderate lines rather than one huge one. */
export const INGEST_BATCH_ASPECTS = 2000;

export async function ingestParsed(
  store: Store,
  parsed: ParsedFile,
  source: string,
  actor: string,
  onProgress?: (progress: IngestProgress) => void,
): Promise<IngestReport> {
  const entities: Record<string, Set<string>> = {};
  for (const { urn, entityType } of parsed.aspects) (entities[entityType] ??= new Set()).add(urn);
  const all = parsedChanges([parsed]);
  let unchanged = 0;
  let written = 0;
  onProgress?.({ records: parsed.records, aspectsDone: 0, aspectsTotal: all.length });
  for (let start = 0; start < all.length; start += INGEST_BATCH_ASPECTS) {
    const batch = all.slice(start, start + INGEST_BATCH_ASPECTS);
    const changes = await store.commit('ingest', actor, (reader) =>
      batch.filter((change) => {
        const same = isUnchanged(reader, change);
        if (same) unchanged++;
        return !same;
      }),
    );
    written += changes.length;
    onProgress?.({
      records: parsed.records,
      aspectsDone: Math.min(start + INGEST_BATCH_ASPECTS, all.length),
      aspectsTotal: all.length,
    });
  }
  return {
    source,
    records: parsed.records,
    entities: Object.fromEntries(Object.entries(entities).map(([type, urns]) => [type, urns.size])),
    written,
    unchanged,
    rejected: parsed.rejected,
  };
}
