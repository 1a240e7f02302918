// minihub's own timers and clock: node:timers' and node:perf_hooks', never the globals that a test suite's fake
// timers (jest's, vitest's, sinon's) replace or stop, since minihub runs inside such suites and its waits and
// slices must still end there. Timestamps written into the catalogue are not timing: they follow Date.now().

import { setTimeout } from 'node:timers';

export { performance } from 'node:perf_hooks';
export { clearTimeout, setImmediate, setTimeout } from 'node:timers';

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
