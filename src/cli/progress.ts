// Progress lines for a long `minihub ingest`: at most one a second, on stderr, so stdout keeps only
// the summaries a script may read. Files under PROGRESS_MIN_BYTES finish too soon to need any.

import type { IngestProgress } from '../datahub/ingest.ts';

export const PROGRESS_MIN_BYTES = 5 * 1024 * 1024;
const INTERVAL_MS = 1000;

/**
 * A progress callback for ingesting `file` of `bytes` bytes, started at `now()`. The rate counts the
 * share of the file's bytes whose aspects are committed, over the time since the start (reading and
 * parsing included), so it is what a user waits on.
 */
export function ingestProgress(
  file: string,
  bytes: number,
  write: (line: string) => void,
  now: () => number = Date.now,
): (progress: IngestProgress) => void {
  const started = now();
  let last = started;
  return ({ records, aspectsDone, aspectsTotal }) => {
    const at = now();
    if (at - last < INTERVAL_MS || aspectsDone >= aspectsTotal) return;
    last = at;
    if (aspectsDone === 0) {
      // Called once the file is parsed, before the first write: a rate of 0 MB/s would mislead.
      write(
        `  ${file}: read ${records} records in ${((at - started) / 1000).toFixed(1)} s; writing ${aspectsTotal} aspects\n`,
      );
      return;
    }
    const share = aspectsDone / aspectsTotal;
    const mbPerSecond = (bytes * share) / (1024 * 1024) / ((at - started) / 1000);
    write(
      `  ${file}: ${aspectsDone} of ${aspectsTotal} aspects (${Math.floor(share * 100)}%) from ${records} records, ` +
        `${mbPerSecond.toFixed(1)} MB/s\n`,
    );
  };
}
