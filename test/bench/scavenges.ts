// Young-generation garbage collection of a server under load, read from its `--trace-gc-nvp` lines on
// stdout: how many scavenges, how long they held the thread, and how much survived them into the old
// generation. For A/B runs of request paths (test/bench/ab.ts --gc); it never changes what it watches.

import type { ChildProcess } from 'node:child_process';

/** What the scavenges of one stretch of time cost. */
export interface ScavengeSummary {
  count: number;
  /** Milliseconds the main thread was held by them. */
  pauseMs: number;
  /** Bytes that survived into the old generation. */
  promoted: number;
  /** Bytes allocated in the young generation. */
  allocated: number;
}

/** The fields of one `--trace-gc-nvp` scavenge line (`gc=s`), or null for any other line. */
export function parseScavenge(line: string): ScavengeSummary | null {
  if (!/\bgc=s\b/.test(line)) return null;
  const field = (name: string): number => Number(new RegExp(`\\b${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
  return { count: 1, pauseMs: field('pause'), promoted: field('promoted'), allocated: field('allocated') };
}

/** Collects a server's scavenges from its stdout (started with --trace-gc-nvp); `take()` returns those since the last take. */
export function watchScavenges(child: ChildProcess): { take(): ScavengeSummary } {
  let pending = '';
  let since: ScavengeSummary = { count: 0, pauseMs: 0, promoted: 0, allocated: 0 };
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const scavenge = parseScavenge(line);
      if (scavenge === null) continue;
      since = {
        count: since.count + 1,
        pauseMs: since.pauseMs + scavenge.pauseMs,
        promoted: since.promoted + scavenge.promoted,
        allocated: since.allocated + scavenge.allocated,
      };
    }
  });
  return {
    take() {
      const taken = since;
      since = { count: 0, pauseMs: 0, promoted: 0, allocated: 0 };
      return taken;
    },
  };
}

/** One line for a round of `answers` answers over `seconds`. */
export function describeScavenges(
  { count, pauseMs, promoted, allocated }: ScavengeSummary,
  answers: number,
  seconds: number,
): string {
  const perAnswer = (bytes: number) => (answers === 0 ? 0 : Math.round(bytes / answers));
  return (
    `scavenges: ${count}, ${(pauseMs / seconds / 10).toFixed(1)}% of the time paused, ` +
    `promoted ${(promoted / seconds / 1e6).toFixed(1)} MB/s (${perAnswer(promoted)} B per answer), ` +
    `allocated ${(allocated / seconds / 1e6).toFixed(0)} MB/s (${perAnswer(allocated)} B per answer)`
  );
}
