// What every part of `npm run bench` shares: spawning and pinning servers, loading them with wrk (or
// autocannon) while counting their CPU time, reading their memory, and number formatting. Measures nothing itself.

import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { hasWrk, wrkLoad } from './wrk.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Served {
  url: string;
  token: string;
  child: ChildProcess;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** The server's CPU time over the load's wall time: near 1.0, the server was the limit; well below, the load generator was. */
  cpu: number;
  acknowledged?: number;
}

export function pin(pid: number, core: number | string): void {
  try {
    execFileSync('taskset', ['-pc', String(core), String(pid)], { stdio: 'ignore' });
  } catch {
    // Without taskset the figures are noisier, not wrong: both sides share the cores alike.
  }
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// As `npm start` runs node: a young generation of 32 MB per semi-space (V8's default is 16) halves the
// scavenges under load (measured +5-12% durable writes and more on the mixed load), and node's own code on
// large pages where Linux offers them. Unlike `npm start`, single-threaded garbage collection: each server
// here is confined to one core, where V8's helper threads can only take turns with the one serving (the
// compaction row's p99 16-18 against 22-30 ms alternated, 22-34 ms in two later runs with it;
// test/bench/NOTES.md). Every server, references included.
export const NODE_FLAGS = ['--max-semi-space-size=32', '--use-largepages=silent', '--single-threaded-gc'];

/** minihub's address and root token from its banner, once the banner is whole (its `try` line); else null. */
export function bannerOf(out: string): { url: string; token: string } | null {
  const minihub = /^minihub listening on (\S+)$/m.exec(out);
  if (minihub === null || !/^ {2}try /m.test(out)) return null;
  return { url: minihub[1] as string, token: /^ {10}(eyJ\S+)$/m.exec(out)?.[1] ?? '' };
}

/** Spawns a server with node (tsx loaded, then `nodeArgs`) pinned to core 0, and resolves once it prints its address. */
export function serve(args: string[], nodeArgs: string[] = []): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, ...nodeArgs, '--import', 'tsx', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pin(child.pid as number, 0);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const minihub = bannerOf(out);
      const bare = /listening on (\{.*\})/.exec(out);
      if (minihub !== null) {
        resolve({ ...minihub, child });
      } else if (bare !== null) {
        const { port } = JSON.parse(bare[1] as string) as { port: number };
        resolve({ url: `http://127.0.0.1:${port}`, token: '', child });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** Runs `use` with a server spawned as serve() spawns it, and stops the server whatever happens. */
export async function withServer<T>(
  args: string[],
  use: (served: Served) => Promise<T>,
  nodeArgs: string[] = [],
): Promise<T> {
  const served = await serve(args, nodeArgs);
  try {
    return await use(served);
  } finally {
    await stop(served.child);
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU seconds the process has used so far (user + system), from /proc; 0 where there is no /proc. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface LoadOptions {
  connections: number;
  /** Seconds. */
  duration: number;
  /** Count whole 200 answers without errors (acknowledged writes), per second. */
  countAcknowledged?: boolean;
  /** Sees every answer's body (e.g. to count search hits): autocannon only, it hands answers to JavaScript. */
  onAnswer?: (status: number, body: string) => void;
  /** Which load generator; by default wrk where it is installed and no answer is read here. */
  generator?: Generator;
}

export type Generator = 'wrk' | 'autocannon';

/**
 * wrk where it is installed: autocannon spends more CPU per request than the bare server it loads
 * (about 42 µs against 26-32 µs, measured with `test/bench/load-generators.ts`), so on one core it holds
 * that server below its core's limit; wrk spends about 22 µs. autocannon stays for loads that read answers.
 */
export function generatorOf(options: Pick<LoadOptions, 'onAnswer' | 'generator'>): Generator {
  return options.generator ?? (options.onAnswer === undefined && hasWrk() ? 'wrk' : 'autocannon');
}

/** A load against minihub's GraphQL endpoint, each request's body from `body()`, with the server's CPU share. */
export async function load(target: Served, body: () => string, options: LoadOptions): Promise<Measured> {
  const cpuBefore = cpuSeconds(target.child.pid as number);
  const wallBefore = performance.now();
  const measured =
    generatorOf(options) === 'wrk'
      ? await wrkLoad(`${target.url}/api/graphql`, target.token, body, {
          connections: options.connections,
          duration: options.duration,
          count: options.countAcknowledged === true,
        })
      : await autocannonLoad(target, body, options);
  const cpu = (cpuSeconds(target.child.pid as number) - cpuBefore) / ((performance.now() - wallBefore) / 1000);
  const { acknowledged, ...rest } = measured;
  return { ...rest, cpu, ...(options.countAcknowledged === true ? { acknowledged } : {}) };
}

async function autocannonLoad(
  target: Served,
  body: () => string,
  options: LoadOptions,
): Promise<Omit<Measured, 'cpu'> & { acknowledged: number }> {
  let acknowledged = 0;
  const { countAcknowledged = false, onAnswer, duration } = options;
  const result = await autocannon({
    url: `${target.url}/api/graphql`,
    connections: options.connections,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
    requests: [
      {
        setupRequest: (request) => ({ ...request, body: body() }),
        // An acknowledged write is a whole 200 answer without errors.
        onResponse:
          countAcknowledged || onAnswer !== undefined
            ? (status, text) => {
                if (countAcknowledged && status === 200 && !text.includes('"errors"')) acknowledged++;
                onAnswer?.(status, text);
              }
            : undefined,
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    acknowledged: acknowledged / duration,
  };
}

/** Rounds of one load as one figure: mean throughput, p50 and CPU, the worst p99, every failure. */
export function meanOf(runs: readonly Measured[]): Measured {
  const mean = (pick: (run: Measured) => number) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  return {
    rps: mean((run) => run.rps),
    p50: mean((run) => run.p50),
    p99: Math.max(...runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    cpu: mean((run) => run.cpu),
    ...(runs.every((run) => run.acknowledged !== undefined)
      ? { acknowledged: mean((run) => run.acknowledged ?? 0) }
      : {}),
  };
}

/** One GraphQL POST to minihub; its parsed answer. */
export async function graphql(target: { url: string; token: string }, body: string): Promise<unknown> {
  const reply = await fetch(`${target.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
    body,
  });
  return reply.json();
}

/** A memory figure of /proc/PID/status in MB: VmHWM is the peak RSS, VmRSS the current one. */
export function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** The value at quantile `q` (0..1) of `values`, sorted here. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Runs node with `args` to the end, sampling its peak RSS (VmHWM); resolves with it in MB and the wall time. */
export function runSampled(args: string[]): Promise<{ peakMb: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    let peakMb = 0;
    const sample = setInterval(() => {
      try {
        peakMb = Math.max(peakMb, memoryMb(child.pid as number, 'VmHWM'));
      } catch {
        // Exited between two samples.
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(sample);
      if (code === 0) resolve({ peakMb, ms: performance.now() - started });
      else reject(new Error(`${args.join(' ')} exited with ${code}`));
    });
  });
}
