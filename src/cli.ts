// The `minihub` process: hands argv, stdout, stderr and the environment to the command line (cli/run-cli.ts),
// closes a server serve leaves running on SIGINT/SIGTERM, and sets the exit code it returns. Sets
// process.exitCode rather than exiting, so output on a pipe is flushed first.

import './cli/production-mode.ts';
import { runCli } from './cli/run-cli.ts';
import { closeOnSignals } from './cli/signals.ts';

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  serving: (server) => closeOnSignals(server, process.stderr),
}).then((code) => {
  if (code !== 'running') process.exitCode = code;
});
