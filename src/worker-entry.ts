// Whether this process runs minihub's TypeScript sources (tsx) or its build, and so how a worker thread starts:
// from the sources, tsx-worker.mjs registers tsx first (tsx's --import hooks do not reach worker threads) and
// then loads `NAME.ts`; from the build, the compiled `NAME.js`. Also how a worker's module fails. It starts no worker.

import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

/** Whether the module at `moduleUrl` (its import.meta.url) runs from the TypeScript sources. */
export function runsFromSources(moduleUrl: string): boolean {
  return extname(fileURLToPath(moduleUrl)) === '.ts';
}

/**
 * The Worker constructor's arguments for the worker module `name` beside the module at `moduleUrl`, with
 * `options`: from the sources, tsx-worker.mjs with the module's path as its last argument.
 */
export function workerEntry(moduleUrl: string, name: string, options: WorkerOptions = {}): [URL, WorkerOptions] {
  if (!runsFromSources(moduleUrl)) return [new URL(`./${name}.js`, moduleUrl), options];
  const modulePath = fileURLToPath(new URL(`./${name}.ts`, moduleUrl));
  return [new URL('./tsx-worker.mjs', import.meta.url), { ...options, argv: [...(options.argv ?? []), modulePath] }];
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
