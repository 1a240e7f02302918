// A minihub for one part of the bench, on its own copy of the ingested data directory, so no part
// measures what an earlier one left (a full response cache, old-generation garbage, a log long enough to
// be compacted). It also notes whether a compaction ran while it was measured.

import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { serve, stop, type Served } from './harness.ts';
import { waitForIndex } from './search-bench.ts';

export interface FreshServer {
  served: Served;
  /** Starts noting compactions (the log's `.compact` file, present while one writes). */
  watch(): void;
  /** Whether a compaction was seen since watch(); stops watching. */
  compacted(): boolean;
  stop(): Promise<void>;
}

const POLL_MS = 100;

/** Serves a copy of `ingested` in `work/name` and resolves once its search index is complete. */
export async function freshServer(
  ingested: string,
  work: string,
  name: string,
  nodeArgs: string[] = [],
): Promise<FreshServer> {
  const dir = join(work, name);
  cpSync(ingested, dir, { recursive: true });
  const served = await serve(['src/cli.ts', 'serve', '--port', '0', '--data', dir, '--quiet'], nodeArgs);
  // As every part: the search index, built after start, is complete before anything is measured.
  await waitForIndex(served);
  let seen = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    served,
    watch() {
      seen = false;
      timer = setInterval(() => (seen ||= existsSync(join(dir, 'catalogue.jsonl.compact'))), POLL_MS);
    },
    compacted() {
      clearInterval(timer);
      return seen;
    },
    stop: () => stop(served.child),
  };
}
