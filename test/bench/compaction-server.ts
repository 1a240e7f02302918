// A minihub server (the library's startServer, as `npm start` serves) on a data directory, which compacts
// when told: for a figure of compaction under load. Prints `listening URL`; then for each line `compact` on
// stdin it compacts and prints one JSON line: the report and the event-loop delay (max, p99, in ms) meanwhile.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

import { startServer } from '../../src/index.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: compaction-server.ts DATA_DIR');
const hub = await startServer({ dataDir, auth: false });
process.stdout.write(`listening ${hub.url}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'compact') continue;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const report = await hub.store.compact();
  delay.disable();
  const ms = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({ ...report, ms, maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6 })}\n`,
  );
}
await hub.close();
