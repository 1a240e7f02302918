// Why a server could not start listening, as a MinihubError naming the port or host and the fix,
// instead of node's bare "listen EADDRINUSE". Errors it does not know are returned unchanged.

import { MinihubError, shown } from '../errors.ts';

// DataHub's own GMS listens here too, so a DataHub running on this machine is the usual other owner.
const DATAHUB_PORT = 8080;

export function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const at = `${host.includes(':') ? `[${shown(host)}]` : shown(host)}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new MinihubError(
        'BAD_REQUEST',
        `port ${port} on ${shown(host)} is already in use by another process` +
          (port === DATAHUB_PORT ? ` (${DATAHUB_PORT} is also DataHub's own port: is a DataHub running here?)` : '') +
          '; choose another port (--port N; 0 picks a free one) or stop the other process',
        { cause: error },
      );
    case 'EACCES':
      return new MinihubError(
        'BAD_REQUEST',
        `not allowed to listen on ${at}: ports below 1024 need privileges; choose a port from 1024 up (--port N)`,
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
      return new MinihubError(
        'BAD_REQUEST',
        `cannot listen on ${at}: "${shown(host)}" is not an address of this machine; use 127.0.0.1, 0.0.0.0 (every interface) or one of this machine's addresses (--host)`,
        { cause: error },
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new MinihubError(
        'BAD_REQUEST',
        `cannot listen on host "${shown(host)}": no such host name (${code}); use 127.0.0.1, 0.0.0.0, localhost or an address of this machine (--host)`,
        { cause: error },
      );
    default:
      return error;
  }
}
