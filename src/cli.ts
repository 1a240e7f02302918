// The minihub command line: dispatches to a command, prints errors as one line and sets the exit
// code. The only module that prints for the user or exits; everything below it throws.

import './cli/production-mode.ts';
import { MinihubError } from './errors.ts';
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

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 'running') process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof MinihubError) {
      process.stderr.write(`minihub: ${error.message}\n`);
      if (error.code === 'USAGE') process.stderr.write('Run "minihub --help" for usage.\n');
      process.exitCode = error.code === 'USAGE' ? 2 : 1;
      return;
    }
    process.stderr.write(`minihub: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
