// The minihub command line: dispatches to a command, prints errors as one line and sets the exit
// code. The only module that prints for the user or exits; everything below it throws.

import './cli/production-mode.ts';
import { MinihubError } from './errors.ts';
import { debugDetail, describeFailure } from './cli/failure.ts';
import { MAIN_HELP } from './cli/help.ts';
import { compactCommand } from './cli/compact-command.ts';
import { exportCommand } from './cli/export-command.ts';
import { ingestCommand } from './cli/ingest-command.ts';
import { serve } from './cli/serve.ts';
import { tokenCommand } from './cli/token-command.ts';
import { userCommand } from './cli/user-command.ts';
import { VERSION } from './version.ts';

const COMMANDS: Record<string, (args: string[], env: NodeJS.ProcessEnv) => Promise<number | 'running'>> = {
  serve,
  ingest: ingestCommand,
  export: exportCommand,
  token: tokenCommand,
  user: userCommand,
  compact: compactCommand,
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
  const run = COMMANDS[command];
  if (run === undefined) {
    throw new MinihubError('USAGE', `unknown command "${command}"; expected one of ${Object.keys(COMMANDS).join(', ')}`);
  }
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
