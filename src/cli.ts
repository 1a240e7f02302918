// The `minihub` process: hands argv, stdout, stderr and the environment to the command line (cli/run-cli.ts)
// and sets the exit code it returns. Sets process.exitCode rather than exiting, so output on a pipe is
// flushed first; serve returns 'running' and keeps the process alive with its server.

import './cli/production-mode.ts';
import { runCli } from './cli/run-cli.ts';

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) => {
  if (code !== 'running') process.exitCode = code;
});
