// A minihub server (the library's startServer, as `npm start` serves) on a data directory, which compacts
// when told: for a figure of compaction under load. Prints `listening URL`; then for each line `compact` on
// stdin it compacts (`watch MS`: waits MS ms, for a baseline) and prints one JSON line: the report, the
// event-loop delay (max, p99, in ms) meanwhile, its stalls and the commits' latencies (see stalls.ts).

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

import { startServer } from '../../src/index.ts';
import { quantile } from './harness.ts';
import { timeCommits, watchStalls } from './stalls.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: compaction-server.ts DATA_DIR');
const hub = await startServer({ dataDir, auth: false });
process.stdout.write(`listening ${hub.url}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.trim().split(' ');
  if (command !== 'compact' && command !== 'watch') continue;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const stalls = watchStalls();
  const commits = timeCommits(hub.store);
  const started = performance.now();
  // The monotonic clock a --cpu-prof profile's timestamps count, in µs, to find the stalls in it.
  const startedMicros = Number(process.hrtime.bigint() / 1000n);
  const report =
    command === 'compact'
      ? await hub.store.compact()
      : await new Promise<object>((resolve) => setTimeout(() => resolve({}), Number(argument)));
  delay.disable();
  const ms = performance.now() - started;
  const { latencies, slow } = commits(started);
  const timing = {
    startedAt: started,
    startedMicros,
    stalls: stalls(started).join(' '),
    slowCommits: `${slow.length} (${slow.slice(0, 30).join(' ')})`,
    commitP50: quantile(latencies, 0.5),
    commitP99: quantile(latencies, 0.99),
    commitMax: quantile(latencies, 1),
  };
  process.stdout.write(
    `${JSON.stringify({ ...report, ms, maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, ...timing })}\n`,
  );
}
await hub.close();
