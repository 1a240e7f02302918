// What held the event loop or a write during a measured stretch, with times from its start: turns of
// the event loop more than STALL_MS apart, and commits slower than SLOW_COMMIT_MS. Bench code only.

import type { Store } from '../../src/store/store.ts';

export const STALL_MS = 40;
export const SLOW_COMMIT_MS = 100;

/** Watches for event-loop turns over STALL_MS apart; the returned function stops and lists them as `start+length` from `origin`. */
export function watchStalls(): (origin: number) => string[] {
  const stalls: [number, number][] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > STALL_MS) stalls.push([last, now - last]);
    last = now;
  }, 1);
  return (origin) => {
    clearInterval(timer);
    return stalls.map(([at, ms]) => `${Math.round(at - origin)}+${Math.round(ms)}`);
  };
}

/** Times every commit of `store` from now on; the returned function stops and gives the latencies and the slow ones from `origin`. */
export function timeCommits(store: Store): (origin: number) => { latencies: number[]; slow: string[] } {
  const commit = store.commit.bind(store);
  const timed: [number, number][] = [];
  store.commit = async (...args: Parameters<Store['commit']>) => {
    const started = performance.now();
    try {
      return await commit(...args);
    } finally {
      timed.push([started, performance.now() - started]);
    }
  };
  return (origin) => {
    store.commit = commit;
    return {
      latencies: timed.map(([, ms]) => ms),
      slow: timed
        .filter(([, ms]) => ms > SLOW_COMMIT_MS)
        .map(([at, ms]) => `${Math.round(at - origin)}+${Math.round(ms)}`),
    };
  };
}
