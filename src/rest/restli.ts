// The Rest.li envelope of DataHub's REST protocol: the headers every answer carries, an action's
// `{"value": ...}`, and errors as Rest.li error bodies `{status, message, exceptionClass}` with
// `X-RestLi-Error-Response: true`. No stack trace is ever sent. Knows no endpoint and no store.

import { MinihubError, shown } from '../errors.ts';
import { bytesAnswer, HttpError, jsonAnswer, type Headers, type HttpAnswer } from '../http/exchange.ts';

/** What every Rest.li answer carries: the protocol version the SDK speaks, and no caching of per-token answers. */
export const RESTLI_HEADERS: Readonly<Headers> = {
  'X-RestLi-Protocol-Version': '2.0.0',
  'Cache-Control': 'no-store',
  Vary: 'Authorization',
};

// The exception DataHub's resources throw for every refusal, named in the body as Rest.li names it.
const SERVICE_EXCEPTION = 'com.linkedin.restli.server.RestLiServiceException';

/** A refusal with a Rest.li status: thrown anywhere under the REST handler, answered by restliError(). */
export class RestliError extends Error {
  readonly status: number;
  readonly headers: Headers;

  constructor(status: number, message: string, headers: Headers = {}) {
    super(message);
    this.name = 'RestliError';
    this.status = status;
    this.headers = headers;
  }
}

/** 422, DataHub's answer to a proposal its validation refuses; in a batch the message names the proposal. */
export function invalidProposal(message: string, index: number | null): RestliError {
  return new RestliError(422, index === null ? message : `proposal ${index}: ${message}`);
}

/** An action's result, `{"value": ...}`, as Rest.li wraps it. */
export function actionAnswer(value: unknown): HttpAnswer {
  return jsonAnswer(200, { value }, RESTLI_HEADERS);
}

/** A resource read, as Rest.li answers a GET: the record itself. */
export function recordAnswer(record: unknown): HttpAnswer {
  return jsonAnswer(200, record, RESTLI_HEADERS);
}

/** An action with no result (Task<Void>): 200 and an empty body. */
export function emptyAnswer(): HttpAnswer {
  return bytesAnswer(200, Buffer.alloc(0), RESTLI_HEADERS);
}

/** Any failure under the REST handler as its Rest.li error answer; null for one that is a bug (logged by the caller). */
export function restliError(error: unknown): HttpAnswer | null {
  if (error instanceof RestliError) return errorBody(error.status, error.message, error.headers);
  // The transport refusals shared with /api/graphql (401, 413, 415, a body that is not JSON), in Rest.li's shape.
  if (error instanceof HttpError) return errorBody(error.status, error.message, error.headers);
  // A URN or a value the ingest reader refuses: DataHub's validation answers 422. Never a 5xx here: those are bugs.
  if (error instanceof MinihubError && error.status < 500) {
    return errorBody(error.code === 'BAD_REQUEST' ? 422 : error.status, error.message, {});
  }
  if (error instanceof MinihubError) return errorBody(error.status, error.message, {});
  return null;
}

function errorBody(status: number, message: string, headers: Headers): HttpAnswer {
  return jsonAnswer(
    status,
    { status, message, exceptionClass: SERVICE_EXCEPTION },
    { ...RESTLI_HEADERS, 'X-RestLi-Error-Response': 'true', ...headers },
  );
}

/** A request parameter as a message quotes it. */
export function quotedParam(value: string): string {
  return JSON.stringify(shown(value));
}
