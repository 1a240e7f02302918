// The plain values an HTTP exchange is made of: a request (method, target, headers, a capped body
// reader), the whole answer (status, headers, bytes) and HttpError, a refusal with its status. Pure
// handlers speak these; only reply.ts and the node adapter touch node:http objects.

import type { IncomingHttpHeaders } from 'node:http';

export type Headers = Record<string, string>;

/** A transport-level failure: the request never reached GraphQL. Answered as `{errors: [{message, extensions?}]}`. */
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

export interface HttpRequest {
  method: string;
  /** The request target as sent: path and query string, e.g. `/api/graphql?query=...`. */
  url: string;
  /** Lower-case names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /**
   * Reads the body, failing with a 413 HttpError past `maxBytes`. Asked for only once the request has
   * passed the checks that need no body (method, token, content type), so a refused upload is never read.
   */
  body(maxBytes: number): Promise<Uint8Array>;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** null: no body and no Content-Length (a 204, a 304, or a HEAD that set its own length). */
  body: Buffer | null;
  /**
   * A body sent as it is produced (chunked, no Content-Length), pulled with backpressure; `body` is then
   * null. For answers too large to build whole (a snapshot of the catalogue).
   */
  stream?: Iterable<Buffer>;
  /** What the request log names the request by (a GraphQL operation), if anything. */
  operation?: string;
}

/** The path of a request target, without its query string. */
export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

/** The part of a request target after `?`, or '' without one. */
export function searchOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** A JSON answer; a Content-Type in `headers` (a negotiated media type) wins over application/json. */
export function jsonAnswer(status: number, body: unknown, headers: Headers = {}): HttpAnswer {
  return bytesAnswer(status, Buffer.from(JSON.stringify(body)), headers);
}

export function bytesAnswer(status: number, bytes: Buffer, headers: Headers = {}): HttpAnswer {
  return { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: bytes };
}

/** An HttpError as its JSON answer, `{errors: [{message, extensions?}]}`, after the headers already chosen. */
export function errorAnswer(error: HttpError, headers: Headers = {}): HttpAnswer {
  const entry =
    error.extensions === undefined
      ? { message: error.message }
      : { message: error.message, extensions: error.extensions };
  return jsonAnswer(error.status, { errors: [entry] }, { ...headers, ...error.headers });
}
