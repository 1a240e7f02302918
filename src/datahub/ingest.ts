// Applies a DataHub file to the store as log records holding only the aspects that change (one per
// INGEST_BATCH_ASPECTS aspects), so ingesting the same file twice writes nothing the second time.
// A file is read twice, never whole: once to plan (ingest-plan.ts), once to write a batch at a time.

import { statSync } from 'node:fs';

import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import type { JsonValue } from '../aspects/json.ts';
import { aspectKey } from '../store/log-record.ts';
import type { Store } from '../store/store.ts';
import { MinihubError } from '../errors.ts';
import {
  parseDataHubFile,
  parseDataHubPieces,
  readRecord,
  type ParsedFile,
  type RejectedRecord,
} from './datahub-file.ts';
import { fileText } from './file-text.ts';
import { planIngest } from './ingest-plan.ts';
import { recordsOf, RESTART, type TextPieces } from './read-records.ts';

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
  if (typeof source === 'string')
    return ingestFile(store, source, () => fileText(source), actor, onProgress, unchangedSince(source));
  const { name, parsed } = parseSource(source);
  return ingestParsed(store, parsed, name, actor, onProgress);
}

/**
 * Ingests a file read twice in pieces: memory holds the plan (a key per aspect) and one batch, never
 * the file's values (but the last of an aspect upserted more than once), so a file of any size ingests
 * within a few megabytes beside the store. As parsing the whole file would: each aspect is written
 * where it first comes, with its last value. `unchanged` tells whether the file is as the plan read it;
 * asked before each batch, it stops an ingest of a file being rewritten before the batch is written.
 */
export async function ingestFile(
  store: Store,
  source: string,
  pieces: TextPieces,
  actor: string,
  onProgress?: (progress: IngestProgress) => void,
  unchanged: () => boolean = () => true,
): Promise<IngestReport> {
  const plan = planIngest(pieces, source);
  const writer = new BatchWriter(store, actor, plan.records, plan.distinct, onProgress);
  const changed = (why: string) =>
    new MinihubError(
      'BAD_REQUEST',
      `${source} changed while it was ingested (${why}); ${writer.written} aspects were written; ` +
        'ingest it again once it stays the same',
    );
  const write = async (changes: AspectChange[]) => {
    if (!unchanged()) throw changed('its size or modification time is not what it was at first');
    await writer.write(changes);
  };
  // Records read as an array before the text turned out to be JSON lines are not the file's records.
  let skipping = plan.restarted;
  let seen = 0;
  const batch: AspectChange[] = [];
  for (const item of recordsOf(pieces, source)) {
    if (item === RESTART) {
      skipping = false;
      continue;
    }
    const read = skipping ? [] : readRecord(item);
    if ('reason' in read) continue;
    for (const { urn, aspect, value } of read) {
      const first = plan.firstUpsert.get(urn)?.get(aspect);
      if (first === undefined) throw changed(`aspect ${seen + 1} was not there at first`);
      if (first !== seen++) continue;
      const later = plan.laterValue.size === 0 ? undefined : plan.laterValue.get(aspectKey(urn, aspect));
      batch.push({ urn, aspect, value: later === undefined ? value : later });
    }
    while (batch.length >= INGEST_BATCH_ASPECTS) await write(batch.splice(0, INGEST_BATCH_ASPECTS));
  }
  if (seen !== plan.aspects) throw changed(`${plan.aspects} aspects at first, ${seen} the second time it was read`);
  if (batch.length > 0) await write(batch);
  return report(source, plan.records, plan.entities, writer, plan.rejected);
}

/** Whether the file at `path` keeps the size and modification time it has now (a file that cannot be read has neither). */
function unchangedSince(path: string): () => boolean {
  const stamp = (): string => {
    try {
      const { size, mtimeMs } = statSync(path);
      return `${size} ${mtimeMs}`;
    } catch {
      return 'unreadable';
    }
  };
  const first = stamp();
  return () => stamp() === first;
}

/** The aspects of parsed files as changes, later ones winning, as ingesting them in order would leave them. */
export function parsedChanges(files: readonly ParsedFile[]): AspectChange[] {
  const latest = new Map<string, AspectChange>();
  for (const file of files) {
    for (const { urn, aspect, value } of file.aspects) latest.set(aspectKey(urn, aspect), { urn, aspect, value });
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
  // As text: a value the store still holds as its log line stays that way (building every value of a
  // large catalogue to compare it took the memory of a second copy).
  const current = reader.aspectJson(change.urn, change.aspect);
  if (change.value === null) return current === undefined;
  // A new aspect: nothing to compare, and a large value is not worth turning into text for it.
  if (current === undefined) return false;
  return current === JSON.stringify(change.value);
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
  const urns = new Set<string>();
  const entities: Record<string, number> = {};
  for (const { urn, entityType } of parsed.aspects) {
    if (urns.has(urn)) continue;
    urns.add(urn);
    entities[entityType] = (entities[entityType] ?? 0) + 1;
  }
  const all = parsedChanges([parsed]);
  const writer = new BatchWriter(store, actor, parsed.records, all.length, onProgress);
  for (let start = 0; start < all.length; start += INGEST_BATCH_ASPECTS)
    await writer.write(all.slice(start, start + INGEST_BATCH_ASPECTS));
  return report(source, parsed.records, entities, writer, parsed.rejected);
}

/** Commits an ingest's batches one after another, counting what each wrote and left as it was. */
class BatchWriter {
  written = 0;
  unchanged = 0;
  #done = 0;
  readonly #store: Store;
  readonly #actor: string;
  readonly #records: number;
  readonly #total: number;
  readonly #onProgress: ((progress: IngestProgress) => void) | undefined;

  constructor(
    store: Store,
    actor: string,
    records: number,
    total: number,
    onProgress?: (progress: IngestProgress) => void,
  ) {
    this.#store = store;
    this.#actor = actor;
    this.#records = records;
    this.#total = total;
    this.#onProgress = onProgress;
    onProgress?.({ records, aspectsDone: 0, aspectsTotal: total });
  }

  async write(batch: readonly AspectChange[]): Promise<void> {
    const changes = await this.#store.commit('ingest', this.#actor, (reader) =>
      batch.filter((change) => {
        const same = isUnchanged(reader, change);
        if (same) this.unchanged++;
        return !same;
      }),
    );
    this.written += changes.length;
    this.#done += batch.length;
    this.#onProgress?.({ records: this.#records, aspectsDone: this.#done, aspectsTotal: this.#total });
  }
}

function report(
  source: string,
  records: number,
  entities: Record<string, number>,
  { written, unchanged }: BatchWriter,
  rejected: RejectedRecord[],
): IngestReport {
  return { source, records, entities, written, unchanged, rejected };
}
