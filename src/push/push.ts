// Sends a stream of records to a server as ingestProposalBatch requests, one batch at a time, and tells
// how far it got: a progress callback after each acknowledged batch, a summary at the end, and on a
// failure a MinihubError saying what was acknowledged. Prints nothing; cli/push-command.ts does.

import { MinihubError } from '../errors.ts';
import { batches, type PushRecord, type RunMetadata } from './batches.ts';
import { sendBatch, SendFailure, type SenderOptions } from './sender.ts';

export interface PushOptions extends SenderOptions {
  /** Proposals per request. */
  batch: number;
  run: RunMetadata;
  /** Told after each acknowledged batch. */
  onProgress?: (done: PushCounts) => void;
  now?: () => number;
}

export interface PushCounts {
  aspects: number;
  entities: number;
  batches: number;
  /** Requests sent again after a retryable failure. */
  retried: number;
  elapsedMs: number;
}

/** Pushes `records` (which the caller keeps unchanged until this resolves); resolves to what was sent. */
export async function push(records: Iterable<PushRecord>, options: PushOptions): Promise<PushCounts> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const counts: PushCounts = { aspects: 0, entities: 0, batches: 0, retried: 0, elapsedMs: 0 };
  for (const batch of batches(records, options.run, options.batch)) {
    let attempts: number;
    try {
      attempts = await sendBatch(batch.body, options);
    } catch (error) {
      if (!(error instanceof SendFailure)) throw error;
      const got =
        counts.batches === 0
          ? 'nothing was acknowledged'
          : `${counts.batches} ${counts.batches === 1 ? 'batch' : 'batches'} (${counts.aspects} aspects) were acknowledged`;
      throw new MinihubError(
        'SERVER_ERROR',
        `push stopped: ${error.message}; ${got}; pushes only upsert, so running the same command again completes it`,
        { cause: error },
      );
    }
    counts.batches++;
    counts.aspects += batch.proposals;
    counts.entities += batch.entities;
    counts.retried += attempts - 1;
    counts.elapsedMs = now() - started;
    options.onProgress?.({ ...counts });
  }
  counts.elapsedMs = now() - started;
  return counts;
}
