// A minihub for one part of the bench, on its own copy of the ingested data directory, so no part
// measures what an earlier one left (a full response cache, old-generation garbage, a log grown long
// enough to be compacted). It also notes whether a compaction ran while it was measured.

import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { withServer, type Served } from './harness.ts';
import { waitForIndex } from './search-bench.ts';

export interface FreshServer {
  served: Served;
  /** Whether the log was being compacted (its `.compact` file present) at any moment since the server started. */
  compacted(): boolean;
}

const POLL_MS = 100;

/**
 * Runs `use` with a minihub serving a copy of `ingested` in `work/name`, its search index complete; stops
 * the server and removes the copy whatever happens.
 */
export async function withFreshServer<T>(
  ingested: string,
  work: string,
  name: string,
  nodeArgs: string[],
  use: (server: FreshServer) => Promise<T>,
): Promise<T> {
  const dir = join(work, name);
  cpSync(ingested, dir, { recursive: true });
  let seen = false;
  // A compaction writes the whole log anew into catalogue.jsonl.compact, for seconds: a poll sees it.
  const timer = setInterval(() => (seen ||= existsSync(join(dir, 'catalogue.jsonl.compact'))), POLL_MS).unref();
  try {
    return await withServer(
      ['src/cli.ts', 'serve', '--port', '0', '--data', dir, '--quiet'],
      async (served) => {
        // As every part: the search index, built after start, is complete before anything is measured.
        await waitForIndex(served);
        return use({ served, compacted: () => seen });
      },
      nodeArgs,
    );
  } finally {
    clearInterval(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}
