// What the store is opened with and the shapes its methods take and give: types only, so a reader of
// store.ts meets its story first. No behaviour lives here.

import type { AspectChange, AspectReader, Catalogue } from './catalogue.ts';
import type { LogFileSystem } from './log-fs.ts';
import type { LogStorage } from './file-log.ts';
import type { Replayed } from './replay.ts';

export interface StoreOptions {
  /** The data directory holding the log; null keeps everything in memory. */
  dataDir: string | null;
  /** Receives recoverable problems found while opening, such as a torn last line. */
  warn?: (message: string) => void;
  /** File operations of the log; tests swap in failing ones. A log read through them replays on one thread. */
  fileSystem?: LogFileSystem;
  /** Compact when the log passes COMPACT_RATIO times the live state (default true). */
  autoCompact?: boolean;
  /**
   * Compact logs of at least this many bytes on a worker thread, which reads the file as it stood (default
   * COMPACT_OFF_THREAD_MIN_BYTES; never through a `fileSystem` of the caller's); smaller ones compact in
   * slices on this thread, from the catalogue. Tests lower it to 0, or raise it to Infinity.
   */
  compactOffThreadBytes?: number;
  /** Replay logs of at least this many bytes on two threads (default PARALLEL_REPLAY_MIN_BYTES); tests lower it. */
  parallelReplayBytes?: number;
  /** The largest Buffer compaction builds before writing it (default MAX_CHUNK_BYTES, 512 KiB); tests lower it. */
  maxChunkBytes?: number;
  /**
   * Hold the values a long record commits as its log text until first read, as replay does (default
   * false). For a writer that reads little of what it writes (`minihub ingest`): memory then grows by
   * about the log's size, not by the values' objects. A server reads what it writes at once. Values must
   * be JSON (they are read back from JSON.stringify of the record); a compaction builds them all.
   */
  keepValuesAsText?: boolean;
}

/** Computes a change from the current state; throws to refuse it. Runs in log order, one at a time. */
export type ChangeBuilder = (reader: AspectReader) => AspectChange[];

export interface CompactionReport {
  bytesBefore: number;
  bytesAfter: number;
  /** State records, several entities to a record. */
  records: number;
  /** The entities they hold. */
  entities: number;
  /** Records written before them that keep the change history (getTimeline); replay skips them. */
  historyRecords: number;
}

/** Told, synchronously, of each record's changes once applied, or (reset) that they replaced the catalogue. */
export type AppliedListener = (changes: readonly AspectChange[], reset: boolean) => void;

/** What the private constructor is given: the catalogue, its open log and what replaying it found. */
export interface OpenedStore {
  catalogue: Catalogue;
  log: LogStorage;
  replayed: Pick<Replayed, 'records' | 'lastSeq' | 'inWorker'>;
  options: StoreOptions;
  /** The log file, read again by the change history and by compaction; null in memory. */
  logFile: { fs: LogFileSystem; path: string } | null;
}
