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

import { datasetUrn, writeCatalogueFiles, writeLog } from './catalogue.ts';
import { COLUMNS, mixedBody, READ, randomRead as benchRead, randomWrite as benchWrite } from './bodies.ts';
import { compare, cpuOf, latencies, referenceCell } from './compare.ts';
import {
  fmt,
  generatorOf,
  graphql,
  log,
  pin,
  ROOT,
  runSampled,
  serve,
  stop,
  withServer,
  type Served,
} from './harness.ts';
import {
  SEARCH_CONNECTIONS,
  searchLoad,
  searchOneAtATime,
  waitForIndex,
  writeThenSearch,
  type Report,
} from './search-bench.ts';
import { compactionUnderLoad, prepareEditLog } from './compaction-load.ts';
import { withFreshServer, type FreshServer } from './fresh-server.ts';
import { restIngestRow } from './rest-ingest.ts';
import { RUNNERS, startup } from './startup.ts';

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
const BIG_DATASETS = 100_000;
/** The log compacted under the mixed load, and how long the load lasts: longer than the compaction takes. */
const COMPACTION_MIB = 200;
const COMPACTION_SECONDS = 30;

const LOADS = { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, rounds: ROUNDS };

const report: Report = { rows: [], summary: [] };
const { rows, summary } = report;

const randomRead = () => benchRead(DATASETS);
const randomWrite = () => benchWrite(DATASETS);

/** minihub against the reference servers: random reads, the mixed load and durable writes. */
async function readsAndWrites(ingested: string, work: string, profile: string[]): Promise<void> {
  const responseFile = join(work, 'response.json');
  await withFreshServer(ingested, work, 'reads', profile, async ({ served: minihub }) => {
    await checkReads(minihub, responseFile);
    // The bare server answers exactly the bytes minihub answers for one dataset.
    await withServer(['test/bench/baselines.ts', 'bare', responseFile], async (bare) => {
      const reads = await compare(LOADS, 'reads', bare, 'bare', minihub, 'minihub', randomRead, randomRead);
      const readRatio = reads.b.rps / reads.a.rps;
      rows.push([
        'random reads',
        `${fmt(reads.b.rps)} req/s`,
        referenceCell(reads.a),
        fmt(readRatio, 2),
        latencies(reads),
        cpuOf(reads),
        '≥ 0.70, p99 ≤ 5 ms',
      ]);
      summary.push(
        `reads: minihub ${fmt(reads.b.rps)} req/s, bare ${fmt(reads.a.rps)} req/s at ${fmt(reads.a.cpu * 100)}% of its core, ratio ${fmt(readRatio, 2)}, p99 ${fmt(reads.b.p99, 1)} ms, failures ${reads.b.failures}`,
      );

      const mixed95 = () => mixedBody(DATASETS);
      const mixed = await compare(LOADS, 'mixed 95/5', bare, 'bare', minihub, 'minihub', randomRead, mixed95);
      const mixedRatio = mixed.b.rps / mixed.a.rps;
      rows.push([
        'mixed 95% reads / 5% writes',
        `${fmt(mixed.b.rps)} req/s`,
        referenceCell(mixed.a, 'reads'),
        fmt(mixedRatio, 2),
        latencies(mixed),
        cpuOf(mixed),
        '≥ 0.40',
      ]);
      summary.push(
        `mixed 95/5: minihub ${fmt(mixed.b.rps)} req/s, ratio to bare reads ${fmt(mixedRatio, 2)}, failures ${mixed.b.failures}`,
      );
    });
  });

  await withFreshServer(ingested, work, 'writes-fsync', profile, (minihub) =>
    withServer(['test/bench/baselines.ts', 'fsync', responseFile, join(work, 'fsync.log')], async (fsync) => {
      const writes = await compare(
        LOADS,
        'writes',
        fsync,
        'fsync per write',
        minihub.served,
        'minihub',
        randomWrite,
        randomWrite,
        true,
      );
      const writeRatio = (writes.b.acknowledged ?? 0) / (writes.a.acknowledged ?? 1);
      rows.push([
        'durable writes, 32 writers',
        `${fmt(writes.b.acknowledged ?? 0)} acknowledged/s${compactionNote(minihub)}`,
        `${fmt(writes.a.acknowledged ?? 0)}/s (one fsync per write)`,
        fmt(writeRatio, 1),
        latencies(writes),
        cpuOf(writes),
        '(for scale)',
      ]);
      summary.push(
        `writes: minihub ${fmt(writes.b.acknowledged ?? 0)} acknowledged/s, one fsync per write ${fmt(writes.a.acknowledged ?? 0)}/s, ratio ${fmt(writeRatio, 1)}`,
      );
    }),
  );

  // What durable writes cost here with no GraphQL at all: how much of the gap is minihub's own.
  await withFreshServer(ingested, work, 'writes-group', profile, (minihub) =>
    withServer(['test/bench/baselines.ts', 'group', responseFile, join(work, 'group.log')], async (group) => {
      const floor = await compare(
        LOADS,
        'writes',
        group,
        'group commit, no GraphQL',
        minihub.served,
        'minihub',
        randomWrite,
        randomWrite,
        true,
      );
      const floorRatio = (floor.b.acknowledged ?? 0) / (floor.a.acknowledged ?? 1);
      rows.push([
        'durable writes against group commit without GraphQL',
        `${fmt(floor.b.acknowledged ?? 0)} acknowledged/s${compactionNote(minihub)}`,
        `${fmt(floor.a.acknowledged ?? 0)}/s (the same batching, no GraphQL)`,
        fmt(floorRatio, 2),
        latencies(floor),
        cpuOf(floor),
        '≥ 0.65; ≥ 10,000/s where the reference does ≥ 15,000/s',
      ]);
      summary.push(
        `writes: minihub ${fmt(floor.b.acknowledged ?? 0)} acknowledged/s, group commit without GraphQL ${fmt(floor.a.acknowledged ?? 0)}/s, ratio ${fmt(floorRatio, 2)}`,
      );
    }),
  );
}

/** Checks that minihub answers reads of random datasets whole, and keeps one answer's bytes for the bare server. */
async function checkReads(minihub: Served, responseFile: string): Promise<void> {
  const sample = await fetch(`${minihub.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${minihub.token}` },
    body: JSON.stringify({ query: READ, variables: { urn: datasetUrn(42) } }),
  });
  const sampleBody = Buffer.from(await sample.arrayBuffer());
  for (let i = 0; i < 50; i++) {
    const index = Math.floor(Math.random() * DATASETS);
    const body = JSON.stringify({ query: READ, variables: { urn: datasetUrn(index) } });
    const reply = (await graphql(minihub, body)) as { data: { dataset: { schemaMetadata: { fields: unknown[] } } } };
    if (reply.data.dataset.schemaMetadata.fields.length !== COLUMNS)
      throw new Error(`dataset ${index} answered wrongly`);
  }
  writeFileSync(responseFile, sampleBody);
}

/** What a write row's minihub cell adds when the log was compacted during its rounds. */
function compactionNote(server: FreshServer): string {
  return server.compacted() ? ' (a compaction ran during the rounds)' : '';
}

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
  const report = await compactionUnderLoad(dir, {
    datasets: DATASETS,
    seconds: COMPACTION_SECONDS,
    onStep: (step) => log(`  compaction under load: ${step}`),
  });
  rmSync(dir, { recursive: true, force: true });
  const server = report.server as { bytesBefore: number; bytesAfter: number; ms: number; maxMs: number; p99Ms: number };
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
  summary.push(
    `compaction under load: ${mib(server.bytesBefore)} → ${mib(server.bytesAfter)} MiB in ${fmt(server.ms)} ms; ` +
      `event-loop delay max ${fmt(server.maxMs, 1)} ms; mixed ${fmt(report.rps)} req/s, p99 ${fmt(report.p99, 1)} ms`,
  );
}

/** Start-up alone on every core: a 1,000,000-record log, then 100,000 datasets x 20 columns and their search index. */
async function startupPart(work: string): Promise<void> {
  if (!ONLY_SEARCH) {
    const logDir = join(work, 'log-1m');
    execFileSync('mkdir', ['-p', logDir]);
    await writeLog(join(logDir, 'catalogue.jsonl'), 1_000_000);
    const logMb = statSync(join(logDir, 'catalogue.jsonl')).size / 1024 / 1024;
    for (const runner of ['build', 'tsx'] as const) {
      const replay = await startup(logDir, runner, 0);
      rows.push([
        `start-up, 1,000,000-record log (${runner})`,
        `${fmt(replay.ms)} ms to first answer`,
        `${fmt(logMb)} MB log`,
        '',
        `peak RSS ${fmt(replay.peakMb)} MB`,
        '',
        '≤ 2,500 ms',
      ]);
      summary.push(`start-up 1M records (${runner}): ${fmt(replay.ms)} ms, peak RSS ${fmt(replay.peakMb)} MB`);
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
    if (!ONLY_SEARCH) await readsAndWrites(ingested, work, profile);
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
  const text = `# Benchmark results\n\nMeasured by \`npm run bench\` on ${date}, ${machine}; servers pinned to core 0, the load generator (${GENERATOR}, ${CONNECTIONS} connections; search: autocannon, which reads the answers, ${SEARCH_CONNECTIONS} connections; ${DURATION} s x ${ROUNDS} rounds per side, alternating) to core 1, after a ${WARMUP} s unmeasured warm-up of each side; the reads with the mixed load and each write row have a minihub of their own, started on a copy of the data directory as ingested (a write row whose log was compacted during its rounds says so); start-up runs alone, on every core, and its memory settles once the search index is complete (a first search answered). Search queries are words of a random bench dataset, filtered on its platform. Ratios are measured side by side in the same run. "server CPU" is the server's CPU time over the load's wall time: near 100% the server was the limit, well below it the load generator or the machine was (then the ratio flatters minihub, and a reference under 95% says so).\n\n${table}\n`;
  // A partial run never replaces the whole table.
  if (!QUICK && !ONLY_SEARCH) writeFileSync(join(ROOT, 'test/bench/RESULTS.md'), text);
  console.log(`\n${table}\n`);
  for (const line of summary) console.log(`bench ${line}`);
}

await main();
