// The replay worker (started by parallel-replay.ts): does replay-part.ts's work on the request it was started
// with and posts the one answer back. It never writes, and it never sees the catalogue.

import { parentPort, workerData } from 'node:worker_threads';

import type { WorkerRequest } from './parallel-replay.ts';
import { failThread } from '../../worker-entry.ts';
import { replayPart, transferList } from './replay-part.ts';

// A failure of the work itself ends the thread, reaching the main thread as an 'error' event.
replayPart(workerData as WorkerRequest).then(
  (answer) => parentPort?.postMessage(answer, transferList(answer)),
  failThread,
);
