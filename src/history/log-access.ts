// The two ways the store hands its log to the history: opened at a fixed end for the index's first
// read, and read through by compaction, which keeps the tracked changes as history-only records.
// It reads through the store's LogFileSystem and never writes.

import { createHash } from 'node:crypto';

import type { JsonValue } from '../aspects/json.ts';
import type { LogFileSystem } from '../store/log-fs.ts';
import { aspectKey, type LogRecord } from '../store/log-record.ts';
import type { LogSource } from './history-index.ts';
import { CompactionState } from './compaction-state.ts';
import { allChanges, candidateRecords } from './tracked-records.ts';
import { historyFields, type IsStateValue } from './value-patch.ts';

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

export type { IsStateValue };

/**
 * What compaction writes before the state so the history survives it: for every record of the old log
 * that changed a tracked aspect, one record with its time, actor and op whose `history` and `patches`
 * hold those changes and whose `changes` is empty, so replaying it changes nothing. Sequence numbers are
 * the caller's.
 */
export async function* historyRecords(
  chunks: AsyncIterable<Buffer>,
  isStateValue: IsStateValue,
): AsyncGenerator<Omit<LogRecord, 'seq'>> {
  const tracked = new CompactionState(isStateValue);
  for await (const record of candidateRecords(chunks)) {
    const changes = tracked.step(allChanges(record));
    if (changes.length === 0) continue;
    // A value is kept as what changed from the one before it, when that is shorter (one column of a wide table).
    yield {
      time: record.time,
      actor: record.actor,
      op: record.op,
      changes: [],
      ...historyFields(changes, isStateValue),
    };
  }
}

/** IsStateValue over a state in memory (a running store's snapshot): each aspect digested when first asked. */
export function stateValueTest(state: (urn: string, aspect: string) => JsonValue | undefined): IsStateValue {
  const digests = new Map<string, Digest | null>();
  return ({ urn, aspect }, length, text) => {
    const key = aspectKey(urn, aspect);
    let digest = digests.get(key);
    if (digest === undefined) {
      const stateValue = state(urn, aspect);
      digest = stateValue === undefined ? null : digestOf(JSON.stringify(stateValue));
      digests.set(key, digest);
    }
    return sameText(digest, length, text);
  };
}

/**
 * IsStateValue over the tracked aspects' state values (the caller picks them), given up front in any order (a log on disk, read
 * in one pass: looking each aspect up as asked costs a read of the file each).
 */
export async function stateDigests(values: AsyncIterable<[string, string, JsonValue]>): Promise<IsStateValue> {
  const digests = new Map<string, Digest>();
  for await (const [urn, aspect, value] of values) {
    digests.set(aspectKey(urn, aspect), digestOf(JSON.stringify(value)));
  }
  return ({ urn, aspect }, length, text) => sameText(digests.get(aspectKey(urn, aspect)), length, text);
}

// A text's length and hash: most values that are not the state's differ in length, and are neither written
// out nor hashed. A digest that matches by chance only keeps a value whole, which is always safe.
interface Digest {
  length: number;
  hash: string;
}

function digestOf(text: string): Digest {
  return { length: text.length, hash: hashOf(text) };
}

function sameText(digest: Digest | null | undefined, length: number, text: () => string): boolean {
  return digest !== null && digest !== undefined && digest.length === length && digest.hash === hashOf(text());
}

function hashOf(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}
