// Responses not yet finished, so closing minihub can wait for them (up to a grace period).
// It only counts; it never ends or destroys a response.

import type { ServerResponse } from 'node:http';

export class InFlight {
  readonly #open = new Set<ServerResponse>();
  readonly #waiters = new Set<() => void>();
  // One listener for every response (the emitter is its `this`), not a closure and once's wrapper per
  // response: 'close' comes once, and the response is dropped after it, listener and all.
  readonly #closed: (this: ServerResponse) => void;

  constructor() {
    const open = this.#open;
    const waiters = this.#waiters;
    this.#closed = function (this: ServerResponse) {
      open.delete(this);
      if (open.size === 0) for (const waiter of [...waiters]) waiter();
    };
  }

  track(res: ServerResponse): void {
    this.#open.add(res);
    res.on('close', this.#closed);
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
