// What a command may touch of the process it runs in: its output streams, its environment, and who is told
// of a server left running. The process adapter (cli.ts) passes the real ones and closes that server on a
// signal; tests pass captured streams, run commands in process and close it themselves.

import type { Writable } from 'node:stream';

/** A writable stream that may say it is a terminal (progress lines are rewritten in place on one). */
export type CliStream = Writable & { isTTY?: boolean };

export interface CliIo {
  /** What a script may read: results, and the export's JSON (written with backpressure). */
  stdout: CliStream;
  /** Errors, warnings and progress. */
  stderr: CliStream;
  env: NodeJS.ProcessEnv;
  /** Told of the server `serve` leaves running, before its banner is out (a signal may follow at once). */
  serving?: (server: Serving) => void;
}

/** What is left running after `serve` returns: the one way to stop it. */
export interface Serving {
  close(): Promise<void>;
}

/** A command's entry point: its arguments (the command name taken off) and its io. */
export type Command = (args: string[], io: CliIo) => Promise<number | 'running'>;
