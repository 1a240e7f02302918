// Writing an HttpAnswer to a node:http response, once, with its length: for the adapter, and for the
// answers given before any route runs (a closed minihub, the connection limit, a refused Expect).

import type { ServerResponse } from 'node:http';

import { errorAnswer, type HttpAnswer, type HttpError } from './exchange.ts';

export function writeAnswer(res: ServerResponse, answer: HttpAnswer): void {
  const length = answer.body === null ? {} : { 'Content-Length': String(answer.body.length) };
  res.writeHead(answer.status, { ...answer.headers, ...length });
  res.end(answer.body ?? undefined);
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  writeAnswer(res, errorAnswer(error));
}
