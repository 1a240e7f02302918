// The node:http side of minihub's routes: turns an IncomingMessage into an HttpRequest, writes the
// HttpAnswer, logs the request line and answers an unexpected throw with a 500. No HTTP rules live
// here (those are in routes.ts and graphql-handler.ts), only the I/O they cannot do.

import type { IncomingMessage, RequestListener } from 'node:http';

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

  async function answer(req: IncomingMessage): Promise<HttpAnswer> {
    // node:http's own refusal (requireHostHeader, turned off by startServer) has an empty body.
    if (req.httpVersion === '1.1' && req.headers.host === undefined) return errorAnswer(new HttpError(400, 'an HTTP/1.1 request needs a Host header'));
    const request: HttpRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: (maxBytes) => readBody(req, maxBytes) };
    try {
      return await routes(request);
    } catch (error) {
      logError(error);
      return errorAnswer(new HttpError(500, 'An unknown error occurred.'));
    }
  }

  return (req, res) => {
    const started = logRequest === undefined ? 0n : process.hrtime.bigint();
    answer(req)
      .then((reply) => {
        if (logRequest !== undefined) {
          // Only when lines are wanted: a listener per request is not free under load.
          res.once('finish', () => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            // The path without its query string, and never headers, bodies or variables: tokens stay out of the log.
            const label = reply.operation === undefined ? '' : ` ${reply.operation}`;
            logRequest(`${req.method} ${pathOf(req.url ?? '/')} ${res.statusCode} ${ms.toFixed(1)}ms${label}`);
          });
        }
        // Refused before its body was read: close, rather than read on through a body nobody wants.
        if (reply.status >= 400 && !req.complete) closeAfterAnswer(req, res);
        writeAnswer(res, reply);
      })
      .catch((error: unknown) => {
        // Writing itself failed (the answer was half out, or a header was refused): nothing more can be said.
        logError(error);
        res.destroy();
      });
  };
}
