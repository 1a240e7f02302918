// Whether this process runs minihub's TypeScript sources (tsx) or its build, and so where a worker thread's
// module is: from the sources, a plain `NAME-tsx.mjs` beside it that registers tsx first (tsx's --import
// hooks do not reach worker threads); from the build, the compiled `NAME.js`. Also how a worker's module
// fails. It starts no worker.

import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether the module at `moduleUrl` (its import.meta.url) runs from the TypeScript sources. */
export function runsFromSources(moduleUrl: string): boolean {
  return extname(fileURLToPath(moduleUrl)) === '.ts';
}

/** The entry of the worker module `name` that sits beside the module at `moduleUrl`. */
export function workerEntry(moduleUrl: string, name: string): URL {
  return new URL(runsFromSources(moduleUrl) ? `./${name}-tsx.mjs` : `./${name}.js`, moduleUrl);
}

/**
 * Ends a worker thread with `error` (a failed promise of its work): thrown outside the promise, it reaches
 * the main thread as the Worker's 'error' event whatever --unhandled-rejections says. A worker's module has
 * no top-level await, since from the sources it is loaded through CommonJS.
 */
export function failThread(error: unknown): void {
  process.nextTick(() => {
    throw error;
  });
}
