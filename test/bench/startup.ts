// Start-up figures of `npm run bench`: spawns `serve` on a data directory alone on every core and times
// the first answer, then the first search answer (the search index is complete), then memory once settled.

import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

import { bannerOf, memoryMb, pin, ROOT, stop } from './harness.ts';
import { sequentialSearches, waitForIndex } from './search-bench.ts';

/** How the CLI is started: compiled (what an installed package runs) or from the sources through tsx (a checkout). */
export const RUNNERS = { build: ['dist/cli.js'], tsx: ['--import', 'tsx', 'src/cli.ts'] } as const;

export interface Started {
  /** Spawn → first answered request. */
  ms: number;
  /** Spawn → first search answered, sent right after the first answer: a search waits for the index build. */
  indexMs: number;
  peakMb: number;
  /** RSS 3 s after the index is complete: what the catalogue and its index cost. */
  settledMb: number;
  /** One-word searches one after another once settled, when asked for. */
  search?: { p50: number; p99: number; hits: number; cpu: number };
}

/**
 * Spawns `serve` on `dataDir` (of `datasets` bench datasets) and measures it; `searches` one-word searches at
 * the end. Without `settle`, settledMb is what the process holds right after its index is complete.
 */
export async function startup(
  dataDir: string,
  runner: keyof typeof RUNNERS,
  datasets: number,
  searches = 0,
  settle = true,
): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, [...RUNNERS[runner], 'serve', '--port', '0', '--data', dataDir, '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Every core (a child inherits this process's pinning): no load runs meanwhile, so the server may use
  // the whole machine, as it would when started.
  pin(child.pid as number, `0-${cpus().length - 1}`);
  try {
    let out = '';
    const banner = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = bannerOf(out);
        if (found !== null) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    while ((await fetch(`${banner.url}/health`).catch(() => null))?.status !== 200)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const ms = performance.now() - started;
    const peakMb = memoryMb(child.pid as number, 'VmHWM');
    await waitForIndex(banner);
    const indexMs = performance.now() - started;
    // The replay's and the build's garbage is collected while the server idles; what stays is what the catalogue costs.
    if (settle) await new Promise((resolve) => setTimeout(resolve, 3000));
    const settledMb = memoryMb(child.pid as number, 'VmRSS');
    const search = searches > 0 ? await sequentialSearches({ ...banner, child }, datasets, searches) : undefined;
    return { ms, indexMs, peakMb, settledMb, ...(search === undefined ? {} : { search }) };
  } finally {
    await stop(child);
  }
}

/**
 * Starts on `dataDir` `rounds` times per runner, the runners alternated (on a shared machine one start can
 * be a few hundred milliseconds off): each runner's starts by time to first answer, the median in the middle.
 */
export async function alternatedStarts<R extends keyof typeof RUNNERS>(
  dataDir: string,
  runners: readonly R[],
  rounds: number,
): Promise<Map<R, Started[]>> {
  const starts = new Map<R, Started[]>(runners.map((runner) => [runner, []]));
  for (let round = 0; round < rounds; round++)
    for (const runner of runners) starts.get(runner)?.push(await startup(dataDir, runner, 0, 0, false));
  for (const list of starts.values()) list.sort((a, b) => a.ms - b.ms);
  return starts;
}
