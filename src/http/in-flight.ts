// Responses not yet finished, so closing minihub can wait for them (up to a grace period).
// It only counts; it never ends or destroys a response.

import type { ServerResponse } from 'node:http';

export class InFlight {
  readonly #open = new Set<ServerResponse>();
  readonly #waiters = new Set<() => void>();

  track(res: ServerResponse): void {
    this.#open.add(res);
    res.once('close', () => {
      this.#open.delete(res);
      if (this.#open.size === 0) for (const waiter of [...this.#waiters]) waiter();
    });
  }

  /** Resolves when no response is open, or after `timeoutMs`, whichever is first. */
  drained(timeoutMs: number): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
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
