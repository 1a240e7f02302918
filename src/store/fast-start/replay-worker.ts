// The replay worker (started by parallel-replay.ts): reads the log from a byte offset to its end, checks every
// line exactly as replay on the main thread does, and answers with one ReplayPlan. It never writes,
// and it never sees the catalogue.

import { parentPort, workerData } from 'node:worker_threads';

import { nodeLogFileSystem } from '../node-log-fs.ts';
import { BadLine, readRecords } from '../log-lines.ts';
import type { WorkerAnswer, WorkerRequest } from './parallel-replay.ts';
import { PlanBuilder } from './replay-plan.ts';

const { path, start } = workerData as WorkerRequest;
const builder = new PlanBuilder(start);
let answer: WorkerAnswer;
try {
  const read = await readRecords(nodeLogFileSystem.readChunks(path, { start }), (record, line, at) =>
    builder.add(record.changes, line, at),
  );
  answer = { kind: 'done', plan: builder.finish(), read };
} catch (error) {
  // Anything else is the worker failing, which reaches the main thread as an 'error' event.
  if (!(error instanceof BadLine)) throw error;
  answer = { kind: 'bad', line: error.line, problem: error.message };
}
parentPort?.postMessage(answer, answer.kind === 'done' ? [answer.plan.ops.buffer] : []);
