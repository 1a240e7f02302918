// Waiting for the next turn of the event loop, on node:timers' own setImmediate (own-timers.ts: never the global
// a test suite's fake timers replace). It schedules nothing by itself; long work yields with it, and answers and
// refusals wait for a turn's end with it.

import { setImmediate } from './own-timers.ts';

/** Resolves on the next turn of the event loop, once this turn's I/O callbacks have run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs `callback` at the end of this turn of the event loop, after its I/O callbacks (in the order of the calls). */
export function atTurnEnd(callback: () => void): void {
  setImmediate(callback);
}
