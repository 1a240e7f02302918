// The fast start: a Replay (see ../replay.ts) that gives what the one-thread replay gives, sooner. Long
// lines stay text until read (lazy-lines.ts); a large log is split, this thread replaying the first part
// while a worker reads and checks the rest and hands back only what survives of it (replay-plan.ts),
// since start-up is bound by JSON.parse. It reads; it never writes the log.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

import { runsFromSources, workerEntry } from '../../worker-entry.ts';
import type { LogFileSystem } from '../log-fs.ts';
import { BadLine, decodeUtf8, readRecords, type ReadRecords } from '../log-lines.ts';
import { COLUMN_EDIT_ASPECT } from '../log-record.ts';
import { restoreChange, type Replay, type Replayed, type ReplaySink } from '../replay.ts';
import { deferLongLines } from './lazy-lines.ts';
import { forEachPlannedChange, type ReplayPlan } from './replay-plan.ts';

// The worker also condenses its lines, this thread also applies them and the plan afterwards: halves have
// both threads finish about together, except that from the sources the worker starts later, so this
// thread takes more (measurements: see test/bench/NOTES.md).
const THIS_THREAD_SHARE = runsFromSources(import.meta.url) ? 0.58 : 0.5;
const PROBE_BYTES = 64 * 1024;

export interface ParallelReplayOptions {
  /** Logs of at least this many bytes are split over two threads; smaller ones are replayed here. */
  fromBytes: number;
  /** Told when the worker fails and this thread replays its part instead. */
  warn: (message: string) => void;
  /** A seam for tests of a worker that fails to run. */
  start?: (request: WorkerRequest) => ReplayWorker;
}

/** What the replay worker is asked (workerData) and answers (its one message). */
export interface WorkerRequest {
  path: string;
  start: number;
}
export type WorkerAnswer =
  { kind: 'done'; plan: ReplayPlan; read: ReadRecords } | { kind: 'bad'; line: number; problem: string };

/** A started replay worker: its one answer, and a way to stop it early. */
export interface ReplayWorker {
  answer: Promise<WorkerAnswer>;
  cancel: () => Promise<void>;
}

/** The fast start's Replay, for logs read through node's own file system (the worker reads the file itself). */
export function parallelReplay({ fromBytes, warn, start = startWorker }: ParallelReplayOptions): Replay {
  return async (path: string, fs: LogFileSystem, sink: ReplaySink): Promise<Replayed> => {
    const onRecord = deferLongLines(sink);
    const size = fileSize(path);
    const split = size > 0 && size >= fromBytes ? splitPoint(path, size) : null;
    if (split === null) return { ...(await readRecords(fs.readChunks(path), onRecord)), inWorker: false };

    let worker: ReplayWorker;
    try {
      worker = start({ path, start: split });
    } catch (error) {
      // No worker at all (say, the TypeScript sources run without tsx): the same as one that failed.
      worker = { answer: Promise.reject(error), cancel: async () => {} };
    }
    // The answer is awaited only after the first half: until then a failure must not count as unhandled.
    worker.answer.catch(() => {});
    let head: ReadRecords;
    try {
      head = await readRecords(fs.readChunks(path, { end: split }), onRecord);
    } catch (error) {
      // Stopping the worker must not hide why the replay failed.
      await worker.cancel().catch(() => {});
      throw error;
    }
    let answer: WorkerAnswer;
    try {
      answer = await worker.answer;
    } catch (error) {
      // The worker could not run (it never reports a bad line this way): replay the rest here instead.
      warn(`${path}: replaying on one thread; the replay worker failed: ${(error as Error).message}`);
      try {
        return joined(head, await readRecords(fs.readChunks(path, { start: split }), onRecord), split, false);
      } catch (bad) {
        throw bad instanceof BadLine ? new BadLine(head.lines + bad.line, bad.message) : bad;
      }
    }
    if (answer.kind === 'bad') throw new BadLine(head.lines + answer.line, answer.problem);
    applyPlan(answer.plan, readLines(path, answer.plan.lines), sink);
    // Structured clone hands the tail over as a plain Uint8Array.
    const { tail } = answer.read;
    return joined(
      head,
      { ...answer.read, tail: Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength) },
      split,
      true,
    );
  };
}

/** Applies a plan the worker answered, after everything before its part; `lineTexts` hold its long lines' text. */
export function applyPlan(plan: ReplayPlan, lineTexts: readonly string[], sink: ReplaySink): void {
  forEachPlannedChange(plan, lineTexts, (urn, aspect, value, edit) => {
    if (edit === null) sink.restore(urn, aspect, value);
    else restoreChange(sink, { urn, aspect: COLUMN_EDIT_ASPECT, columnEdit: edit });
  });
}

function joined(head: ReadRecords, rest: ReadRecords, split: number, inWorker: boolean): Replayed {
  return {
    end: split + rest.end,
    tail: rest.tail,
    lines: head.lines + rest.lines,
    records: head.records + rest.records,
    lastSeq: rest.records > 0 ? rest.lastSeq : head.lastSeq,
    inWorker,
  };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Where the worker's part starts: the first line that begins after this thread's share; null when there is none. */
function splitPoint(path: string, size: number): number | null {
  const fd = openSync(path, 'r');
  try {
    const probe = Buffer.allocUnsafe(PROBE_BYTES);
    for (let position = Math.floor(size * THIS_THREAD_SHARE); position < size; position += PROBE_BYTES) {
      const read = readSync(fd, probe, 0, PROBE_BYTES, position);
      const newline = probe.subarray(0, read).indexOf(0x0a);
      if (newline !== -1) return position + newline + 1 < size ? position + newline + 1 : null;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The text of each line at `lines`, which the worker read and checked as UTF-8 already. */
export function readLines(path: string, lines: ReplayPlan['lines']): string[] {
  if (lines.length === 0) return [];
  const fd = openSync(path, 'r');
  try {
    return lines.map(({ start, bytes }) => {
      // A buffer per line: its string is copied out of it, so nothing larger stays alive.
      const buffer = Buffer.allocUnsafe(bytes);
      const text = readSync(fd, buffer, 0, bytes, start) === bytes ? decodeUtf8(buffer) : null;
      if (text === null) throw new Error(`${path}: the line at byte ${start} changed while it was replayed`);
      return text;
    });
  } finally {
    closeSync(fd);
  }
}

function startWorker(request: WorkerRequest): ReplayWorker {
  const worker = new Worker(...workerEntry(import.meta.url, 'replay-worker', { workerData: request }));
  const answer = new Promise<WorkerAnswer>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`it exited with code ${code} before answering`)));
  });
  return { answer, cancel: async () => void (await worker.terminate()) };
}
