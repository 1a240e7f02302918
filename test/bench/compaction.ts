// Compaction and the offline commands on large logs, one measure at a time (`npm run bench` runs `mixed`):
//   prepare --dir D [--datasets N] [--mib M]  ingest N bench datasets x 20 columns, then column edits to M MiB
//   live --dir D [--writers W] [--warm]      compact in process under W writers: event-loop delay, write latency
//                                            (--warm: every value built first, as reads leave a running server)
//   cli --dir D                              `minihub compact` and `export --out` as processes: peak RSS, sizes
//   mixed --dir D [--seconds S] [--gc-log F] a server (compaction-server.ts, core 0) under the bench's mixed
//         [--baseline] [--node-flag=F]       load (core 1) once its search index is built, compacting from the
//                                            first second (--baseline: not compacting); --gc-log: the server's
//                                            --trace-gc lines to F (times from its start, as `started`)
// Works on a copy of D's log for `live` and `cli`, so D can be measured again.

import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';

import { Store } from '../../src/store/store.ts';
import { compactionUnderLoad, copyOfLog, prepareEditLog, randomEdit } from './compaction-load.ts';
import { fmt, log, quantile } from './harness.ts';
import { exportThenCompact } from './offline-commands.ts';
import { RUNNERS } from './startup.ts';
import { SLOW_COMMIT_MS, STALL_MS, watchStalls } from './stalls.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string' },
    datasets: { type: 'string', default: '10000' },
    mib: { type: 'string', default: '200' },
    writers: { type: 'string', default: '32' },
    runner: { type: 'string', default: 'tsx' },
    seconds: { type: 'string', default: '10' },
    profile: { type: 'string' },
    warm: { type: 'boolean', default: false },
    'gc-log': { type: 'string' },
    baseline: { type: 'boolean', default: false },
    'node-flag': { type: 'string', multiple: true },
  },
});
const dir = values.dir ?? join(tmpdir(), 'minihub-compaction');
const datasets = Number(values.datasets);

async function prepare(): Promise<void> {
  const prepared = await prepareEditLog(dir, datasets, Number(values.mib));
  log(`prepared ${dir}/data: ${fmt(prepared.mib, 1)} MiB, ${prepared.edits} edits`);
}

async function live(): Promise<void> {
  const dataDir = copyOfLog(dir);
  try {
    const openedAt = performance.now();
    const store = await Store.open({ dataDir, autoCompact: false });
    log(`opened in ${fmt(performance.now() - openedAt)} ms; log ${fmt(store.logBytes / 2 ** 20, 1)} MiB`);
    // As a server some time after start: its reads have built the values replay kept as text (a first read
    // of a long ingest line holds the event loop for the whole line, compaction or not).
    if (values.warm === true) for (const entity of store.catalogue.entities()) void entity;
    let count = 0;
    let compacting = true;
    const latencies: number[] = [];
    const slow: string[] = [];
    let origin = performance.now();
    const writer = async () => {
      while (compacting) {
        const started = performance.now();
        await randomEdit(store, datasets, ++count);
        const took = performance.now() - started;
        latencies.push(took);
        if (took > 100) slow.push(`${fmt(started - origin)}+${fmt(took)}`);
        // About the mixed load's write share: a write every few ms per writer.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const profiler = values.profile === undefined ? null : new Session();
    profiler?.connect();
    await profiler?.post('Profiler.enable');
    await profiler?.post('Profiler.start');
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const stalls = watchStalls();
    const cpu = process.cpuUsage();
    const started = performance.now();
    origin = started;
    const writers = Array.from({ length: Number(values.writers) }, writer);
    const report = await store.compact();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    compacting = false;
    if (profiler !== null) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(values.profile as string, JSON.stringify(profile));
    }
    await Promise.all(writers);
    delay.disable();
    log(
      `event-loop stalls over ${STALL_MS} ms (start+length, ms from the compaction's start at ${fmt(started)} ms of the process's life): ${stalls(started).join(' ')}`,
    );
    log(`writes over 100 ms: ${slow.length} (${slow.slice(0, 40).join(' ')})`);
    log(
      `compacted ${fmt(report.bytesBefore / 2 ** 20, 1)} → ${fmt(report.bytesAfter / 2 ** 20, 1)} MiB ` +
        `(${report.records} state + ${report.historyRecords} history records) in ${fmt(ms)} ms, ` +
        `${fmt((used.user + used.system) / 1e6, 2)} CPU-s`,
    );
    log(
      `event-loop delay max ${fmt(delay.max / 1e6, 1)} ms, p99 ${fmt(delay.percentile(99) / 1e6, 1)} ms; ` +
        `${latencies.length} writes during it: p50 ${fmt(quantile(latencies, 0.5), 1)} ms, ` +
        `p99 ${fmt(quantile(latencies, 0.99), 1)} ms, max ${fmt(quantile(latencies, 1), 1)} ms`,
    );
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function cli(): Promise<void> {
  const dataDir = copyOfLog(dir);
  try {
    const run = await exportThenCompact(dataDir, RUNNERS[values.runner as keyof typeof RUNNERS]);
    log(
      `export: log ${fmt(run.logMib, 1)} MiB → ${fmt(run.exportMib, 1)} MiB in ${fmt(run.exportMs)} ms, ` +
        `peak RSS ${fmt(run.exportPeakMb)} MB = ${fmt(run.exportPeakMb / run.logMib, 2)}x the log`,
    );
    log(
      `compact: ${fmt(run.logMib, 1)} → ${fmt(run.compactMib, 1)} MiB (${fmt(run.compactMib / run.exportMib, 2)}x the export) in ` +
        `${fmt(run.compactMs)} ms, peak RSS ${fmt(run.compactPeakMb)} MB = ${fmt(run.compactPeakMb / run.logMib, 2)}x the log`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function mixed(): Promise<void> {
  const seconds = Number(values.seconds);
  const report = await compactionUnderLoad(dir, {
    datasets,
    seconds,
    baseline: values.baseline,
    ...(values['gc-log'] === undefined ? {} : { gcLog: values['gc-log'] }),
    nodeFlags: values['node-flag'] ?? [],
  });
  const server = report.server;
  log(`search index built ${fmt(report.indexMs)} ms after listening`);
  log(
    `mixed load over ${seconds} s ${values.baseline ? 'without a compaction' : 'with a compaction from the first second'}: ${fmt(report.rps)} req/s, ` +
      `p50 ${fmt(report.p50, 1)} ms, p99 ${fmt(report.p99, 1)} ms, ${report.failures} failed, server CPU ${fmt(100 * report.cpu)}%`,
  );
  log(
    `event-loop stalls over ${STALL_MS} ms (start+length, ms from the compaction's start at ` +
      `${fmt(server.startedAt as number)} ms of the server's life, ${server.startedMicros} µs): ${server.stalls}`,
  );
  log(
    `commits over ${SLOW_COMMIT_MS} ms: ${server.slowCommits}; commits p50 ${fmt(server.commitP50 as number, 1)} ms, p99 ${fmt(server.commitP99 as number, 1)} ms, max ${fmt(server.commitMax as number, 1)} ms`,
  );
  log(
    `${values.baseline ? 'no compaction' : 'compaction'} ${fmt((server.bytesBefore as number) / 2 ** 20, 1)} → ${fmt((server.bytesAfter as number) / 2 ** 20, 1)} MiB ` +
      `in ${fmt(server.ms as number)} ms; event-loop delay meanwhile max ${fmt(server.maxMs as number, 1)} ms, p99 ${fmt(server.p99Ms as number, 1)} ms`,
  );
}

const command = positionals[0];
if (command === 'prepare') await prepare();
else if (command === 'live') await live();
else if (command === 'cli') await cli();
else if (command === 'mixed') await mixed();
else throw new Error('usage: compaction.ts prepare|live|cli|mixed --dir D');
