// What a command may touch of the process it runs in: its output streams and its environment. The
// process adapter (cli.ts) passes the real ones; tests pass captured streams and run commands in process.

import type { Writable } from 'node:stream';

/** A writable stream that may say it is a terminal (progress lines are rewritten in place on one). */
export type CliStream = Writable & { isTTY?: boolean };

export interface CliIo {
  /** What a script may read: results, and the export's JSON (written with backpressure). */
  stdout: CliStream;
  /** Errors, warnings and progress. */
  stderr: CliStream;
  env: NodeJS.ProcessEnv;
}

/** A command's entry point: its arguments (the command name taken off) and its io. */
export type Command = (args: string[], io: CliIo) => Promise<number | 'running'>;
