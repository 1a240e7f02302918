// The node:http server startServer() listens with: minihub's timeouts, the connection limit, answers to
// malformed requests, and listening as a promise that fails with a MinihubError naming the port.
// It knows nothing of routes: it is handed the request listener.

import { createServer, type RequestListener, type Server } from 'node:http';

import type { Limits } from '../limits.ts';
import { answerClientError, answerExpectationFailed } from './client-error.ts';
import { limitConnections } from './connection-limit.ts';
import { listenError } from './listen-error.ts';

export function createNodeServer(limits: Limits, listener: RequestListener): Server {
  const requestTimeout = limits.requestTimeoutMs;
  const server = createServer({
    requestTimeout,
    // node:http refuses a headers timeout longer than the request timeout.
    headersTimeout: Math.min(limits.headersTimeoutMs, requestTimeout),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Timeouts are enforced only when node:http checks, every this many ms.
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, requestTimeout) / 2)),
    ),
    // The adapter refuses a missing Host itself, with a JSON body; node's refusal has none.
    requireHostHeader: false,
  });
  // Counted there, not by node alone: past the limit a connection still gets one answer (/health, or a 503).
  limitConnections(server, limits.maxConnections, listener);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectationFailed);
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refuse = (error: unknown) => reject(listenError(error, port, host));
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
}
