// `npm run bench`: minihub side by side with a bare node:http server (reads, mixed load) and with one
// fsync per write (durable writes), plus start-up time and memory for large logs and catalogues.
// Servers run pinned to core 0, the load generator to core 1; ratios matter, not absolute numbers.

import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { datasetUrn, writeCatalogueFiles, writeLog } from './catalogue.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    datasets: { type: 'string', default: '10000' },
    quick: { type: 'boolean', default: false },
    'skip-startup': { type: 'boolean', default: false },
  },
});
const QUICK = options.quick === true;
const DURATION = QUICK ? 3 : Number(options.duration);
const ROUNDS = QUICK ? 1 : Number(options.rounds);
const CONNECTIONS = Number(options.connections);
const WARMUP = 3;
const DATASETS = Number(options.datasets);
const COLUMNS = 20;

const READ =
  'query getDataset($urn: String!) { dataset(urn: $urn) { urn properties { description } schemaMetadata { fields { fieldPath description } } } }';
const WRITE = 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';

interface Served {
  url: string;
  token: string;
  child: ChildProcess;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** The server's CPU time over the load's wall time: near 1.0, the server was the limit; well below, the load generator was. */
  cpu: number;
  acknowledged?: number;
}

const rows: string[][] = [];
const summary: string[] = [];

function pin(pid: number, core: number | string): void {
  try {
    execFileSync('taskset', ['-pc', String(core), String(pid)], { stdio: 'ignore' });
  } catch {
    // Without taskset the figures are noisier, not wrong: both sides share the cores alike.
  }
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// As `npm start` runs node: a young generation of 32 MB per semi-space (V8's default is 16) halves the
// scavenges under load; measured +5-12% durable writes and more on the mixed load. Every server gets it.
const NODE_FLAGS = ['--max-semi-space-size=32'];

/** Spawns a server with node (tsx loaded) and resolves once it prints its address. */
function serve(args: string[]): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pin(child.pid as number, 0);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const minihub = /^minihub listening on (\S+)$/m.exec(out);
      const bare = /listening on (\{.*\})/.exec(out);
      if (minihub !== null && /^ {2}try /m.test(out)) {
        resolve({ url: minihub[1] as string, token: /^ {10}(eyJ\S+)$/m.exec(out)?.[1] ?? '', child });
      } else if (bare !== null) {
        const { port } = JSON.parse(bare[1] as string) as { port: number };
        resolve({ url: `http://127.0.0.1:${port}`, token: '', child });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function randomRead(): string {
  return JSON.stringify({ query: READ, variables: { urn: datasetUrn(Math.floor(Math.random() * DATASETS)) } });
}

let writeCount = 0;
function randomWrite(): string {
  const input = {
    description: `edited ${++writeCount}`,
    resourceUrn: datasetUrn(Math.floor(Math.random() * DATASETS)),
    subResource: `column_${Math.floor(Math.random() * COLUMNS)}`,
    subResourceType: 'DATASET_FIELD',
  };
  return JSON.stringify({ query: WRITE, variables: { input } });
}

/** CPU seconds the process has used so far (user + system), from /proc; 0 where there is no /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function load(
  target: Served,
  body: () => string,
  countAcknowledged = false,
  duration = DURATION,
): Promise<Measured> {
  let acknowledged = 0;
  const cpuBefore = cpuSeconds(target.child.pid as number);
  const wallBefore = performance.now();
  const result = await autocannon({
    url: `${target.url}/api/graphql`,
    connections: CONNECTIONS,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
    requests: [
      {
        setupRequest: (request) => ({ ...request, body: body() }),
        // An acknowledged write is a whole 200 answer without errors.
        onResponse: countAcknowledged
          ? (status, text) => {
              if (status === 200 && !text.includes('"errors"')) acknowledged++;
            }
          : undefined,
      },
    ],
  });
  const cpu = (cpuSeconds(target.child.pid as number) - cpuBefore) / ((performance.now() - wallBefore) / 1000);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpu,
    ...(countAcknowledged ? { acknowledged: acknowledged / duration } : {}),
  };
}

/** p50 / p99 of minihub, then of the reference server. */
function latencies(pair: { a: Measured; b: Measured }): string {
  return `${fmt(pair.b.p50, 1)} / ${fmt(pair.b.p99, 1)} ms; ${fmt(pair.a.p50, 1)} / ${fmt(pair.a.p99, 1)} ms`;
}

/** "minihub / reference" CPU use during the loads, as a share of one core. */
function cpuOf(pair: { a: Measured; b: Measured }): string {
  return `${fmt(pair.b.cpu * 100)}% / ${fmt(pair.a.cpu * 100)}%`;
}

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

async function compare(
  name: string,
  a: Served,
  aLabel: string,
  b: Served,
  bLabel: string,
  bodyA: () => string,
  bodyB: () => string,
  writes = false,
): Promise<{ a: Measured; b: Measured }> {
  const runsA: Measured[] = [];
  const runsB: Measured[] = [];
  // Unmeasured warm-up of each side, as in the reference measurements: JIT, caches, connection pools.
  await load(a, bodyA, writes, WARMUP);
  await load(b, bodyB, writes, WARMUP);
  for (let round = 1; round <= ROUNDS; round++) {
    runsA.push(await load(a, bodyA, writes));
    log(`  ${name} ${aLabel} round ${round}: ${fmt(runsA.at(-1)?.rps ?? 0)} req/s`);
    runsB.push(await load(b, bodyB, writes));
    log(`  ${name} ${bLabel} round ${round}: ${fmt(runsB.at(-1)?.rps ?? 0)} req/s`);
  }
  const mean = (runs: Measured[]): Measured => ({
    rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length,
    p50: runs.reduce((sum, run) => sum + run.p50, 0) / runs.length,
    p99: Math.max(...runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    cpu: runs.reduce((sum, run) => sum + run.cpu, 0) / runs.length,
    acknowledged: runs.every((run) => run.acknowledged !== undefined)
      ? runs.reduce((sum, run) => sum + (run.acknowledged ?? 0), 0) / runs.length
      : undefined,
  });
  return { a: mean(runsA), b: mean(runsB) };
}

/** A memory figure of /proc/PID/status in MB: VmHWM is the peak RSS, VmRSS the current one. */
function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

/** How the CLI is started: compiled (what an installed package runs) or from the sources through tsx (a checkout). */
const RUNNERS = { build: ['dist/cli.js'], tsx: ['--import', 'tsx', 'src/cli.ts'] } as const;

/** Spawns `serve` on `dataDir` and measures spawn → first answered request, peak RSS, and RSS once settled. */
async function startup(
  dataDir: string,
  runner: keyof typeof RUNNERS,
): Promise<{ ms: number; peakMb: number; settledMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...RUNNERS[runner], 'serve', '--port', '0', '--data', dataDir, '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Every core (a child inherits this process's pinning): no load runs meanwhile, so the server may use
  // the whole machine, as it would when started.
  pin(child.pid as number, `0-${cpus().length - 1}`);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^minihub listening on (\S+)$/m.exec(out);
      if (match !== null) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const ms = performance.now() - started;
  const peakMb = memoryMb(child.pid as number, 'VmHWM');
  // The replay's garbage is collected while the server idles; what stays is what the catalogue costs.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const settledMb = memoryMb(child.pid as number, 'VmRSS');
  await stop(child);
  return { ms, peakMb, settledMb };
}

async function main(): Promise<void> {
  pin(process.pid, 1);
  const work = mkdtempSync(join(tmpdir(), 'minihub-bench-'));
  try {
    log(
      `bench: ${DATASETS} datasets x ${COLUMNS} columns, ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds each side, in ${work}`,
    );
    // Start-up is measured from the compiled package as well as through tsx: build it first.
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
    const files = await writeCatalogueFiles(work, DATASETS, COLUMNS);
    const dataDir = join(work, 'data');
    const ingestStart = performance.now();
    execFileSync(process.execPath, [...RUNNERS.tsx, 'ingest', ...files, '--data', dataDir], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    log(`  ingested in ${fmt((performance.now() - ingestStart) / 1000, 1)} s`);

    const minihub = await serve(['src/cli.ts', 'serve', '--port', '0', '--data', dataDir, '--quiet']);
    // The bare server answers exactly the bytes minihub answers for one dataset.
    const sample = await fetch(`${minihub.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${minihub.token}` },
      body: JSON.stringify({ query: READ, variables: { urn: datasetUrn(42) } }),
    });
    const sampleBody = Buffer.from(await sample.arrayBuffer());
    for (let i = 0; i < 50; i++) {
      const index = Math.floor(Math.random() * DATASETS);
      const reply = (await (
        await fetch(`${minihub.url}/api/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${minihub.token}` },
          body: JSON.stringify({ query: READ, variables: { urn: datasetUrn(index) } }),
        })
      ).json()) as { data: { dataset: { schemaMetadata: { fields: unknown[] } } } };
      if (reply.data.dataset.schemaMetadata.fields.length !== COLUMNS)
        throw new Error(`dataset ${index} answered wrongly`);
    }
    const responseFile = join(work, 'response.json');
    writeFileSync(responseFile, sampleBody);
    const bare = await serve(['test/bench/baselines.ts', 'bare', responseFile]);

    const reads = await compare('reads', bare, 'bare', minihub, 'minihub', randomRead, randomRead);
    const readRatio = reads.b.rps / reads.a.rps;
    rows.push([
      'random reads',
      `${fmt(reads.b.rps)} req/s`,
      `${fmt(reads.a.rps)} req/s`,
      fmt(readRatio, 2),
      latencies(reads),
      cpuOf(reads),
      '≥ 0.60, p99 ≤ 5 ms',
    ]);
    summary.push(
      `reads: minihub ${fmt(reads.b.rps)} req/s, bare ${fmt(reads.a.rps)} req/s, ratio ${fmt(readRatio, 2)}, p99 ${fmt(reads.b.p99, 1)} ms, failures ${reads.b.failures}`,
    );

    const mixedBody = () => (Math.random() < 0.05 ? randomWrite() : randomRead());
    const mixed = await compare('mixed 95/5', bare, 'bare', minihub, 'minihub', randomRead, mixedBody);
    const mixedRatio = mixed.b.rps / mixed.a.rps;
    rows.push([
      'mixed 95% reads / 5% writes',
      `${fmt(mixed.b.rps)} req/s`,
      `${fmt(mixed.a.rps)} req/s (reads)`,
      fmt(mixedRatio, 2),
      latencies(mixed),
      cpuOf(mixed),
      '≥ 0.40',
    ]);
    summary.push(
      `mixed 95/5: minihub ${fmt(mixed.b.rps)} req/s, ratio to bare reads ${fmt(mixedRatio, 2)}, failures ${mixed.b.failures}`,
    );
    await stop(bare.child);

    const fsync = await serve(['test/bench/baselines.ts', 'fsync', responseFile, join(work, 'fsync.log')]);
    const writes = await compare(
      'writes',
      fsync,
      'fsync per write',
      minihub,
      'minihub',
      randomWrite,
      randomWrite,
      true,
    );
    const writeRatio = (writes.b.acknowledged ?? 0) / (writes.a.acknowledged ?? 1);
    rows.push([
      'durable writes, 32 writers',
      `${fmt(writes.b.acknowledged ?? 0)} acknowledged/s`,
      `${fmt(writes.a.acknowledged ?? 0)}/s (one fsync per write)`,
      fmt(writeRatio, 1),
      latencies(writes),
      cpuOf(writes),
      '≥ 10,000/s and ≥ 5x',
    ]);
    summary.push(
      `writes: minihub ${fmt(writes.b.acknowledged ?? 0)} acknowledged/s, one fsync per write ${fmt(writes.a.acknowledged ?? 0)}/s, ratio ${fmt(writeRatio, 1)}`,
    );
    await stop(fsync.child);

    // What durable writes cost here with no GraphQL at all: how much of the gap is minihub's own.
    const group = await serve(['test/bench/baselines.ts', 'group', responseFile, join(work, 'group.log')]);
    const floor = await compare(
      'writes',
      group,
      'group commit, no GraphQL',
      minihub,
      'minihub',
      randomWrite,
      randomWrite,
      true,
    );
    const floorRatio = (floor.b.acknowledged ?? 0) / (floor.a.acknowledged ?? 1);
    rows.push([
      'durable writes against group commit without GraphQL',
      `${fmt(floor.b.acknowledged ?? 0)} acknowledged/s`,
      `${fmt(floor.a.acknowledged ?? 0)}/s (the same batching, no GraphQL)`,
      fmt(floorRatio, 2),
      latencies(floor),
      cpuOf(floor),
      '(for scale)',
    ]);
    summary.push(
      `writes: minihub ${fmt(floor.b.acknowledged ?? 0)} acknowledged/s, group commit without GraphQL ${fmt(floor.a.acknowledged ?? 0)}/s, ratio ${fmt(floorRatio, 2)}`,
    );
    await stop(group.child);
    await stop(minihub.child);

    if (options['skip-startup'] !== true && !QUICK) {
      const logDir = join(work, 'log-1m');
      execFileSync('mkdir', ['-p', logDir]);
      await writeLog(join(logDir, 'catalogue.jsonl'), 1_000_000);
      const logMb = statSync(join(logDir, 'catalogue.jsonl')).size / 1024 / 1024;
      for (const runner of ['build', 'tsx'] as const) {
        const replay = await startup(logDir, runner);
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

      const bigDir = join(work, 'big');
      const bigFiles = await writeCatalogueFiles(join(work), 100_000, COLUMNS, 10_000);
      const bigIngest = performance.now();
      execFileSync(process.execPath, [...RUNNERS.build, 'ingest', ...bigFiles, '--data', bigDir], {
        cwd: ROOT,
        stdio: 'ignore',
      });
      log(`  ingested 100,000 x 20 in ${fmt((performance.now() - bigIngest) / 1000, 1)} s`);
      const bigMb = statSync(join(bigDir, 'catalogue.jsonl')).size / 1024 / 1024;
      for (const runner of ['build', 'tsx'] as const) {
        const big = await startup(bigDir, runner);
        rows.push([
          `start-up, 100,000 datasets x 20 columns (${runner})`,
          `${fmt(big.ms)} ms to first answer`,
          `${fmt(bigMb)} MB log, every record live`,
          '',
          `peak RSS ${fmt(big.peakMb)} MB; settled ${fmt(big.settledMb)} MB = ${fmt(big.settledMb / bigMb, 2)}x the log`,
          '',
          '≤ 5,000 ms, ≤ 1,536 MB; memory ≤ ~2x the live log',
        ]);
        summary.push(
          `start-up 100k x 20 (${runner}): ${fmt(big.ms)} ms, peak RSS ${fmt(big.peakMb)} MB, settled RSS ${fmt(big.settledMb)} MB for a ${fmt(bigMb)} MB log`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  report();
}

function report(): void {
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`;
  const date = new Date().toISOString().slice(0, 10);
  const table = [
    '| figure | minihub | reference | ratio | p50 / p99, minihub; reference | server CPU, minihub / reference | goal |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  const text = `# Benchmark results\n\nMeasured by \`npm run bench\` on ${date}, ${machine}; servers pinned to core 0, the load generator (autocannon, ${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds per side, alternating) to core 1, after a ${WARMUP} s unmeasured warm-up of each side; start-up runs alone, on every core. Ratios are measured side by side in the same run. "server CPU" is the server's CPU time over the load's wall time: near 100% the server was the limit, well below it the load generator was (then the ratio flatters minihub).\n\n${table}\n`;
  if (!QUICK) writeFileSync(join(ROOT, 'test/bench/RESULTS.md'), text);
  console.log(`\n${table}\n`);
  for (const line of summary) console.log(`bench ${line}`);
}

await main();
