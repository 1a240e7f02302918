// The command line without its process: takes --debug out, dispatches to a command, turns a thrown error
// into the one `minihub: ...` line on io.stderr and returns the exit code. Never exits, never rejects,
// and reads nothing of the process (cli.ts passes argv and io). Everything below it throws.
// A command's module is loaded only when that command runs: help and --version load none, and only
// serve loads graphql-js and the HTTP server (test/cli-startup.test.ts holds the others to that).

import { MinihubError } from '../errors.ts';
import { VERSION } from '../version.ts';
import { debugDetail, describeFailure } from './failure.ts';
import { MAIN_HELP } from './help.ts';
import type { CliIo, Command } from './io.ts';

// In the order the unknown-command message lists them. The import paths are literals so the build
// rewrites them to .js like any static import.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).serve,
  ingest: async () => (await import('./ingest-command.ts')).ingestCommand,
  export: async () => (await import('./export-command.ts')).exportCommand,
  push: async () => (await import('./push-command.ts')).pushCommand,
  token: async () => (await import('./token-command.ts')).tokenCommand,
  user: async () => (await import('./user-command.ts')).userCommand,
  compact: async () => (await import('./compact-command.ts')).compactCommand,
};

// --debug may stand anywhere; it is taken out before a command parses its own options.
const DEBUG = '--debug';

/** Runs `minihub ARGV...` and resolves to its exit code, or 'running' for a server that keeps going. */
export async function runCli(argv: string[], io: CliIo): Promise<number | 'running'> {
  const args = argv.filter((arg) => arg !== DEBUG);
  const debug = args.length < argv.length;
  const command = args[0] !== undefined && Object.hasOwn(COMMANDS, args[0]) ? args[0] : undefined;
  try {
    return await dispatch(args, io);
  } catch (error) {
    const failure = describeFailure(error, command);
    io.stderr.write(`minihub: ${failure.line}\n`);
    if (debug) io.stderr.write(debugDetail(error));
    return failure.code;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number | 'running'> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (load === undefined) {
    throw new MinihubError(
      'USAGE',
      `unknown command "${command}"; expected one of ${Object.keys(COMMANDS).join(', ')}`,
    );
  }
  const run = await load();
  return run(args, io);
}
