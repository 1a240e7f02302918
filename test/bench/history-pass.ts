// The history pass of a compaction alone (not part of `npm run bench`): reads a data directory's log
// as `minihub compact` does, then times only the history records it would write, with their digest so
// two versions of the code can be checked to write the same bytes. It never writes to the directory.
//   npx tsx test/bench/history-pass.ts --dir D     (D holds catalogue.jsonl, e.g. from compaction.ts prepare)

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { isTracked } from '../../src/history/change-events.ts';
import { historyRecords, stateDigests } from '../../src/history/log-access.ts';
import { LogIndex } from '../../src/store/log-index.ts';
import { nodeLogFileSystem } from '../../src/store/node-log-fs.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' } } });
if (values.dir === undefined) throw new Error('--dir D is required');
const path = join(values.dir, 'catalogue.jsonl');
const fs = nodeLogFileSystem;

const opened = performance.now();
const index = await LogIndex.read(fs, path);
const isStateValue = await stateDigests(index.values(isTracked));

let gcMs = 0;
let scavenges = 0;
let marks = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMs += entry.duration;
    // kind 1: scavenge (minor), 4: mark-compact (major)
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === 1) scavenges++;
    else if (kind === 4) marks++;
  }
});
observer.observe({ entryTypes: ['gc'] });
// A line of its own, so --trace-gc output can be split into the reading before and the pass.
console.log(`read the log and the state's digests in ${Math.round(performance.now() - opened)} ms; the pass:`);

const hash = createHash('sha1');
let records = 0;
let bytes = 0;
const cpu = process.cpuUsage();
const wall = performance.now();
for await (const record of historyRecords(fs.readChunks(path, { end: index.read.end }), isStateValue)) {
  const line = JSON.stringify(record) + '\n';
  hash.update(line);
  bytes += line.length;
  records++;
}
const used = process.cpuUsage(cpu);
const elapsed = performance.now() - wall;
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
console.log(
  JSON.stringify({
    records,
    mib: +(bytes / 2 ** 20).toFixed(1),
    digest: hash.digest('hex').slice(0, 16),
    cpuS: +((used.user + used.system) / 1e6).toFixed(2),
    wallS: +(elapsed / 1000).toFixed(2),
    gcS: +(gcMs / 1000).toFixed(2),
    scavenges,
    marks,
    heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  }),
);
