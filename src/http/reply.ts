// Writing responses: every answer is JSON, written once with its length; errors use {errors: [...]}.

import type { ServerResponse } from 'node:http';

export type Headers = Record<string, string>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}): void {
  sendBytes(res, status, Buffer.from(JSON.stringify(body)), headers);
}

/**
 * Writes an already serialised JSON answer, once, with its length. A Content-Type set on `res` before
 * (the media type /api/graphql negotiated) is kept; otherwise it is application/json.
 */
export function sendBytes(res: ServerResponse, status: number, bytes: Buffer, headers: Headers = {}): void {
  res.writeHead(status, {
    ...(res.hasHeader('Content-Type') ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    'Content-Length': bytes.length,
    ...headers,
  });
  res.end(bytes);
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
