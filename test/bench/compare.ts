// Side-by-side loads of `npm run bench`: minihub against a reference server, alternating round by round
// after an unmeasured warm-up of each, and how the figures are printed. Starts no server itself.

import { fmt, load, log, meanOf, type Measured, type Served } from './harness.ts';

/** Connections, and seconds of each round and of the warm-up. */
export interface Loads {
  connections: number;
  duration: number;
  warmup: number;
  rounds: number;
}

/** p50 / p99 of minihub, then of the reference server. */
export function latencies(pair: { a: Measured; b: Measured }): string {
  return `${fmt(pair.b.p50, 1)} / ${fmt(pair.b.p99, 1)} ms; ${fmt(pair.a.p50, 1)} / ${fmt(pair.a.p99, 1)} ms`;
}

/** "minihub / reference" CPU use during the loads, as a share of one core. */
export function cpuOf(pair: { a: Measured; b: Measured }): string {
  return `${fmt(pair.b.cpu * 100)}% / ${fmt(pair.a.cpu * 100)}%`;
}

/** Below this share of its core, the reference server was held back by the load generator or the machine. */
export const SATURATED = 0.95;

/**
 * A read figure's reference cell, `notes` in parentheses, and a note when the reference server was not
 * the limit of its rounds: then its throughput is understated and the ratio flatters minihub, and the figure says so.
 */
export function referenceCell(reference: Measured, ...notes: string[]): string {
  if (reference.cpu < SATURATED)
    notes.push(
      `reference at ${fmt(reference.cpu * 100)}% of its core, under ${fmt(SATURATED * 100)}%: the ratio flatters minihub`,
    );
  return `${fmt(reference.rps)} req/s${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
}

/** One round as logged: throughput and the server's share of its core. */
function roundOf(run: Measured | undefined, writes: boolean): string {
  if (run === undefined) return '';
  const rate = writes ? `${fmt(run.acknowledged ?? 0)} acknowledged/s` : `${fmt(run.rps)} req/s`;
  return `${rate}, server at ${fmt(run.cpu * 100)}% of its core`;
}

export async function compare(
  loads: Loads,
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
  const options = { connections: loads.connections, duration: loads.duration, countAcknowledged: writes };
  // Unmeasured warm-up of each side, as in the reference measurements: JIT, caches, connection pools.
  await load(a, bodyA, { ...options, duration: loads.warmup });
  await load(b, bodyB, { ...options, duration: loads.warmup });
  for (let round = 1; round <= loads.rounds; round++) {
    runsA.push(await load(a, bodyA, options));
    log(`  ${name} ${aLabel} round ${round}: ${roundOf(runsA.at(-1), writes)}`);
    runsB.push(await load(b, bodyB, options));
    log(`  ${name} ${bLabel} round ${round}: ${roundOf(runsB.at(-1), writes)}`);
  }
  return { a: meanOf(runsA), b: meanOf(runsB) };
}
