// The order of everything that changes the store: commits wait in one queue and leave it in batches
// (group commit), and maintenance jobs (compaction, reset) run between two batches, never inside one.
// It never builds, writes or applies a change itself: the store is given each batch to do that.

import { MinihubError } from '../errors.ts';
import type { AspectChange } from './catalogue.ts';
import type { ChangeBuilder } from './store-options.ts';
import { nextTurn } from '../next-turn.ts';
import { performance } from '../own-timers.ts';

/** One commit waiting for its batch: what it changes, and how to answer whoever asked. */
export interface PendingCommit {
  op: string;
  actor: string;
  build: ChangeBuilder;
  resolve: (changes: AspectChange[]) => void;
  reject: (error: unknown) => void;
}

/** What the queue hands its batches to. */
export interface BatchRunner {
  /** Builds, appends and applies the batch's commits, answering each one; never throws. */
  runBatch(batch: PendingCommit[]): Promise<void>;
  /**
   * Told after each batch and the jobs due after it: maintenance may start then, as jobs it schedules
   * (compaction measures the catalogue first, commits going on, see store-compaction.ts).
   */
  afterBatch(): void;
}

/** A job that must run after exactly the first `after` queued commits. */
interface Job {
  after: number;
  run: () => Promise<void>;
}

// How many turns of the event loop a batch waits at most for the writers of the one before, and for
// how long: turns that take longer than a writer's round trip are busy with other work (a compaction's
// slices, reads), and the writers that were coming have come (see test/bench/NOTES.md).
const LINGER_TURNS = 8;
const LINGER_MS = 2;
const CLOSED = 'The change was not saved: minihub is shutting down.';

export class CommitQueue {
  readonly #runner: BatchRunner;
  #queue: PendingCommit[] = [];
  #jobs: Job[] = [];
  #flushing: Promise<void> | null = null;
  #closed = false;

  constructor(runner: BatchRunner) {
    this.#runner = runner;
  }

  /** Queues a commit behind every earlier one; resolves with its changes once they are durable and applied. */
  commit(op: string, actor: string, build: ChangeBuilder): Promise<AspectChange[]> {
    if (this.#closed) return Promise.reject(new MinihubError('SERVER_ERROR', CLOSED));
    return new Promise((resolve, reject) => {
      this.#queue.push({ op, actor, build, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Runs `job` after the commits queued so far and before any later one. */
  schedule<T>(job: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new MinihubError('SERVER_ERROR', CLOSED));
    return new Promise((resolve, reject) => {
      this.#jobs.push({ after: this.#queue.length, run: () => job().then(resolve, reject) });
      this.#flushing ??= this.#flush();
    });
  }

  /** Whether close() has been called: nothing more is accepted. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Refuses new work and resolves once everything queued has run. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#flushing;
  }

  async #flush(): Promise<void> {
    // Yield once before each batch: writers whose previous commit just resolved get to queue their
    // next one, so batches stay large under load (one fsync for all of them).
    await nextTurn();
    while (this.#queue.length > 0 || this.#jobs.length > 0) {
      const limit = this.#jobs[0]?.after ?? this.#queue.length;
      if (limit > 0) {
        const batch = this.#queue.splice(0, limit);
        for (const job of this.#jobs) job.after -= batch.length;
        await this.#runner.runBatch(batch);
      }
      // The writers just answered and those already waiting are the writers active now; give the first
      // a few turns of the event loop to send their next commit, so all share one sync. Without it,
      // 32 writers settle into two alternating half-batches, and a sync per batch costs CPU (see
      // test/bench/NOTES.md).
      const active = limit + this.#queue.length;
      await linger(() => this.#queue.length >= active || this.#jobs.length > 0 || this.#closed);
      while (this.#jobs[0]?.after === 0) await (this.#jobs.shift() as Job).run();
      if (limit > 0) this.#runner.afterBatch();
    }
    this.#flushing = null;
  }
}

/**
 * What follows an answered batch: one turn of the event loop, then up to LINGER_TURNS more, for LINGER_MS at
 * most, until `enough()`. Exported for the bench's group-commit reference, so that it batches as the store does.
 */
export async function linger(enough: () => boolean): Promise<void> {
  const ends = performance.now() + LINGER_MS;
  await nextTurn();
  for (let turn = 0; turn < LINGER_TURNS && !enough() && performance.now() < ends; turn++) await nextTurn();
}
