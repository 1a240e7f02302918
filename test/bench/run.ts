// `npm run bench`: minihub side by side with a bare node:http server (reads, mixed load) and with one
// fsync per write (durable writes), search latency and freshness, REST ingest against `minihub ingest`, a
// compaction of a 200 MiB log under the mixed load, plus start-up time, search index build and memory for
// large logs and catalogues. `--only search` runs the search part alone.
// Servers run pinned to core 0, the load generator to core 1; ratios matter, not absolute numbers.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { writeCatalogueFiles, writeLog } from './catalogue.ts';
import { COLUMNS } from './bodies.ts';
import { fmt, generatorOf, log, pin, ROOT, runSampled, serve, stop, withServer, type Served } from './harness.ts';
import {
  SEARCH_CONNECTIONS,
  searchLoad,
  searchOneAtATime,
  waitForIndex,
  writeThenSearch,
  type Report,
} from './search-bench.ts';
import { compactionUnderLoad, prepareEditLog } from './compaction-load.ts';
import { readsAndWrites } from './reads-writes.ts';
import { restIngestRow } from './rest-ingest.ts';
import { alternatedStarts, RUNNERS, startup, type Started } from './startup.ts';
import { exportThenCompact, type OfflineCommands } from './offline-commands.ts';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    datasets: { type: 'string', default: '10000' },
    quick: { type: 'boolean', default: false },
    'skip-startup': { type: 'boolean', default: false },
    // `--only search`: the search part alone (with its 100,000-dataset start-up, even with --quick).
    only: { type: 'string' },
    // CPU profiles of the 10,000-dataset servers (the search part's, the reads', each write row's), each
    // written into this directory when its server stops.
    'cpu-prof': { type: 'string' },
  },
});
if (options.only !== undefined && options.only !== 'search') throw new Error('--only takes one part: search');
const ONLY_SEARCH = options.only === 'search';
const QUICK = options.quick === true;
const DURATION = QUICK ? 3 : Number(options.duration);
const ROUNDS = QUICK ? 1 : Number(options.rounds);
const CONNECTIONS = Number(options.connections);
const WARMUP = 3;
const DATASETS = Number(options.datasets);
/** Writes each searched for in the next request. */
const WRITE_SEARCH_PAIRS = 200;
/** Searches one after another, of each kind on 10,000 datasets, of one word on 100,000. */
const BIG_SEARCHES = 300;
// Starts on the 1,000,000-record log per runner, alternated: the row gives their median (one start can be far off).
const REPLAY_STARTS = QUICK ? 1 : 3;
const BIG_DATASETS = 100_000;
/** The log compacted under the mixed load, and how long the load lasts: longer than the compaction takes. */
const COMPACTION_MIB = 200;
const COMPACTION_SECONDS = 30;

const LOADS = { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, rounds: ROUNDS };

const report: Report = { rows: [], summary: [] };
const { rows, summary } = report;

/** The search part on the 10,000 datasets: loads at 8 connections, searches one at a time, then writes searched for at once. */
async function searchPart(minihub: Served): Promise<void> {
  await searchLoad(minihub, { datasets: DATASETS, duration: DURATION, warmup: WARMUP, rounds: ROUNDS }, report);
  await searchOneAtATime(minihub, DATASETS, BIG_SEARCHES, report);
  await writeThenSearch(minihub, DATASETS, WRITE_SEARCH_PAIRS, report);
}

/** A compaction of a log of column edits under the mixed load: the event loop's longest delay and the load's p99. */
async function compactionPart(work: string): Promise<void> {
  const dir = join(work, 'compaction');
  log(`  compaction under load: writing ${COMPACTION_MIB} MiB of column edits`);
  const prepared = await prepareEditLog(dir, DATASETS, COMPACTION_MIB);
  // The same load on the same log without a compaction first: what the machine allows this hour.
  const alone = await compactionUnderLoad(dir, {
    datasets: DATASETS,
    seconds: COMPACTION_SECONDS,
    baseline: true,
    onStep: (step) => log(`  the same load without a compaction: ${step}`),
  });
  const report = await compactionUnderLoad(dir, {
    datasets: DATASETS,
    seconds: COMPACTION_SECONDS,
    onStep: (step) => log(`  compaction under load: ${step}`),
  });
  rmSync(dir, { recursive: true, force: true });
  const server = report.server as { bytesBefore: number; bytesAfter: number; ms: number; maxMs: number; p99Ms: number };
  const aloneServer = alone.server as { maxMs: number; p99Ms: number };
  const mib = (bytes: number) => fmt(bytes / 2 ** 20, 1);
  // The load starts a second before the compaction; a compaction that ends sooner was under it all along.
  const loaded = COMPACTION_SECONDS - 1;
  const covered = server.ms / 1000 <= loaded ? 'all of it' : `its first ${loaded} s`;
  rows.push([
    `compaction of a ${fmt(prepared.mib)} MiB log of column edits, ${covered} under the mixed load (32 connections)`,
    `event-loop delay max ${fmt(server.maxMs, 1)} ms (p99 ${fmt(server.p99Ms, 1)}); ${fmt(report.rps)} req/s`,
    `${mib(server.bytesBefore)} → ${mib(server.bytesAfter)} MiB in ${fmt(server.ms / 1000, 1)} s`,
    '',
    `${fmt(report.p50, 1)} / ${fmt(report.p99, 1)} ms`,
    `${fmt(report.cpu * 100)}%`,
    'event-loop delay ≤ 50 ms; p99 ≤ 25 ms',
  ]);
  rows.push([
    `the same mixed load on the same log without a compaction, just before (the row above's limit this hour)`,
    `event-loop delay max ${fmt(aloneServer.maxMs, 1)} ms (p99 ${fmt(aloneServer.p99Ms, 1)}); ${fmt(alone.rps)} req/s`,
    '',
    '',
    `${fmt(alone.p50, 1)} / ${fmt(alone.p99, 1)} ms`,
    `${fmt(alone.cpu * 100)}%`,
    '(for scale)',
  ]);
  summary.push(
    `compaction under load: ${mib(server.bytesBefore)} → ${mib(server.bytesAfter)} MiB in ${fmt(server.ms)} ms; ` +
      `event-loop delay max ${fmt(server.maxMs, 1)} ms; mixed ${fmt(report.rps)} req/s, p99 ${fmt(report.p99, 1)} ms`,
    `the same load without a compaction: event-loop delay max ${fmt(aloneServer.maxMs, 1)} ms; ` +
      `mixed ${fmt(alone.rps)} req/s, p99 ${fmt(alone.p99, 1)} ms`,
  );
}

/** Start-up alone on every core: a 1,000,000-record log, then 100,000 datasets x 20 columns and their search index. */
async function startupPart(work: string): Promise<void> {
  if (!ONLY_SEARCH) {
    const logDir = join(work, 'log-1m');
    execFileSync('mkdir', ['-p', logDir]);
    await writeLog(join(logDir, 'catalogue.jsonl'), 1_000_000);
    const logMb = statSync(join(logDir, 'catalogue.jsonl')).size / 1024 / 1024;
    for (const [runner, starts] of await alternatedStarts(logDir, ['build', 'tsx'], REPLAY_STARTS)) {
      const median = starts[starts.length >> 1] as Started;
      const range = `${fmt(starts[0]?.ms ?? 0)}-${fmt(starts.at(-1)?.ms ?? 0)}`;
      const peakMb = Math.max(...starts.map((start) => start.peakMb));
      rows.push([
        `start-up, 1,000,000-record log (${runner})`,
        `${fmt(median.ms)} ms to first answer (median of ${starts.length} starts, ${range})`,
        `${fmt(logMb)} MB log`,
        '',
        `peak RSS ${fmt(peakMb)} MB`,
        '',
        '≤ 2,500 ms',
      ]);
      summary.push(
        `start-up 1M records (${runner}): median ${fmt(median.ms)} ms of ${range}, peak RSS ${fmt(peakMb)} MB`,
      );
    }
    rmSync(logDir, { recursive: true, force: true });
  }

  const bigDir = join(work, 'big');
  const bigFiles = await writeCatalogueFiles(join(work), BIG_DATASETS, COLUMNS, 10_000);
  const filesMb = bigFiles.reduce((sum, file) => sum + statSync(file).size, 0) / 1024 / 1024;
  const bigIngest = await runSampled([...RUNNERS.build, 'ingest', ...bigFiles, '--data', bigDir]);
  log(`  ingested 100,000 x 20 in ${fmt(bigIngest.ms / 1000, 1)} s, peak RSS ${fmt(bigIngest.peakMb)} MB`);
  const bigMb = statSync(join(bigDir, 'catalogue.jsonl')).size / 1024 / 1024;
  rows.push([
    `\`minihub ingest\` of 100,000 datasets x 20 columns (build)`,
    `${fmt(bigIngest.ms / 1000, 1)} s`,
    `${fmt(filesMb)} MB in ${bigFiles.length} files into an empty directory`,
    '',
    `peak RSS ${fmt(bigIngest.peakMb)} MB`,
    '',
    '< 1,000 MB for a 500 MB file',
  ]);
  summary.push(
    `ingest 100k x 20 (${fmt(filesMb)} MB): ${fmt(bigIngest.ms / 1000, 1)} s, peak RSS ${fmt(bigIngest.peakMb)} MB`,
  );
  for (const runner of ONLY_SEARCH ? (['build'] as const) : (['build', 'tsx'] as const)) {
    const big = await startup(bigDir, runner, BIG_DATASETS, BIG_SEARCHES);
    rows.push([
      `start-up, 100,000 datasets x 20 columns (${runner})`,
      `${fmt(big.ms)} ms to first answer`,
      `${fmt(bigMb)} MB log, every record live`,
      '',
      `peak RSS ${fmt(big.peakMb)} MB; settled, index built: ${fmt(big.settledMb)} MB = ${fmt(big.settledMb / bigMb, 2)}x the log`,
      '',
      '≤ 5,000 ms, ≤ 1,536 MB; memory ≤ ~2x the live log',
    ]);
    summary.push(
      `start-up 100k x 20 (${runner}): ${fmt(big.ms)} ms, peak RSS ${fmt(big.peakMb)} MB, settled RSS ${fmt(big.settledMb)} MB for a ${fmt(bigMb)} MB log`,
    );
    const search = big.search ?? { p50: 0, p99: 0, hits: 0, cpu: 0 };
    rows.push([
      `search, 100,000 datasets x 20 columns (${runner}): index complete; one word + platform filter, one at a time`,
      `index complete ${fmt(big.indexMs)} ms after start; RSS ${fmt(big.settledMb)} MB once settled`,
      `${BIG_SEARCHES} searches, median hits ${fmt(search.hits)}`,
      '',
      `${fmt(search.p50, 1)} / ${fmt(search.p99, 1)} ms`,
      `${fmt(search.cpu * 100)}%`,
      '≤ 10,000 ms; p50 ≤ 10 ms; RSS ≤ 1,536 MB',
    ]);
    summary.push(
      `search 100k x 20 (${runner}): index complete ${fmt(big.indexMs)} ms after start, p50 ${fmt(search.p50, 1)} ms, p99 ${fmt(search.p99, 1)} ms, median hits ${fmt(search.hits)}, RSS ${fmt(big.settledMb)} MB`,
    );
  }
  if (!ONLY_SEARCH) offlineCommandsRows(await exportThenCompact(bigDir, RUNNERS.build));
}

/** The rows of `minihub export` and `minihub compact` of the 100,000 x 20 log, run one after the other. */
function offlineCommandsRows(run: OfflineCommands): void {
  const ofLog = (mb: number) => `peak RSS ${fmt(mb)} MB = ${fmt(mb / run.logMib, 2)}x the log`;
  rows.push(
    [
      '`minihub export` of 100,000 datasets x 20 columns (build)',
      `${fmt(run.exportMs / 1000, 1)} s`,
      `${fmt(run.logMib)} MiB log → ${fmt(run.exportMib)} MiB of DataHub's file format`,
      '',
      ofLog(run.exportPeakMb),
      '',
      'peak RSS ≤ 2x the log',
    ],
    [
      '`minihub compact` of the same log (build)',
      `${fmt(run.compactMs / 1000, 1)} s`,
      `${fmt(run.logMib)} → ${fmt(run.compactMib)} MiB = ${fmt(run.compactMib / run.exportMib, 2)}x its export`,
      '',
      ofLog(run.compactPeakMb),
      '',
      'peak RSS ≤ 2x the log; no larger than the export',
    ],
  );
  summary.push(
    `export 100k x 20: ${fmt(run.exportMs / 1000, 1)} s, ${ofLog(run.exportPeakMb)}; compact: ${fmt(run.logMib)} → ${fmt(run.compactMib)} MiB (${fmt(run.compactMib / run.exportMib, 2)}x the export), ${ofLog(run.compactPeakMb)}`,
  );
}

async function main(): Promise<void> {
  pin(process.pid, 1);
  const work = mkdtempSync(join(tmpdir(), 'minihub-bench-'));
  const startups = options['skip-startup'] !== true && (!QUICK || ONLY_SEARCH);
  try {
    log(
      `bench: ${DATASETS} datasets x ${COLUMNS} columns, ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds each side, in ${work}`,
    );
    // Start-up is measured from the compiled package as well as through tsx: build it first.
    if (startups) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
    const files = await writeCatalogueFiles(work, DATASETS, COLUMNS);
    const dataDir = join(work, 'data');
    const ingestStart = performance.now();
    execFileSync(process.execPath, [...RUNNERS.tsx, 'ingest', ...files, '--data', dataDir], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const ingestMs = performance.now() - ingestStart;
    log(`  ingested in ${fmt(ingestMs / 1000, 1)} s`);

    const profile = options['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options['cpu-prof']];
    // The reads and the writes each get a server of their own on a copy of what was ingested.
    const ingested = join(work, 'ingested');
    if (!ONLY_SEARCH) cpSync(dataDir, ingested, { recursive: true });
    await withServer(
      ['src/cli.ts', 'serve', '--port', '0', '--data', dataDir, '--quiet'],
      async (minihub) => {
        // Every part measures a complete index: one search waits for its build, which starts with the server.
        log(`  search index complete ${fmt(await waitForIndex(minihub))} ms after the server's banner`);
        await searchPart(minihub);
      },
      profile,
    );
    if (!ONLY_SEARCH) await readsAndWrites(ingested, work, profile, { loads: LOADS, datasets: DATASETS }, report);
    if (!ONLY_SEARCH) {
      // The same files through DataHub's REST protocol, into a fresh data directory.
      const rest = await restIngestRow(files, ingestMs, async () => {
        const fresh = await serve(['src/cli.ts', 'serve', '--port', '0', '--data', join(work, 'rest'), '--quiet']);
        return { ...fresh, stop: () => stop(fresh.child) };
      });
      log(`  ${rest.summary}`);
      rows.push(rest.row);
      summary.push(rest.summary);
    }
    if (!ONLY_SEARCH && !QUICK) await compactionPart(work);
    if (startups) await startupPart(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  printReport();
}

/** The load generator of the read and write figures, as RESULTS.md names it. */
const GENERATOR =
  generatorOf({}) === 'wrk'
    ? 'wrk, one thread'
    : 'autocannon in process (wrk is not installed: the bare server may be held back)';

function printReport(): void {
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
  const date = new Date().toISOString().slice(0, 10);
  const table = [
    '| figure | minihub | reference | ratio | p50 / p99, minihub; reference | server CPU, minihub / reference | goal |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  const text = `# Benchmark results\n\nMeasured by \`npm run bench\` on ${date}, ${machine}; servers pinned to core 0 (every thread; run by node with \`npm start\`'s flags and single-threaded garbage collection, see test/bench/harness.ts), the load generator (${GENERATOR}, ${CONNECTIONS} connections; search: autocannon, which reads the answers, ${SEARCH_CONNECTIONS} connections; ${DURATION} s x ${ROUNDS} rounds per side, alternating) to core 1, after a ${WARMUP} s unmeasured warm-up of each side; the reads with the mixed load and each write row have a minihub of their own, started on a copy of the data directory as ingested (a write row whose log was compacted during its rounds says so); start-up runs alone, on every core, and its memory settles once the search index is complete (a first search answered). Search queries are words of a random bench dataset, filtered on its platform. Ratios are measured side by side in the same run. "server CPU" is the server's CPU time over the load's wall time: near 100% the server was the limit, well below it the load generator or the machine was (then the ratio flatters minihub, and a reference under 95% says so).\n\n${table}\n`;
  // A partial run never replaces the whole table.
  if (!QUICK && !ONLY_SEARCH) writeFileSync(join(ROOT, 'test/bench/RESULTS.md'), text);
  console.log(`\n${table}\n`);
  for (const line of summary) console.log(`bench ${line}`);
}

await main();
