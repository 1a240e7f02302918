// The connection limit of a minihub server, counted here rather than by node, so that a connection past it
// is answered once before it is closed (/health as usual, anything else a JSON 503) instead of being dropped
// unanswered: a health check then still gets through while stalled clients hold every allowed connection.

import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { clearTimeout, setTimeout } from '../own-timers.ts';
import { closeAfterAnswer } from './body.ts';
import { HttpError, pathOf } from './exchange.ts';
import { sendHttpError } from './reply.ts';

/** How long a connection past the limit may take to send its request before it is closed unanswered. */
export const OVER_LIMIT_GRACE_MS = 1000;

/**
 * Past `maxConnections`, a tenth more (at least 16) connections are each given one answer and closed
 * within OVER_LIMIT_GRACE_MS; node drops any beyond that at once, so the sockets held stay bounded.
 */
export function overLimitRoom(maxConnections: number): number {
  return Math.max(16, Math.ceil(maxConnections / 10));
}

/** Serves `listener` on `server` (created without one) with at most `maxConnections` connections kept open. */
export function limitConnections(server: Server, maxConnections: number, listener: RequestListener): void {
  server.maxConnections = maxConnections + overLimitRoom(maxConnections);
  const overLimit = new WeakSet<Socket>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => (open -= 1));
    if (open <= maxConnections) return;
    overLimit.add(socket);
    // A socket past the limit that stalls too is closed soon, so stalling cannot hold this room either.
    const timer = setTimeout(() => socket.destroy(), OVER_LIMIT_GRACE_MS);
    socket.once('close', () => clearTimeout(timer));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!overLimit.has(req.socket)) {
      listener(req, res);
      return;
    }
    res.setHeader('Connection', 'close');
    if (pathOf(req.url ?? '/') === '/health') {
      listener(req, res);
      return;
    }
    if (!req.complete) closeAfterAnswer(req, res);
    const message = `minihub has ${maxConnections} connections open, its limit (maxConnections); try again shortly`;
    sendHttpError(res, new HttpError(503, message, { 'Retry-After': '1' }));
  });
}
