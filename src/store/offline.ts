// A data directory's log used without opening a store (`minihub export` and `compact`): the directory
// locked, the log read once into a LogIndex (places, not values), then streamed. Memory stays near the
// index's size whatever the log's; nothing is replayed into a catalogue and no value is kept (only the
// last description of each column edited since its aspect's last whole value).

import { join } from 'node:path';

import { isTracked } from '../history/change-events.ts';
import { historyRecords, stateDigests } from '../history/log-access.ts';
import { compactedRecords, compactionReport, type CompactedCounts } from './compaction.ts';
import {
  LOG_FILE,
  lockDataDirectory,
  openForAppend,
  removeInterruptedCompaction,
  replayFailure,
  rewriteLog,
} from './file-log.ts';
import type { LogFileSystem } from './log-fs.ts';
import type { RecordOrLine } from './log-record.ts';
import { LogIndex } from './log-index.ts';
import { nodeLogFileSystem } from './node-log-fs.ts';
import type { CompactionReport } from './store-options.ts';

export interface OfflineLog {
  fs: LogFileSystem;
  dir: string;
  path: string;
  index: LogIndex;
  warn: (message: string) => void;
}

/** Locks `dataDir`, reads its log into an index (refusing a bad line as Store.open does), runs `run`, unlocks. */
export async function withOfflineLog<T>(
  dataDir: string,
  warn: (message: string) => void,
  run: (log: OfflineLog) => Promise<T>,
): Promise<T> {
  const fs = nodeLogFileSystem;
  const path = join(dataDir, LOG_FILE);
  const release = await lockDataDirectory(dataDir);
  try {
    await removeInterruptedCompaction(fs, path, warn);
    const index = await LogIndex.read(fs, path).catch((error: unknown) => {
      throw replayFailure(path, error);
    });
    return await run({ fs, dir: dataDir, path, index, warn });
  } finally {
    release();
  }
}

/** Rewrites the log as its state (after its history, see src/history/), as Store.compact does, streaming. */
export async function compactOffline({ fs, dir, path, index, warn }: OfflineLog): Promise<CompactionReport> {
  // As Store.open: a torn last line is cut off and saved aside first.
  const replayed = index.read;
  const log = await openForAppend({ fs, dir, path, replayed, release: () => {}, warn });
  try {
    const bytesBefore = log.size;
    const counts: CompactedCounts = { records: 0, entities: 0, history: 0 };
    await rewriteLog(
      log,
      compactedLogRecords({ fs, path, index, end: bytesBefore }, counts, () => false),
    );
    return compactionReport(bytesBefore, log.size, counts);
  } finally {
    await log.close();
  }
}

/** A log's first `end` bytes, read into `index` (LogIndex.read with the same `end`). */
export interface IndexedLog {
  fs: LogFileSystem;
  path: string;
  index: LogIndex;
  end: number;
}

/**
 * The records that replace the log's first `end` bytes: its history, then its state (compactedRecords),
 * read from the file with `index`, never holding a value longer than it takes to write it.
 */
export async function* compactedLogRecords(
  { fs, path, index, end }: IndexedLog,
  counts: CompactedCounts,
  stopped: () => boolean,
  maxChunkBytes?: number,
): AsyncGenerator<RecordOrLine> {
  // Read first, in one pass: which history values are the state's (see historyFields).
  const isStateValue = await stateDigests(index.values(isTracked));
  const history = historyRecords(fs.readChunks(path, { end }), isStateValue);
  yield* compactedRecords(history, index.entities(), counts, stopped, maxChunkBytes);
}
