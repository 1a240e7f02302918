// `npx tsx test/bench/big-catalogue.ts [--mib 600]`: proves that a catalogue whose live state exceeds
// V8's 512 MiB string cap compacts, exports and ingests. It streams out a generated log, then runs
// `compact`, `export --out`, `ingest` of that export and `export` to stdout of the copy through the CLI,
// and prints time, sizes and each child's peak RSS. Too slow for the suite; it removes what it wrote.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { tableSchema } from './catalogue.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = ['--import', 'tsx', 'src/cli.ts'];
const { values: options } = parseArgs({
  options: {
    mib: { type: 'string', default: '600' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const TARGET_BYTES = Number(options.mib) * 1024 * 1024;
const COLUMNS = 40;
const DATASETS_PER_LINE = 20;
const MiB = 1024 * 1024;

function datasetChanges(index: number): { urn: string; aspect: string; value: unknown }[] {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:postgres,big.public.table_${index},PROD)`;
  return [
    {
      urn,
      aspect: 'datasetProperties',
      value: {
        name: `table_${index}`,
        description: `Table ${index} of the big catalogue.`,
        customProperties: { team: `team_${index % 50}` },
      },
    },
    {
      urn,
      aspect: 'schemaMetadata',
      value: tableSchema(
        index,
        COLUMNS,
        (column) => `Column ${column} of table ${index}: what it holds, where it comes from, and who to ask — ✓.`,
      ),
    },
    { urn, aspect: 'editableDatasetProperties', value: { description: `A first draft for table ${index}.` } },
  ];
}

/** Streams a log of datasets until its live state passes TARGET_BYTES, then edits every description once (superseding lines). */
async function writeBigLog(path: string): Promise<{ datasets: number; bytes: number }> {
  const out = createWriteStream(path);
  let seq = 0;
  let bytes = 0;
  const write = async (changes: unknown[]) => {
    const line =
      JSON.stringify({
        seq: ++seq,
        time: 1_700_000_000_000 + seq,
        actor: 'urn:li:corpuser:datahub',
        op: 'ingest',
        changes,
      }) + '\n';
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  let datasets = 0;
  while (bytes < TARGET_BYTES) {
    const changes = [];
    for (let i = 0; i < DATASETS_PER_LINE; i++) changes.push(...datasetChanges(datasets++));
    await write(changes);
  }
  for (let index = 0; index < datasets; index += DATASETS_PER_LINE) {
    const changes = [];
    for (let i = index; i < Math.min(datasets, index + DATASETS_PER_LINE); i++) {
      changes.push({
        urn: `urn:li:dataset:(urn:li:dataPlatform:postgres,big.public.table_${i},PROD)`,
        aspect: 'editableDatasetProperties',
        value: { description: `Table ${i}, edited.` },
      });
    }
    await write(changes);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { datasets, bytes };
}

interface Run {
  code: number | null;
  seconds: number;
  peakRssMiB: number;
  stdout: string;
  stderr: string;
  stdoutSha256: string;
  stdoutBytes: number;
}

/** Runs the CLI, hashing its stdout as it arrives (never kept whole) and polling its peak RSS. */
function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const hash = createHash('sha256');
    let stdoutBytes = 0;
    let head = '';
    let stderr = '';
    let peakKiB = 0;
    const poll = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match !== null) peakKiB = Math.max(peakKiB, Number(match[1]));
      } catch {
        // Gone already, or not Linux.
      }
    };
    const timer = setInterval(poll, 100);
    child.stdout.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      stdoutBytes += chunk.length;
      if (head.length < 2000) head += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'exit' comes before the zombie is reaped: one last look at its peak.
    child.on('exit', poll);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({
        code,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        peakRssMiB: peakKiB / 1024,
        stdout: head,
        stderr,
        stdoutSha256: hash.digest('hex'),
        stdoutBytes,
      });
    });
  });
}

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

function check(run: Run, what: string): void {
  if (run.code !== 0) throw new Error(`${what} failed (exit ${run.code}): ${run.stderr.slice(0, 2000)}`);
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
const figures = (run: Run) => `${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMiB.toFixed(0)} MiB`;

const base = options.dir ?? mkdtempSync(join(tmpdir(), 'minihub-big-'));
mkdirSync(base, { recursive: true });
const dataDir = join(base, 'data');
const copyDir = join(base, 'copy');
const exported = join(base, 'export.json');
mkdirSync(dataDir, { recursive: true });
try {
  const started = Date.now();
  const log = await writeBigLog(join(dataDir, 'catalogue.jsonl'));
  console.log(
    `generated: ${log.datasets} datasets x ${COLUMNS} columns, log ${mib(log.bytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const compact = await runCli(['compact', '--data', dataDir]);
  check(compact, 'compact');
  const compacted = statSync(join(dataDir, 'catalogue.jsonl')).size;
  console.log(
    `compact:   ${mib(log.bytes)} → ${mib(compacted)} (${compacted} bytes, ${compacted > 512 * MiB ? 'over' : 'UNDER'} the 512 MiB cap), ${figures(compact)}`,
  );

  const exportRun = await runCli(['export', '--data', dataDir, '--out', exported]);
  check(exportRun, 'export');
  const exportBytes = statSync(exported).size;
  console.log(
    `export:    ${mib(exportBytes)} file (${exportBytes} bytes), ${figures(exportRun)}; ${exportRun.stdout.trim()}`,
  );

  const ingestRun = await runCli(['ingest', exported, '--data', copyDir]);
  check(ingestRun, 'ingest');
  console.log(`ingest:    ${figures(ingestRun)}; ${ingestRun.stdout.trim().split('\n').at(-1)?.trim()}`);

  const again = await runCli(['export', '--data', copyDir]);
  check(again, 'export of the copy');
  const same = again.stdoutSha256 === (await sha256Of(exported));
  console.log(
    `re-export: ${mib(again.stdoutBytes)} to stdout, ${figures(again)}; ${same ? 'byte-identical to the first export' : 'DIFFERS from the first export'}`,
  );
  if (!same) process.exitCode = 1;
} finally {
  if (options.keep !== true) rmSync(base, { recursive: true, force: true });
  else console.log(`kept ${base}`);
}
