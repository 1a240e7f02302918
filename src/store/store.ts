// The store: the in-memory catalogue plus the log that makes it durable. Store.open tells how it is
// opened; a commit is built, appended and applied here, in the order commit-queue.ts gives; compaction
// rewrites the log. Changes reach the catalogue only through commit().

import { join } from 'node:path';

import { MinihubError } from '../errors.ts';
import { CommitQueue, type PendingCommit } from './commit-queue.ts';
import { Catalogue, StagedChanges, type AspectChange } from './catalogue.ts';
import { exportCatalogue, type McpRecord } from '../datahub/export.ts';
import { heldAsText } from './fast-start/lazy-lines.ts';
import { parallelReplay } from './fast-start/parallel-replay.ts';
import {
  LOG_FILE,
  lockDataDirectory,
  MemoryLog,
  openForAppend,
  removeInterruptedCompaction,
  replayFailure,
  writeFailure,
  type LogStorage,
} from './file-log.ts';
import { nodeLogFileSystem } from './node-log-fs.ts';
import { SYSTEM_ACTOR, type LogRecord } from './log-record.ts';
import { HistoryIndex } from '../history/history-index.ts';
import { logSource } from '../history/log-access.ts';
import { PARALLEL_REPLAY_MIN_BYTES, replayOnOneThread, type Replay } from './replay.ts';
import { COMPACT_OFF_THREAD_MIN_BYTES, StoreCompaction } from './store-compaction.ts';
import type { AppliedListener, ChangeBuilder, CompactionReport, OpenedStore, StoreOptions } from './store-options.ts';

export type { AppliedListener, ChangeBuilder, CompactionReport, StoreOptions } from './store-options.ts';
export { COMPACT_MIN_BYTES, COMPACT_RATIO } from './store-compaction.ts';

/**
 * The catalogue and its log: RunningServer.store. Reads go through `catalogue`; writes through GraphQL.
 * @example
 * const hub = await startServer({ seed: ['data/sample-catalogue.json'] });
 * hub.store.catalogue.entityCount; // 14
 * hub.store.export();              // the catalogue as DataHub MCP records
 */
export class Store {
  readonly catalogue: Catalogue;
  readonly #log: LogStorage;
  #nextSeq: number;
  #recordCount: number;
  readonly #commits = new CommitQueue({
    runBatch: (batch) => this.#commitBatch(batch),
    afterBatch: () => this.#compaction.afterBatch(),
  });
  readonly #compaction: StoreCompaction;
  readonly #appliedListeners = new Set<AppliedListener>();
  readonly #keepValuesAsText: boolean;

  /** Whether opening replayed part of a large log on a worker thread. */
  readonly replayedInWorker: boolean;

  /** The change history of datasets (getTimeline), read from the log on first use. */
  readonly history: HistoryIndex;

  private constructor({ catalogue, log, replayed, options, logFile }: OpenedStore) {
    this.catalogue = catalogue;
    this.#log = log;
    this.replayedInWorker = replayed.inWorker;
    this.#recordCount = replayed.records;
    this.#nextSeq = replayed.lastSeq + 1;
    this.#keepValuesAsText = options.keepValuesAsText ?? false;
    // Opened as a job, between two commit batches: the log then holds exactly the records applied so far.
    const between = <T>(job: () => Promise<T>) => this.#commits.schedule(job);
    this.history = new HistoryIndex(logFile && logSource(logFile.fs, logFile.path, () => this.#log.size, between));
    this.#compaction = new StoreCompaction({
      catalogue,
      log,
      logFile,
      commits: this.#commits,
      autoCompact: (options.autoCompact ?? true) && log.location !== 'memory',
      // A worker reads the file itself, so only through node's fs, as the two-thread replay.
      offThreadFromBytes:
        options.fileSystem === undefined
          ? (options.compactOffThreadBytes ?? COMPACT_OFF_THREAD_MIN_BYTES)
          : Number.POSITIVE_INFINITY,
      maxChunkBytes: options.maxChunkBytes,
      warn: options.warn ?? (() => {}),
      recordCount: () => this.#recordCount,
      numberAbove: (seq) => void (this.#nextSeq = Math.max(this.#nextSeq, seq + 1)),
      // Records committed during the compaction follow the compacted ones with their own numbers.
      rewritten: (compacted, carried) => {
        if (carried === 0) this.#nextSeq = compacted + 1;
        this.#recordCount = compacted + carried;
      },
    });
  }

  /** Opens the store: lock the directory, replay the log into the catalogue, cut a torn tail, open for append. */
  static async open(options: StoreOptions): Promise<Store> {
    const { dataDir, fileSystem, maxChunkBytes, warn = () => {} } = options;
    const catalogue = new Catalogue();
    if (dataDir === null)
      return new Store({
        catalogue,
        log: new MemoryLog(),
        replayed: { records: 0, lastSeq: 0, inWorker: false },
        options,
        logFile: null,
      });
    const fs = fileSystem ?? nodeLogFileSystem;
    // Large logs start faster on two threads; the worker reads the file itself, so only through node's fs.
    const replay: Replay =
      fileSystem === undefined
        ? parallelReplay({ fromBytes: options.parallelReplayBytes ?? PARALLEL_REPLAY_MIN_BYTES, warn })
        : replayOnOneThread;
    const path = join(dataDir, LOG_FILE);
    const release = await lockDataDirectory(dataDir);
    try {
      await removeInterruptedCompaction(fs, path, warn);
      // Records are applied as they are read, so replay never holds more than the catalogue itself.
      const replayed = await replay(path, fs, catalogue).catch((error: unknown) => {
        throw replayFailure(path, error);
      });
      // Only now, with every whole line read and accepted, may a torn tail be cut.
      const log = await openForAppend({ fs, dir: dataDir, path, replayed, release, warn, maxChunkBytes });
      return new Store({ catalogue, log, replayed, options, logFile: { fs, path } });
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The log file's path, or "memory". */
  get location(): string {
    return this.#log.location;
  }

  /** How many records the log holds (replayed plus written since). */
  get recordCount(): number {
    return this.#recordCount;
  }

  /** The log's size in bytes (0 in memory). */
  get logBytes(): number {
    return this.#log.size;
  }

  /**
   * Runs `build` after every earlier commit, appends its changes as one log record and resolves
   * once that record is durable and applied. An empty change list writes nothing.
   */
  commit(op: string, actor: string, build: ChangeBuilder): Promise<AspectChange[]> {
    return this.#commits.commit(op, actor, build);
  }

  /** Tells `listener` of every change applied from now on (indexes that follow the catalogue); returns its stop. */
  onApplied(listener: AppliedListener): () => void {
    this.#appliedListeners.add(listener);
    return () => this.#appliedListeners.delete(listener);
  }

  /**
   * Rewrites the log as the state after the commits queued so far, one record per entity. Commits go on
   * meanwhile, into the old log and then the new one; asked again while one runs, it answers that one.
   */
  compact(): Promise<CompactionReport> {
    return this.#compaction.compact();
  }

  /** The whole catalogue as DataHub MCPs (one UPSERT per aspect, access tokens left out), as `minihub export` writes it. */
  export(): McpRecord[] {
    return exportCatalogue(this.catalogue);
  }

  /** Replaces the whole catalogue with `changes` between two commit batches, at once. Memory stores only. */
  resetTo(changes: readonly AspectChange[]): Promise<void> {
    if (this.#log.location !== 'memory') {
      return Promise.reject(
        new MinihubError('BAD_REQUEST', `refusing to reset the persistent store at ${this.#log.location}`),
      );
    }
    return this.#commits.schedule(async () => {
      this.catalogue.clear();
      // The history starts again too, with the new state as one change by the root user.
      this.history.clear();
      this.#apply({ seq: 0, time: Date.now(), actor: SYSTEM_ACTOR, op: 'reset', changes: [...changes] }, true);
    });
  }

  /** Whether close() has been called: work that follows the catalogue in the background stops then. */
  get closing(): boolean {
    return this.#commits.closed;
  }

  /** Waits for queued commits to be durable, then releases the log. */
  async close(): Promise<void> {
    const closing = this.#commits.close();
    // A compaction under way ends with its switch between two batches, or fails once the queue is closed.
    await this.#compaction.stop();
    await closing;
    await this.#log.close();
  }

  // Group commit: every commit that arrived while the previous batch was being synced forms the
  // next batch, so one fsync covers them all and the log order is the order builds ran in.
  async #commitBatch(batch: PendingCommit[]): Promise<void> {
    const staged = new StagedChanges(this.catalogue);
    const accepted: { commit: PendingCommit; record: LogRecord | null }[] = [];
    for (const commit of batch) {
      try {
        const changes = commit.build(staged);
        staged.stage(changes);
        const record =
          changes.length === 0
            ? null
            : { seq: this.#nextSeq++, time: Date.now(), actor: commit.actor, op: commit.op, changes };
        accepted.push({ commit, record });
      } catch (error) {
        commit.reject(error);
      }
    }
    const records = accepted.flatMap(({ record }) => (record === null ? [] : [record]));
    let lines: readonly string[];
    try {
      lines = await this.#log.append(records);
    } catch (error) {
      // Nothing of the batch was applied, and the log was cut back: every commit in it fails whole.
      this.#nextSeq -= records.length;
      const failure = error instanceof MinihubError ? error : writeFailure(error);
      for (const { commit } of accepted) commit.reject(failure);
      return;
    }
    records.forEach((record, index) => this.#apply(record, false, lines[index]));
    this.#recordCount += records.length;
    for (const { commit, record } of accepted) commit.resolve(record?.changes ?? []);
  }

  // One accepted record into the catalogue: the history first (it needs the state before), listeners after.
  // `line` is the record as the log wrote it, when it did.
  #apply(record: LogRecord, reset: boolean, line?: string): void {
    this.history.record(record, this.catalogue);
    this.#compaction.preserve(record.changes);
    this.catalogue.apply(this.#keepValuesAsText ? heldAsText(record, line) : record.changes);
    for (const listener of this.#appliedListeners) listener(record.changes, reset);
  }
}
