// The store: the in-memory catalogue plus the log that makes it durable, and the commit queue
// that orders every change. Changes reach the catalogue only through commit(); nothing else writes.

import { MinihubError } from '../errors.ts';
import { Catalogue, StagedChanges, type AspectChange, type AspectReader } from './catalogue.ts';
import { MemoryLog, openFileLog, type LogStorage } from './file-log.ts';
import type { LogRecord } from './log-record.ts';

export interface StoreOptions {
  /** The data directory holding the log; null keeps everything in memory. */
  dataDir: string | null;
  /** Receives recoverable problems found while opening, such as a torn last line. */
  warn?: (message: string) => void;
}

/** Computes a change from the current state; throws to refuse it. Runs in log order, one at a time. */
export type ChangeBuilder = (reader: AspectReader) => AspectChange[];

interface PendingCommit {
  op: string;
  actor: string;
  build: ChangeBuilder;
  resolve: (changes: AspectChange[]) => void;
  reject: (error: unknown) => void;
}

export class Store {
  readonly catalogue = new Catalogue();
  readonly #log: LogStorage;
  #nextSeq: number;
  #recordCount: number;
  #queue: PendingCommit[] = [];
  #flushing: Promise<void> | null = null;
  #closed = false;

  private constructor(log: LogStorage, records: readonly LogRecord[]) {
    this.#log = log;
    for (const record of records) this.catalogue.apply(record.changes);
    this.#recordCount = records.length;
    this.#nextSeq = (records.at(-1)?.seq ?? 0) + 1;
  }

  static async open(options: StoreOptions): Promise<Store> {
    if (options.dataDir === null) return new Store(new MemoryLog(), []);
    const { storage, records } = await openFileLog(options.dataDir, options.warn ?? (() => {}));
    return new Store(storage, records);
  }

  /** The log file's path, or "memory". */
  get location(): string {
    return this.#log.location;
  }

  /** How many records the log holds (replayed plus written since). */
  get recordCount(): number {
    return this.#recordCount;
  }

  /**
   * Runs `build` after every earlier commit, appends its changes as one log record and resolves
   * once that record is durable and applied. An empty change list writes nothing.
   */
  commit(op: string, actor: string, build: ChangeBuilder): Promise<AspectChange[]> {
    if (this.#closed) return Promise.reject(new MinihubError('SERVER_ERROR', 'the store is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ op, actor, build, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Empties the catalogue (memory stores only: a durable log is never rewritten this way). */
  clear(): void {
    if (this.#log.location !== 'memory') {
      throw new MinihubError('BAD_REQUEST', `refusing to clear the persistent store at ${this.#log.location}`);
    }
    this.catalogue.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#flushing;
    await this.#log.close();
  }

  // Group commit: every commit that arrived while the previous batch was being synced forms the
  // next batch, so one fsync covers them all and the log order is the order builds ran in.
  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
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
      try {
        await this.#log.append(records);
      } catch (error) {
        this.#nextSeq -= records.length;
        const failure = new MinihubError('SERVER_ERROR', `could not write to ${this.#log.location}: ${(error as Error).message}`, {
          cause: error,
        });
        for (const { commit } of accepted) commit.reject(failure);
        continue;
      }
      for (const record of records) this.catalogue.apply(record.changes);
      this.#recordCount += records.length;
      for (const { commit, record } of accepted) commit.resolve(record?.changes ?? []);
    }
    this.#flushing = null;
  }
}
