// The minihub command line: dispatches to a command, prints errors as one line and sets the exit
// code. The only module that prints for the user or exits; everything below it throws.
// A command's module is loaded only when that command runs: help and --version load none, and only
// serve loads graphql-js and the HTTP server (test/cli-startup.test.ts holds the others to that).

import './cli/production-mode.ts';
import { MinihubError } from './errors.ts';
import { debugDetail, describeFailure } from './cli/failure.ts';
import { MAIN_HELP } from './cli/help.ts';
import { VERSION } from './version.ts';

type Command = (args: string[], env: NodeJS.ProcessEnv) => Promise<number | 'running'>;

// In the order the unknown-command message lists them. The import paths are literals so the build
// rewrites them to .js like any static import.
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serve.ts')).serve,
  ingest: async () => (await import('./cli/ingest-command.ts')).ingestCommand,
  export: async () => (await import('./cli/export-command.ts')).exportCommand,
  push: async () => (await import('./cli/push-command.ts')).pushCommand,
  token: async () => (await import('./cli/token-command.ts')).tokenCommand,
  user: async () => (await import('./cli/user-command.ts')).userCommand,
  compact: async () => (await import('./cli/compact-command.ts')).compactCommand,
};

async function main(argv: string[]): Promise<number | 'running'> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
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
  return run(args, process.env);
}

// --debug may stand anywhere; it is taken out before a command parses its own options.
const DEBUG = '--debug';
const argv = process.argv.slice(2).filter((arg) => arg !== DEBUG);
const debug = argv.length < process.argv.length - 2;
const command = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? argv[0] : undefined;

main(argv).then(
  (code) => {
    if (code !== 'running') process.exitCode = code;
  },
  (error: unknown) => {
    const failure = describeFailure(error, command);
    process.stderr.write(`minihub: ${failure.line}\n`);
    if (debug) process.stderr.write(debugDetail(error));
    process.exitCode = failure.code;
  },
);
