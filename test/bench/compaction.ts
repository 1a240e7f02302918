// Compaction and the offline commands on large logs, one measure at a time (not part of `npm run bench`):
//   prepare --dir D [--datasets N] [--mib M]  ingest N bench datasets x 20 columns, then column edits to M MiB
//   live --dir D [--writers W] [--warm]      compact in process under W writers: event-loop delay, write latency
//                                            (--warm: every value built first, as reads leave a running server)
//   cli --dir D                              `minihub compact` and `export --out` as processes: peak RSS, sizes
//   mixed --dir D [--seconds S] [--gc-log F] a server (compaction-server.ts, core 0) under the bench's mixed
//         [--baseline] [--node-flag=F]       load (core 1) once its search index is built, compacting from the
//                                            first second (--baseline: not compacting); --gc-log: the server's
//                                            --trace-gc lines to F (times from its start, as `started`)
// Works on a copy of D's log for `live` and `cli`, so D can be measured again.

import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

import { editFieldDescription } from '../../src/resolvers/edits.ts';
import { Store } from '../../src/store/store.ts';
import { datasetUrn, writeCatalogueFiles } from './catalogue.ts';
import { columnPath } from './catalogue-words.ts';
import { COLUMNS, mixedBody } from './bodies.ts';
import { fmt, load, log, pin, quantile, ROOT, runSampled as run, type Served } from './harness.ts';
import { RUNNERS } from './startup.ts';
import { waitForIndex } from './search-bench.ts';
import { SLOW_COMMIT_MS, STALL_MS, watchStalls } from './stalls.ts';

const LOG = 'catalogue.jsonl';
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

/** One column edit of a random bench dataset, as `updateDescription` commits it (without GraphQL). */
function randomEdit(store: Store, count: number): Promise<unknown> {
  const index = Math.floor(Math.random() * datasets);
  const urn = datasetUrn(index);
  const path = columnPath(index, Math.floor(Math.random() * COLUMNS));
  return store.commit('updateDescription', 'urn:li:corpuser:datahub', (reader) => [
    editFieldDescription(reader, urn, path, `edited ${count} ${'x'.repeat(count % 40)}`),
  ]);
}

async function prepare(): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = await writeCatalogueFiles(dir, datasets, COLUMNS);
  await run([...RUNNERS.tsx, 'ingest', ...files, '--data', join(dir, 'data')]);
  for (const file of files) rmSync(file);
  const store = await Store.open({ dataDir: join(dir, 'data'), autoCompact: false });
  const target = Number(values.mib) * 1024 * 1024;
  let count = 0;
  const writer = async () => {
    while (store.logBytes < target) await randomEdit(store, ++count);
  };
  await Promise.all(Array.from({ length: 32 }, writer));
  await store.close();
  log(`prepared ${dir}/data: ${fmt(statSync(join(dir, 'data', LOG)).size / 2 ** 20, 1)} MiB, ${count} edits`);
}

/** A copy of the prepared data directory, to measure on. */
function copy(): string {
  const target = mkdtempSync(join(tmpdir(), 'minihub-compaction-run-'));
  copyFileSync(join(dir, 'data', LOG), join(target, LOG));
  return target;
}

async function live(): Promise<void> {
  const dataDir = copy();
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
        await randomEdit(store, ++count);
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
  const runner = RUNNERS[values.runner as keyof typeof RUNNERS];
  const dataDir = copy();
  const out = join(dataDir, 'export.json');
  try {
    const logMb = statSync(join(dataDir, LOG)).size / 2 ** 20;
    const exported = await run([...runner, 'export', '--data', dataDir, '--out', out]);
    const exportMb = statSync(out).size / 2 ** 20;
    log(
      `export: log ${fmt(logMb, 1)} MiB → ${fmt(exportMb, 1)} MiB in ${fmt(exported.ms)} ms, ` +
        `peak RSS ${fmt(exported.peakMb)} MB = ${fmt(exported.peakMb / logMb, 2)}x the log`,
    );
    const compacted = await run([...runner, 'compact', '--data', dataDir]);
    const compactMb = statSync(join(dataDir, LOG)).size / 2 ** 20;
    log(
      `compact: ${fmt(logMb, 1)} → ${fmt(compactMb, 1)} MiB (${fmt(compactMb / exportMb, 2)}x the export) in ` +
        `${fmt(compacted.ms)} ms, peak RSS ${fmt(compacted.peakMb)} MB = ${fmt(compacted.peakMb / logMb, 2)}x the log`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function mixed(): Promise<void> {
  const dataDir = copy();
  const gcLog = values['gc-log'];
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=32',
      ...(gcLog === undefined ? [] : ['--trace-gc']),
      ...(values['node-flag'] ?? []),
      '--import',
      'tsx',
      'test/bench/compaction-server.ts',
      dataDir,
    ],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  pin(child.pid as number, 0);
  pin(process.pid, 1);
  try {
    // The server's own lines; V8's --trace-gc lines (`[pid:isolate] ms: ...`) go to the gc log instead.
    const lines = (async function* () {
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        if (gcLog !== undefined && /^\[\d+:0x/.test(line)) appendFileSync(gcLog, `${line}\n`);
        else yield line;
      }
    })();
    const url = /^listening (\S+)$/.exec(String((await lines.next()).value))?.[1] as string;
    const served: Served = { url, token: '', child };
    // A server just started builds its search index meanwhile (in slices of its own): measure compaction alone.
    log(`search index built ${fmt(await waitForIndex(served))} ms after listening`);
    await load(served, () => mixedBody(datasets), { connections: 32, duration: 3 });
    const compacted = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      child.stdin?.write(values.baseline ? `watch ${Number(values.seconds) * 1000 - 1000}\n` : 'compact\n');
      return JSON.parse(String((await lines.next()).value)) as Record<string, number | string>;
    })();
    const measured = await load(served, () => mixedBody(datasets), {
      connections: 32,
      duration: Number(values.seconds),
    });
    const report = await compacted;
    log(
      `mixed load over ${values.seconds} s ${values.baseline ? 'without a compaction' : 'with a compaction from the first second'}: ${fmt(measured.rps)} req/s, ` +
        `p50 ${fmt(measured.p50, 1)} ms, p99 ${fmt(measured.p99, 1)} ms, ${measured.failures} failed, server CPU ${fmt(100 * measured.cpu)}%`,
    );
    log(
      `event-loop stalls over ${STALL_MS} ms (start+length, ms from the compaction's start at ` +
        `${fmt(report.startedAt as number)} ms of the server's life, ${report.startedMicros} µs): ${report.stalls}`,
    );
    log(
      `commits over ${SLOW_COMMIT_MS} ms: ${report.slowCommits}; commits p50 ${fmt(report.commitP50 as number, 1)} ms, p99 ${fmt(report.commitP99 as number, 1)} ms, max ${fmt(report.commitMax as number, 1)} ms`,
    );
    log(
      `${values.baseline ? 'no compaction' : 'compaction'} ${fmt((report.bytesBefore as number) / 2 ** 20, 1)} → ${fmt((report.bytesAfter as number) / 2 ** 20, 1)} MiB ` +
        `in ${fmt(report.ms as number)} ms; event-loop delay meanwhile max ${fmt(report.maxMs as number, 1)} ms, p99 ${fmt(report.p99Ms as number, 1)} ms`,
    );
  } finally {
    child.stdin?.end();
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const command = positionals[0];
if (command === 'prepare') await prepare();
else if (command === 'live') await live();
else if (command === 'cli') await cli();
else if (command === 'mixed') await mixed();
else throw new Error('usage: compaction.ts prepare|live|cli|mixed --dir D');
