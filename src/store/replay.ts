// Rebuilding the state from the log at start: every record, in log order, into a sink (the catalogue).
// This is the one-thread replay; fast-start/ gives the same answer faster for large logs. It reads the
// log and never writes it: cutting a torn tail is the store's next step.

import type { JsonValue } from '../aspects/json.ts';
import type { StoredValue } from './catalogue.ts';
import { loggedValue } from './column-edit.ts';
import type { LogFileSystem } from './log-fs.ts';
import { readRecords, type ReadRecords } from './log-lines.ts';
import type { LoggedChange } from './log-record.ts';

/** Logs at least this big are replayed on two threads (see fast-start/); below it a worker's start costs more than it saves. */
export const PARALLEL_REPLAY_MIN_BYTES = 32 * 1024 * 1024;

/** Where replayed changes go: the catalogue. */
export interface ReplaySink {
  restore(urn: string, aspect: string, value: StoredValue): void;
  /** The aspect as replayed so far: what a column edit read back from the log applies to. */
  aspect(urn: string, name: string): JsonValue | undefined;
}

/** Applies one change read back from the log: a whole value as it is, a column edit onto the aspect replayed so far. */
export function restoreChange(sink: ReplaySink, change: LoggedChange): void {
  const { urn, aspect } = change;
  sink.restore(
    urn,
    aspect,
    loggedValue(change, () => sink.aspect(urn, aspect)),
  );
}

export interface Replayed extends ReadRecords {
  /** Whether part of the log was replayed on a worker thread (fast-start/). */
  inWorker: boolean;
}

/**
 * Replays every record of the log at `path` into `sink`, in log order; throws BadLine (numbered in
 * the whole file) for the first bad line, before applying anything after it. A missing log is empty.
 */
export type Replay = (path: string, fs: LogFileSystem, sink: ReplaySink) => Promise<Replayed>;

export const replayOnOneThread: Replay = async (path, fs, sink) => {
  const read = await readRecords(fs.readChunks(path), ({ changes }) => {
    for (const change of changes) restoreChange(sink, change);
  });
  return { ...read, inWorker: false };
};
