// The node:http side of minihub's routes: turns an IncomingMessage into an HttpRequest, writes the
// HttpAnswer (with the rest of its turn's, answer-batch.ts), logs the request line and answers an
// unexpected throw with a 500. No HTTP rules live here (those are in routes.ts and graphql-handler.ts),
// only the I/O they cannot do.

import type { IncomingMessage, RequestListener } from 'node:http';

import { batchAnswers } from './answer-batch.ts';
import { closeAfterAnswer, readBody } from './body.ts';
import { errorAnswer, HttpError, pathOf, type HttpAnswer, type HttpRequest } from './exchange.ts';
import { writeAnswer } from './reply.ts';
import { createRoutes, type RouteOptions } from './routes.ts';

export interface NodeAdapterOptions extends RouteOptions {
  /** One line per answered request: method, path, status, time and, for /api/graphql, the operation. */
  logRequest?: (line: string) => void;
}

export function createNodeAdapter(options: NodeAdapterOptions): RequestListener {
  const { logRequest, logError } = options;
  const routes = createRoutes(options);

  const unexpected = (error: unknown): HttpAnswer => {
    logError(error);
    return errorAnswer(new HttpError(500, 'An unknown error occurred.'));
  };
  const send = batchAnswers((res, reply) => {
    try {
      writeAnswer(res, reply);
    } catch (error) {
      // Writing itself failed (the answer was half out, or a header was refused): nothing more can be said.
      logError(error);
      res.destroy();
    }
  });

  // One async function rather than a chain of callbacks: under tsx every closure made per request costs a
  // named-function wrapper, which showed in profiles of the read load. The routes' answer is awaited in
  // place, not through a .catch of its own: one promise and one turn fewer per request.
  return async (req, res) => {
    const started = logRequest === undefined ? 0n : process.hrtime.bigint();
    let reply: HttpAnswer;
    try {
      // node:http's own refusal (requireHostHeader, turned off by startServer) has an empty body.
      reply =
        req.httpVersion === '1.1' && req.headers.host === undefined
          ? errorAnswer(new HttpError(400, 'an HTTP/1.1 request needs a Host header'))
          : await routes(new NodeRequest(req));
    } catch (error) {
      reply = unexpected(error);
    }
    if (logRequest !== undefined) {
      // Only when lines are wanted: a listener per request is not free under load.
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The path without its query string, and never headers, bodies or variables: tokens stay out of the log.
        const label = reply.operation === undefined ? '' : ` ${reply.operation}`;
        logRequest(`${req.method} ${pathOf(req.url ?? '/')} ${res.statusCode} ${ms.toFixed(1)}ms${label}`);
      });
    }
    // Refused before its body was read: close, rather than read on through a body nobody wants. Nothing has
    // been written yet, so this cannot fail; whatever can (writing) fails inside `send`'s writer.
    if (reply.status >= 400 && !req.complete) closeAfterAnswer(req, res);
    send(res, reply);
  };
}

/** An IncomingMessage as the plain request the routes take; its body is read only when asked for. */
class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = req.headers;
  }

  body(maxBytes: number): Promise<Uint8Array> {
    return readBody(this.#req, maxBytes);
  }
}
