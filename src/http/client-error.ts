// Answers what node:http refuses before a request exists (malformed HTTP, oversized headers, a client
// too slow to send its request) with a JSON error like every other minihub answer, then closes.

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431 ? 'the request headers are too large'
    : status === 408 ? 'the request was not received in time'
    : `the request is not valid HTTP (${error.code ?? 'parse error'})`;
  const body = JSON.stringify({ errors: [{ message }] });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
