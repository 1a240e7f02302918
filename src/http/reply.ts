// Writing an HttpAnswer to a node:http response, once, with its length: for the adapter, and for the
// answers given before any route runs (a closed minihub, the connection limit, a refused Expect).

import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { errorAnswer, type HttpAnswer, type HttpError } from './exchange.ts';

export function writeAnswer(res: ServerResponse, answer: HttpAnswer): void {
  if (answer.stream !== undefined) {
    res.writeHead(answer.status, answer.headers);
    // A client that goes away ends the pipeline (and the producing generator) instead of filling memory.
    pipeline(Readable.from(answer.stream, { objectMode: false }), res).catch(() => res.destroy());
    return;
  }
  const length = answer.body === null ? {} : { 'Content-Length': String(answer.body.length) };
  res.writeHead(answer.status, { ...answer.headers, ...length });
  res.end(answer.body ?? undefined);
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  writeAnswer(res, errorAnswer(error));
}
