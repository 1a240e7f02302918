// Opens a data directory's store for one command and always closes it (releasing the lock). Unless
// asked to create one, it refuses a directory without a catalogue before touching anything, so a typo
// in --data fails instead of leaving a new empty catalogue behind.

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';
import { SEED_MARKER_FILE } from '../seeding.ts';
import { LOG_FILE } from '../store/file-log.ts';
import { withOfflineLog, type OfflineLog } from '../store/offline.ts';
import { Store } from '../store/store.ts';
import type { CliIo } from './io.ts';
import { quoted } from './options.ts';

export interface WithStoreOptions {
  /** Make the directory and an empty catalogue when there is none (serve and ingest; --create). */
  create?: boolean;
  /** Whether the command takes --create, so the refusal can offer it. */
  offerCreate?: boolean;
  /** See StoreOptions.keepValuesAsText (ingest). */
  keepValuesAsText?: boolean;
}

export async function withStore<T>(
  io: CliIo,
  dataDir: string,
  run: (store: Store) => Promise<T>,
  options: WithStoreOptions = {},
): Promise<T> {
  if (options.create !== true) requireCatalogue(dataDir, options.offerCreate === true);
  const warn = warning(io);
  const store = await Store.open({ dataDir, warn, keepValuesAsText: options.keepValuesAsText });
  warnOfPartialSeed(dataDir, warn);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

/**
 * Like withStore for a command that only streams the log (export, compact): the directory locked and its
 * log read into an index, never replayed into a catalogue, so memory stays bounded whatever the log's size.
 */
export async function withLog<T>(io: CliIo, dataDir: string, run: (log: OfflineLog) => Promise<T>): Promise<T> {
  requireCatalogue(dataDir, false);
  const warn = warning(io);
  return withOfflineLog(dataDir, warn, (log) => {
    warnOfPartialSeed(dataDir, warn);
    return run(log);
  });
}

function warning(io: CliIo): (message: string) => void {
  return (message) => void io.stderr.write(`minihub: ${message}\n`);
}

// serve refuses such a directory; a command that only reads or adds to it may go on, but says so.
function warnOfPartialSeed(dataDir: string, warn: (message: string) => void): void {
  if (existsSync(join(dataDir, SEED_MARKER_FILE))) {
    warn(
      `${quoted(dataDir)} holds a seed that was never completed (${SEED_MARKER_FILE}): its catalogue may be partial; "minihub serve --seed" with the same files completes it`,
    );
  }
}

/** Throws, naming the directory, unless `dataDir` holds a catalogue file (an empty one counts). */
export function requireCatalogue(dataDir: string, offerCreate: boolean): void {
  if (existsSync(join(dataDir, LOG_FILE))) return;
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    throw new MinihubError(
      'BAD_REQUEST',
      `${quoted(dataDir)} is a file, not a data directory; check --data (or MINIHUB_DATA)`,
    );
  }
  const fix = `check --data (or MINIHUB_DATA); "minihub serve" or "minihub ingest" makes one${offerCreate ? ', or add --create' : ''}`;
  const what = existsSync(dataDir)
    ? `data directory ${quoted(dataDir)} holds no catalogue (no ${LOG_FILE})`
    : `data directory ${quoted(dataDir)} does not exist`;
  throw new MinihubError('BAD_REQUEST', `${what}; ${fix}`);
}
