// When and how a running store compacts its log: the live state measured once the log has grown enough,
// then a compaction beside the commits, switched in between two batches. It never applies a change; the
// store tells it of each record before applying it, and is told when the log was rewritten.

import type { Catalogue, AspectChange } from './catalogue.ts';
import type { CommitQueue } from './commit-queue.ts';
import { CatalogueSnapshot, compactedRecords, compactionFailure, type CompactedCounts } from './compaction.ts';
import { CompactedButBroken, type LogStorage } from './file-log.ts';
import type { LogFileSystem } from './log-fs.ts';
import { historyRecords, openLogAt, stateValueTest } from '../history/log-access.ts';
import type { CompactionReport } from './store-options.ts';

/** Compact automatically once the log is this many times the size of the live state… */
export const COMPACT_RATIO = 4;
/** …and at least this big, so small logs are left alone. */
export const COMPACT_MIN_BYTES = 1024 * 1024;

/** What a compaction needs of the store, and how it tells the store what it did. */
export interface CompactedStore {
  catalogue: Catalogue;
  log: LogStorage;
  /** The log file, read again for the history; null in memory. */
  logFile: { fs: LogFileSystem; path: string } | null;
  commits: CommitQueue;
  autoCompact: boolean;
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

  /** A compaction under way, if any, settled either way. */
  async settled(): Promise<void> {
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
    const { catalogue, log, logFile, commits } = this.#store;
    // Between two batches: the catalogue's, the log's and the history's snapshots agree.
    const begun = await commits.schedule(async () => {
      const rewrite = await log.beginRewrite();
      try {
        const history = logFile === null ? null : await openLogAt(logFile.fs, logFile.path, log.size);
        // The compacted records, numbered from 1, are at most one per record and one per entity: commits
        // made meanwhile, carried over after them, are numbered above, so numbers rise along the new log.
        const records = this.#store.recordCount();
        this.#store.numberAbove(records + catalogue.entityCount);
        this.#snapshot = new CatalogueSnapshot(catalogue);
        return { rewrite, history, snapshot: this.#snapshot, bytesBefore: log.size, records };
      } catch (error) {
        await rewrite.abandon();
        throw compactionFailure(log.location, error, false);
      }
    });
    const { rewrite, history, snapshot, bytesBefore } = begun;
    const counts: CompactedCounts = { records: 0, history: 0 };
    let carried = 0; // records committed during the compaction
    try {
      // Commits go on meanwhile: the new log gets the lines they append to the old one after the snapshot.
      const kept =
        history === null
          ? []
          : historyRecords(
              history,
              stateValueTest((urn, aspect) => snapshot.value(urn, aspect)),
            );
      await rewrite.write(compactedRecords(kept, snapshot.entities(), counts, () => commits.closed));
      // The switch, between two batches: the last lines carried over, then the new log is the log.
      await commits.schedule(async () => {
        this.#snapshot = null;
        carried = this.#store.recordCount() - begun.records;
        await log.reopen(await rewrite.finish());
      });
    } catch (error) {
      if (this.#snapshot === snapshot) this.#snapshot = null;
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
    return { bytesBefore, bytesAfter: log.size, records: counts.records, historyRecords: counts.history };
  }

  #rewritten(compacted: number, carried: number): void {
    this.#store.rewritten(compacted, carried);
    this.#nextCheck = Math.max(COMPACT_MIN_BYTES, COMPACT_RATIO * this.#store.log.size);
  }
}
