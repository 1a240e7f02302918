// Responses not yet finished, so closing minihub can wait for them (up to a grace period).
// It only counts; it never ends or destroys a response, and it keeps no reference to one.

import type { ServerResponse } from 'node:http';

import { clearTimeout, setTimeout } from '../own-timers.ts';

export class InFlight {
  // A count, not a Set of the responses: with a Set that lived as long as the server, every request's
  // objects survived the young generation's collections and were promoted (about 2.8 KB per durable
  // write, 15-19% of the server's time in scavenges; see test/bench/NOTES.md).
  #open = 0;
  readonly #waiters = new Set<() => void>();
  // One listener for every response, not a closure and once's wrapper per response: 'close' comes once.
  readonly #closed = (): void => {
    this.#open -= 1;
    if (this.#open === 0) for (const waiter of [...this.#waiters]) waiter();
  };

  track(res: ServerResponse): void {
    this.#open += 1;
    res.on('close', this.#closed);
  }

  /** Resolves when no response is open, or after `timeoutMs`, whichever is first. */
  drained(timeoutMs: number): Promise<void> {
    if (this.#open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }
}
