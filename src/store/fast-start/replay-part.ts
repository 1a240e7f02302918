// The replay worker's work (replay-worker.ts runs it on its thread): reads the log from a byte offset to its
// end, checks every line exactly as replay on the main thread does, and condenses it into one answer. It
// never writes, never sees the catalogue and knows nothing of threads.

import { nodeLogFileSystem } from '../node-log-fs.ts';
import { BadLine, readRecords } from '../log-lines.ts';
import type { WorkerAnswer, WorkerRequest } from './parallel-replay.ts';
import { PlanBuilder } from './replay-plan.ts';

/** The answer to one request; rejects only when the work itself fails (a bad line is an answer). */
export async function replayPart({ path, start }: WorkerRequest): Promise<WorkerAnswer> {
  const builder = new PlanBuilder(start);
  try {
    const read = await readRecords(nodeLogFileSystem.readChunks(path, { start }), (record, line, at) =>
      builder.add(record.changes, line, at),
    );
    return { kind: 'done', plan: builder.finish(), read };
  } catch (error) {
    if (!(error instanceof BadLine)) throw error;
    return { kind: 'bad', line: error.line, problem: error.message };
  }
}

/** What posting the answer hands over instead of copying: the plan's ops. */
export function transferList(answer: WorkerAnswer): ArrayBuffer[] {
  return answer.kind === 'done' ? [answer.plan.ops.buffer] : [];
}
