// The two ways the store hands its log to the history: opened at a fixed end for the index's first
// read, and read through by compaction, which keeps the tracked changes as history-only records.
// It reads through the store's LogFileSystem and never writes.

import { createHash } from 'node:crypto';

import type { JsonValue } from '../aspects/json.ts';
import type { LogFileSystem } from '../store/log-fs.ts';
import type { AspectChange, LogRecord } from '../store/log-record.ts';
import type { LogSource } from './history-index.ts';
import { allChanges, candidateRecords, TrackedState } from './tracked-records.ts';
import { historyFields } from './value-patch.ts';

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

/** The value an aspect has in the state a compaction writes after the history (undefined: none). */
export type StateValue = (urn: string, aspect: string) => JsonValue | undefined | Promise<JsonValue | undefined>;

/**
 * What compaction writes before the state so the history survives it: for every record of the old log
 * that changed a tracked aspect, one record with its time, actor and op whose `history` and `patches`
 * hold those changes and whose `changes` is empty, so replaying it changes nothing. `state` is the state
 * written after it (see historyFields). Sequence numbers are the caller's.
 */
export async function* historyRecords(
  chunks: AsyncIterable<Buffer>,
  state: StateValue,
): AsyncGenerator<Omit<LogRecord, 'seq'>> {
  const tracked = new TrackedState();
  const isStateValue = stateValueTest(state);
  for await (const record of candidateRecords(chunks)) {
    const changes = tracked.step(allChanges(record));
    if (changes.length === 0) continue;
    // A value is kept as what changed from the one before it, when that is shorter (one column of a wide table).
    const fields = await historyFields(changes, isStateValue);
    yield { time: record.time, actor: record.actor, op: record.op, changes: [], ...fields };
  }
}

// Whether a value is its aspect's value in `state`: asked only of values that would be patches, and
// answered from a digest of the state's text, looked up once per aspect (the state may be read from disk).
// A digest that matches by chance only keeps a value whole, which is always safe.
function stateValueTest(state: StateValue): (change: AspectChange) => Promise<boolean> {
  const digests = new Map<string, string | null>();
  return async ({ urn, aspect, value }) => {
    const key = `${urn}\u0000${aspect}`;
    let digest = digests.get(key);
    if (digest === undefined) {
      const stateValue = await state(urn, aspect);
      digest = stateValue === undefined ? null : digestOf(stateValue);
      digests.set(key, digest);
    }
    return digest === digestOf(value);
  };
}

function digestOf(value: JsonValue): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64');
}
