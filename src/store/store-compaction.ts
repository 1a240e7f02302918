// When and how a running store compacts its log: the live state measured once the log has grown enough,
// then a compaction beside the commits (a large log's on a worker thread), switched in between two batches.
// It never applies a change; the store tells it of each record before applying it, and is told when the
// log was rewritten.

import type { Catalogue, AspectChange } from './catalogue.ts';
import type { CommitQueue } from './commit-queue.ts';
import {
  CatalogueSnapshot,
  compactedRecords,
  compactionFailure,
  compactionReport,
  type CompactedCounts,
} from './compaction.ts';
import { compactedLinesInWorker, type CancelCompaction } from './compaction-thread.ts';
import { CompactedButBroken, type LogStorage } from './file-log.ts';
import type { LogRewrite } from './log-rewrite.ts';
import type { LogFileSystem } from './log-fs.ts';
import { historyRecords, openLogAt, stateValueTest } from '../history/log-access.ts';
import type { CompactionReport } from './store-options.ts';

/** Compact automatically once the log is this many times the size of the live state… */
export const COMPACT_RATIO = 4;
/** …and at least this big, so small logs are left alone. */
export const COMPACT_MIN_BYTES = 1024 * 1024;
/**
 * Logs at least this big compact on a worker thread (compaction-thread.ts): their garbage, collected on
 * the event loop's thread, stalled it (see test/bench/NOTES.md). Below it a worker's start costs more.
 */
export const COMPACT_OFF_THREAD_MIN_BYTES = 8 * 1024 * 1024;

/** What a compaction needs of the store, and how it tells the store what it did. */
export interface CompactedStore {
  catalogue: Catalogue;
  log: LogStorage;
  /** The log file, read again for the history; null in memory. */
  logFile: { fs: LogFileSystem; path: string } | null;
  commits: CommitQueue;
  autoCompact: boolean;
  /** Compact logs of at least this many bytes on a worker thread, which reads the log file itself. */
  offThreadFromBytes: number;
  /** The largest chunk of lines a worker hands over at once (default MAX_CHUNK_BYTES). */
  maxChunkBytes: number | undefined;
  warn: (message: string) => void;
  /** How many records the log holds now. */
  recordCount(): number;
  /** Commits from now on are numbered above `seq` (see log-record.ts). */
  numberAbove(seq: number): void;
  /** The log was rewritten: `compacted` records numbered from 1, then `carried` ones committed meanwhile. */
  rewritten(compacted: number, carried: number): void;
}

export class StoreCompaction {
  readonly #store: CompactedStore;
  // The compaction under way, if any, and the snapshot it writes (kept as commits change the catalogue).
  #running: Promise<CompactionReport> | null = null;
  #snapshot: CatalogueSnapshot | null = null;
  // Ends the worker of a compaction under way off the thread, if any.
  #cancel: CancelCompaction | null = null;
  #measuring = false;
  // The log size at which to measure the live state again and maybe compact.
  #nextCheck: number;

  constructor(store: CompactedStore) {
    this.#store = store;
    // Measuring the live state costs a pass over it; waiting until the log has doubled since start
    // spreads that cost over at least as many bytes of writes (`minihub compact` does it at once).
    this.#nextCheck = Math.max(COMPACT_MIN_BYTES, 2 * store.log.size);
  }

  /** The compaction under way, or a new one (see Store.compact). */
  compact(): Promise<CompactionReport> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * Stops a compaction under way, if any (the store is closing): its worker at once, a compaction on this
   * thread at its next slice; one already switching finishes. Resolves once it has settled either way.
   */
  async stop(): Promise<void> {
    this.#cancel?.();
    await this.#running?.catch(() => {});
  }

  /** Must be told of every record's changes before they are applied to the catalogue. */
  preserve(changes: readonly AspectChange[]): void {
    this.#snapshot?.preserve(changes);
  }

  /**
   * Told after each commit batch. Measuring the live state costs a pass over it (in slices, commits going
   * on), so it starts only when the log has grown past the last estimate; a compaction follows when the
   * log is COMPACT_RATIO times the state, else the next check waits until it could be.
   */
  afterBatch(): void {
    const { autoCompact, log, catalogue, commits } = this.#store;
    if (!autoCompact || this.#running !== null || this.#measuring || log.size < this.#nextCheck) return;
    this.#measuring = true;
    void catalogue.measureLogBytes().then((liveBytes) => {
      this.#measuring = false;
      if (commits.closed || this.#running !== null) return;
      if (log.size < COMPACT_RATIO * liveBytes) {
        this.#nextCheck = Math.max(COMPACT_MIN_BYTES, COMPACT_RATIO * liveBytes);
        return;
      }
      this.compact().then(
        ({ bytesBefore, bytesAfter }) =>
          this.#store.warn(`compacted ${log.location}: ${bytesBefore} → ${bytesAfter} bytes`),
        (error: unknown) => this.#store.warn(`automatic ${(error as Error).message}`),
      );
    });
  }

  async #run(): Promise<CompactionReport> {
    const { catalogue, log, commits } = this.#store;
    // Between two batches: the catalogue's, the log's and the history's snapshots agree.
    const begun = await commits.schedule(async () => {
      const rewrite = await log.beginRewrite();
      try {
        // The compacted records, numbered from 1, are at most one per record and one per entity: commits
        // made meanwhile, carried over after them, are numbered above, so numbers rise along the new log.
        const records = this.#store.recordCount();
        const lastSeq = records + catalogue.entityCount;
        this.#store.numberAbove(lastSeq);
        return { rewrite, records, bytesBefore: log.size, write: await this.#compacted(log.size, lastSeq) };
      } catch (error) {
        await rewrite.abandon();
        throw compactionFailure(log.location, error, false);
      }
    });
    const { rewrite, bytesBefore } = begun;
    const counts: CompactedCounts = { records: 0, entities: 0, history: 0 };
    let carried = 0; // records committed during the compaction
    try {
      // Commits go on meanwhile: the new log gets the lines they append to the old one after the snapshot.
      await begun.write(rewrite, counts);
      // The switch, between two batches: the last lines carried over, then the new log is the log.
      await commits.schedule(async () => {
        this.#snapshot = null;
        carried = this.#store.recordCount() - begun.records;
        await log.reopen(await rewrite.finish());
      });
    } catch (error) {
      this.#snapshot = null;
      const switched = error instanceof CompactedButBroken;
      if (switched) this.#rewritten(counts.records + counts.history, carried);
      else {
        await rewrite.abandon();
        // Back off, so a disk that keeps failing is not rewritten again on every commit batch.
        this.#nextCheck = Math.max(this.#nextCheck, 2 * log.size);
      }
      throw compactionFailure(log.location, error, switched);
    }
    this.#rewritten(counts.records + counts.history, carried);
    return compactionReport(bytesBefore, log.size, counts);
  }

  /**
   * How the records that replace the log's first `end` bytes get written, decided between two batches: read
   * from the file by a worker, or from a snapshot of the catalogue taken now and kept as commits go on.
   */
  async #compacted(
    end: number,
    lastSeq: number,
  ): Promise<(rewrite: LogRewrite, counts: CompactedCounts) => Promise<void>> {
    const { catalogue, logFile, commits, offThreadFromBytes } = this.#store;
    // The file's first `end` bytes stay as they are, so the worker needs nothing kept here meanwhile.
    if (logFile !== null && end >= offThreadFromBytes) {
      const request = { path: logFile.path, end, lastSeq, maxChunkBytes: this.#store.maxChunkBytes };
      const onCancel = (cancel: CancelCompaction | null) => (this.#cancel = cancel);
      const stopped = () => commits.closed;
      return (rewrite, counts) => rewrite.writeLines(compactedLinesInWorker(request, counts, stopped, onCancel));
    }
    const history = logFile === null ? null : await openLogAt(logFile.fs, logFile.path, end);
    const snapshot = new CatalogueSnapshot(catalogue);
    this.#snapshot = snapshot;
    const isStateValue = stateValueTest((urn, aspect) => snapshot.value(urn, aspect));
    const kept = history === null ? [] : historyRecords(history, isStateValue);
    return (rewrite, counts) =>
      rewrite.write(
        compactedRecords(kept, snapshot.entities(), counts, () => commits.closed, this.#store.maxChunkBytes),
      );
  }

  #rewritten(compacted: number, carried: number): void {
    this.#store.rewritten(compacted, carried);
    this.#nextCheck = Math.max(COMPACT_MIN_BYTES, COMPACT_RATIO * this.#store.log.size);
  }
}
