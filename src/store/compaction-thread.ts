// A running store's compaction off the event loop's thread: a worker reads the log file as it stood and
// hands back the compacted lines, so the main thread only writes bytes. Only through node's fs (the
// worker opens the file itself); the store decides when, and copies in what is committed meanwhile.

import { Worker } from 'node:worker_threads';

import { workerEntry } from '../worker-entry.ts';
import { MAX_CHUNK_BYTES } from './chunked-writer.ts';
import type { CompactedCounts } from './compaction.ts';

/**
 * The worker's nice value (Linux: that thread only). A busy server's own requests come first; an idle
 * core runs the worker at full speed whatever its value (see test/bench/NOTES.md).
 */
export const COMPACTION_NICE = 10;

/** What the worker is started with. */
export interface WorkerRequest {
  path: string;
  /** The log's bytes to compact: the rest is committed meanwhile and copied by the rewrite. */
  end: number;
  /** The highest record number the compacted log may use (the store numbers later commits above it). */
  lastSeq: number;
  nice: number;
  chunksInFlight: number;
  maxChunkBytes: number;
}

/**
 * What it posts: a chunk of whole lines, or at the end how many records and bytes it wrote. Any reply
 * means "written".
 */
export type FromWorker = { chunk: Uint8Array } | { done: CompactedCounts; bytes: number };

/** Ends a compaction's worker, if it is still running: the store is closing. */
export type CancelCompaction = () => void;

/**
 * The compacted lines of the log at `path` as its first `end` bytes stand (records numbered from 1 up to
 * at most `lastSeq`), in chunks; `counts` holds the totals once the last chunk is through. Starts no
 * worker once `stopped()`; `onCancel` receives a function that ends the worker, failing this iteration.
 */
export async function* compactedLinesInWorker(
  request: Pick<WorkerRequest, 'path' | 'end' | 'lastSeq'> & { maxChunkBytes?: number | undefined },
  counts: CompactedCounts,
  stopped: () => boolean,
  onCancel: (cancel: CancelCompaction | null) => void,
): AsyncGenerator<Uint8Array> {
  // A store closed before this began would otherwise run a whole compaction only to drop it.
  if (stopped()) throw new Error('the store is closing');
  const { path, end, lastSeq, maxChunkBytes = MAX_CHUNK_BYTES } = request;
  const workerData: WorkerRequest = { path, end, lastSeq, maxChunkBytes, nice: COMPACTION_NICE, chunksInFlight: 4 };
  const worker = new Worker(...workerEntry(import.meta.url, 'compaction-worker', { workerData }));
  const chunks: Uint8Array[] = [];
  let received = 0;
  let done: CompactedCounts | null = null;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const fail = (error: Error) => {
    failure ??= error;
    notify();
  };
  worker.on('message', (message: FromWorker) => {
    if ('chunk' in message) {
      chunks.push(message.chunk);
      received += message.chunk.byteLength;
    } else if (message.bytes !== received) {
      return fail(new Error(`the compaction's worker wrote ${message.bytes} bytes, ${received} arrived`));
    } else done = message.done;
    notify();
  });
  // A chunk that could not be read on this side must fail the compaction, not leave a gap in the new log.
  worker.once('messageerror', fail);
  worker.once('error', fail);
  worker.once('exit', (code) => {
    if (done === null) fail(new Error(`the compaction's worker stopped (exit code ${code}) before it was done`));
    else notify();
  });
  onCancel(() => {
    fail(new Error('the store is closing'));
    void worker.terminate();
  });
  try {
    for (;;) {
      const chunk = chunks.shift();
      if (chunk !== undefined && failure === null) {
        yield chunk;
        worker.postMessage(null);
        continue;
      }
      if (failure !== null) throw failure;
      if (done !== null) {
        Object.assign(counts, done);
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    onCancel(null);
    await worker.terminate();
  }
}
