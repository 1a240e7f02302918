// Writing responses: every answer is JSON, written once with its length; errors use {errors: [...]}.

import type { ServerResponse } from 'node:http';

export type Headers = Record<string, string>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A transport-level failure: the request never reached GraphQL. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Headers;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(status: number, message: string, headers: Headers = {}, extensions?: Record<string, unknown>) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
    this.extensions = extensions;
  }
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  const entry = error.extensions === undefined ? { message: error.message } : { message: error.message, extensions: error.extensions };
  sendJson(res, error.status, { errors: [entry] }, error.headers);
}
