// The compaction worker (started by compaction-thread.ts): reads the log's first `end` bytes as
// `minihub compact` does and posts the compacted lines back in chunks, a few at a time. It writes no file.

import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

import { failThread } from '../worker-entry.ts';
import { ChunkedWriter } from './chunked-writer.ts';
import { LogIndex } from './log-index.ts';
import { lineOf } from './log-record.ts';
import { nodeLogFileSystem } from './node-log-fs.ts';
import { compactedLogRecords } from './offline.ts';
import type { CompactedCounts } from './compaction.ts';
import type { FromWorker, WorkerRequest } from './compaction-thread.ts';

const { path, end, lastSeq, nice, chunksInFlight, maxChunkBytes } = workerData as WorkerRequest;
const port = parentPort as NonNullable<typeof parentPort>;

// Linux gives each thread its own nice value, so this lowers only the worker's: on a busy core the event
// loop's thread runs first. Elsewhere it would lower the whole process, so it is left alone. Only ever
// lowered: a server already started nicer than this may not raise it, and keeps its own.
if (process.platform === 'linux' && nice > getPriority()) {
  try {
    setPriority(nice);
  } catch {
    // A system that refuses it only makes the compaction compete as an equal.
  }
}

// Chunks posted and not written yet; past chunksInFlight the worker waits, so neither side holds much.
let unwritten = 0;
let room: (() => void) | null = null;
port.on('message', () => {
  unwritten--;
  room?.();
  room = null;
});
let bytes = 0;
const post = async (chunk: Buffer): Promise<void> => {
  bytes += chunk.length;
  port.postMessage({ chunk } satisfies FromWorker);
  if (++unwritten >= chunksInFlight) await new Promise<void>((resolve) => (room = resolve));
};

// A failure ends the thread (failThread), reaching the server's thread as an 'error' event.
async function compact(): Promise<void> {
  const fs = nodeLogFileSystem;
  const index = await LogIndex.read(fs, path, end);
  // The store appends whole lines only, and never cuts back below where a compaction began.
  if (index.read.end !== end || index.read.tail.length > 0)
    throw new Error(`${path} no longer ends a line at byte ${end}: the log changed under the compaction`);
  const counts: CompactedCounts = { records: 0, entities: 0, history: 0 };
  const writer = new ChunkedWriter(post, maxChunkBytes);
  for await (const record of compactedLogRecords({ fs, path, index, end }, counts, () => false, maxChunkBytes)) {
    // The store numbers its commits from here on above lastSeq; a compacted record above it would collide. The
    // records are numbered by the counts, so the last number given is their sum.
    if (counts.history + counts.records > lastSeq)
      throw new Error(`the compacted log needs more than the ${lastSeq} record numbers kept for it`);
    await writer.add(lineOf(record) + '\n');
  }
  await writer.flush();
  port.postMessage({ done: counts, bytes } satisfies FromWorker);
}

compact().catch(failThread);
