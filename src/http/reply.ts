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
  res.writeHead(answer.status, headerList(answer));
  res.end(answer.body ?? undefined);
}

/**
 * The headers as writeHead's flat [name, value, ...] list, Content-Length (when there is a body) in the
 * place an object spread would give it: where the answer names it already, else last. Built in one pass,
 * without the two objects a spread makes for every answer.
 */
function headerList(answer: HttpAnswer): string[] {
  const { headers, body } = answer;
  const list: string[] = [];
  let length = body === null;
  for (const name in headers) {
    if (name === 'Content-Length' && body !== null) {
      list.push(name, String(body.length));
      length = true;
    } else list.push(name, headers[name] as string);
  }
  if (!length) list.push('Content-Length', String((body as Buffer).length));
  return list;
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  writeAnswer(res, errorAnswer(error));
}
