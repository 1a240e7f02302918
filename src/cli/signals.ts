// The process's side of a running `minihub serve`: SIGINT or SIGTERM closes the server (requests in flight
// finish, writes are made durable) and exits 0; a second signal exits at once. Only cli.ts installs it.

import type { CliStream, Serving } from './io.ts';

export function closeOnSignals(server: Serving, stderr: CliStream): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      stderr.write(`minihub: ${signal} again, exiting at once\n`);
      process.exit(1);
    }
    closing = true;
    stderr.write(`minihub: ${signal}, closing\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        stderr.write(`minihub: error while closing: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
