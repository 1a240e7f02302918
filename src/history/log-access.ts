// The two ways the store hands its log to the history: opened at a fixed end for the index's first
// read, and read through by compaction, which keeps the tracked changes as history-only records.
// It reads through the store's LogFileSystem and never writes.

import type { LogFileSystem } from '../store/log-fs.ts';
import type { LogRecord } from '../store/log-record.ts';
import type { LogSource } from './history-index.ts';
import { allChanges, candidateRecords, TrackedState } from './tracked-records.ts';
import { historyEntry } from './value-patch.ts';

/**
 * The history index's way into the store's log at `path`: `between` runs a job between two commit
 * batches, where `size()` is the end of the last record applied.
 */
export function logSource(
  fs: LogFileSystem,
  path: string,
  size: () => number,
  between: <T>(job: () => Promise<T>) => Promise<T>,
): LogSource {
  return {
    snapshot: (atSnapshot) =>
      between(async () => {
        const chunks = await openLogAt(fs, path, size());
        atSnapshot();
        return chunks;
      }),
  };
}

/**
 * The log's first `end` bytes, with the file already open when this resolves: a compaction that renames
 * a new log into place afterwards leaves this read on the old file, whose first `end` bytes are the same.
 */
export async function openLogAt(fs: LogFileSystem, path: string, end: number): Promise<AsyncIterable<Buffer>> {
  const iterator = fs.readChunks(path, { end })[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (let next = first; next.done !== true; next = await iterator.next()) yield next.value;
      } finally {
        await iterator.return?.();
      }
    },
  };
}

/**
 * What compaction writes before the state so the history survives it: for every record of the old log
 * that changed a tracked aspect, one record with its time, actor and op whose `history` holds those
 * changes and whose `changes` is empty, so replaying it changes nothing. Sequence numbers are the caller's.
 */
export async function* historyRecords(chunks: AsyncIterable<Buffer>): AsyncGenerator<Omit<LogRecord, 'seq'>> {
  const state = new TrackedState();
  for await (const record of candidateRecords(chunks)) {
    const changes = state.step(allChanges(record));
    if (changes.length === 0) continue;
    // A value is kept as what changed from the one before it, when that is shorter (one column of a wide table).
    const history = changes.map((change) => historyEntry(change, change.before));
    yield { time: record.time, actor: record.actor, op: record.op, changes: [], history };
  }
}
