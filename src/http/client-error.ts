// Answers what node:http refuses before a request exists (malformed HTTP, oversized headers, a client
// too slow to send its request, an Expect it cannot meet) with a JSON error like every other minihub answer.

import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

import { shown } from '../errors.ts';
import { closeAfterAnswer } from './body.ts';
import { HttpError } from './exchange.ts';
import { sendHttpError } from './reply.ts';
import { atTurnEnd } from '../next-turn.ts';

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    // The URL counts too: a GraphQL query sent with GET is where a long one usually is.
    status === 431
      ? `the request line and headers are larger than ${maxHeaderSize} bytes; send a long GraphQL query as a POST with a JSON body, not in the URL`
      : status === 408
        ? 'the request was not received in time'
        : `the request is not valid HTTP (${error.code ?? 'parse error'})`;
  const body = JSON.stringify({ errors: [{ message }] });
  const refusal =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  // At the end of the turn, after the answers made in it (answer-batch.ts): an answer to a request sent on the
  // same connection before the malformed one would otherwise be cut off by this end.
  atTurnEnd(() => {
    if (socket.writable) socket.end(refusal);
    else socket.destroy();
  });
}

/** node:http's 'checkExpectation': an Expect other than 100-continue, which node would answer with an empty 417. */
export function answerExpectationFailed(req: IncomingMessage, res: ServerResponse): void {
  closeAfterAnswer(req, res);
  sendHttpError(
    res,
    new HttpError(417, `Expect: ${shown(req.headers.expect ?? '')} is not supported; only 100-continue is`),
  );
}
