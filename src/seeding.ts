// Seeds an empty catalogue at start, with a marker file in the data directory from before the first
// seed write until the last is durable: a start that dies mid-seed leaves it, and the next start with
// the same seeds completes the seed (ingest is idempotent), while one with other seeds or none refuses.
// The marker is a file beside the log, never a log record, so export and compaction never see it.

import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError, shown } from './errors.ts';
import type { ParsedFile } from './datahub/datahub-file.ts';
import { fileText } from './datahub/file-text.ts';
import { ingestParsed, parseSource, type IngestReport, type IngestSource } from './datahub/ingest.ts';
import { readTextIfExists, syncDirectory, writeFileDurably } from './store/durable-file.ts';
import type { Store } from './store/store.ts';

export const SEED_MARKER_FILE = 'seed-in-progress.json';

/** One seed as the marker names it: by its name for people and by a hash of its content for the check. */
interface SeedIdentity {
  source: string;
  sha256: string;
}

export interface SeedOutcome {
  /** The seeds as parsed, in order; empty when the catalogue was not seeded (it held one already). */
  parsed: { name: string; parsed: ParsedFile }[];
  reports: IngestReport[];
  /** True when this start completed a seed an earlier start had begun. */
  resumed: boolean;
}

/**
 * Seeds the catalogue when it is empty, or completes an unfinished seed; otherwise leaves it alone.
 * Throws, writing nothing, when an unfinished seed's sources differ from `sources`.
 */
export async function seedCatalogue(
  store: Store,
  dataDir: string | null,
  sources: readonly IngestSource[],
  actor: string,
): Promise<SeedOutcome> {
  const unfinished = dataDir === null ? undefined : readMarker(dataDir);
  if (unfinished === undefined && (store.catalogue.entityCount > 0 || sources.length === 0))
    return { parsed: [], reports: [], resumed: false };
  const seeds = sources.map((source) => ({ source, ...parseSource(source) }));
  if (dataDir !== null) {
    const identities = seeds.map(({ source, name }) => ({ source: name, sha256: fingerprint(source) }));
    if (unfinished === undefined) writeMarker(dataDir, identities);
    else refuseOtherSeeds(dataDir, unfinished, identities);
  }
  const reports: IngestReport[] = [];
  for (const { name, parsed } of seeds) reports.push(await ingestParsed(store, parsed, name, actor));
  // Every seed commit resolved only once durable, so the marker may go.
  if (dataDir !== null) removeMarker(dataDir);
  return { parsed: seeds, reports, resumed: unfinished !== undefined };
}

function refuseOtherSeeds(dataDir: string, unfinished: SeedIdentity[], given: SeedIdentity[]): void {
  const same =
    unfinished.length === given.length && unfinished.every((seed, index) => seed.sha256 === given[index]?.sha256);
  if (same) return;
  const names = (seeds: SeedIdentity[]) => seeds.map(({ source }) => shown(source)).join(', ');
  const changed =
    unfinished.length === given.length && unfinished.every((seed, index) => seed.source === given[index]?.source);
  const why =
    given.length === 0
      ? 'this start was given no seed'
      : changed
        ? 'their content has changed since'
        : `this start was given ${names(given)}`;
  throw new MinihubError(
    'BAD_REQUEST',
    `data directory ${dataDir} holds an unfinished seed of ${names(unfinished)}: an earlier start stopped before seeding was done, and ${why}. ` +
      `Start again with those seeds, unchanged and in that order, to complete it; or delete ${join(dataDir, SEED_MARKER_FILE)} to keep the catalogue as it is`,
  );
}

/** A hash of what the seed holds, so a resume completes the very seed that was begun. */
function fingerprint(source: IngestSource): string {
  const hash = createHash('sha256');
  if (typeof source !== 'string') return hash.update(JSON.stringify(source)).digest('hex');
  // The text ingest reads, through the same bounded reader: a seed may be far larger than any one string.
  for (const piece of fileText(source)) hash.update(piece);
  return hash.digest('hex');
}

function readMarker(dataDir: string): SeedIdentity[] | undefined {
  const path = join(dataDir, SEED_MARKER_FILE);
  const text = readTextIfExists(path);
  if (text === undefined) return undefined;
  const seeds = parseMarker(text);
  if (seeds === undefined) {
    throw new MinihubError(
      'STORE_CORRUPT',
      `${path}: expected {"seeds": [{"source", "sha256"}, …]} naming an unfinished seed; delete that file to keep the catalogue as it is`,
    );
  }
  return seeds;
}

function parseMarker(text: string): SeedIdentity[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const seeds = (value as { seeds?: unknown } | null)?.seeds;
  if (!Array.isArray(seeds)) return undefined;
  const valid = seeds.every(
    (seed: unknown) =>
      typeof (seed as SeedIdentity | null)?.source === 'string' && typeof (seed as SeedIdentity).sha256 === 'string',
  );
  return valid ? (seeds as SeedIdentity[]) : undefined;
}

// The marker must be durable before the first seed record is, as the signing key is.
function writeMarker(dataDir: string, seeds: SeedIdentity[]): void {
  writeFileDurably(
    join(dataDir, SEED_MARKER_FILE),
    `${JSON.stringify({ seeds, started: new Date().toISOString() }, null, 2)}\n`,
  );
}

function removeMarker(dataDir: string): void {
  rmSync(join(dataDir, SEED_MARKER_FILE), { force: true });
  syncDirectory(dataDir);
}
