// The error vocabulary of minihub: one error class with DataHub's error types.
// Library code throws these; only the CLI prints them, and the GraphQL layer maps them to DataHub's extensions.
//
// How minihub fails: four shapes, each reaching the user one way. Every message names the bad input
// (through shown(), at most 100 characters of it) and what was expected; no answer carries a stack trace.
//
// 1. GraphQL error: a MinihubError thrown by a resolver: BAD_REQUEST (bad input, or an edit's target
//    missing), UNAUTHORIZED (a privilege missing), SERVER_ERROR (a write the disk refused); NOT_FOUND
//    would map alike. graphql-js catches it per field; graphql/format-error.ts makes it DataHub's
//    entry, { message, path, extensions: { code: 400|403|404|500, type, classification:
//    'DataFetchingException' } }, in a 200 answer beside whatever else resolved. Anything else a
//    resolver throws is a bug: logged, and answered as SERVER_ERROR "An unknown error occurred.".
//    A document that does not parse or validate gets { classification: 'InvalidSyntax' |
//    'ValidationError' }: a 200 with data null under application/json (as DataHub answers), a 400
//    under application/graphql-response+json.
// 2. HTTP error: an HttpError (http/reply.ts), for a request that never reached GraphQL. An HTTP status
//    with a JSON body { errors: [{ message, extensions? }] }: 400 (no Host, body not UTF-8 or JSON, bad
//    parameters: a MinihubError from reading them becomes one), 401 (a MinihubError UNAUTHENTICATED,
//    AuthenticationError, becomes one with WWW-Authenticate and extensions.reason), 404 no route, 405 with
//    Allow, 413 body over the limit, 415 not JSON, 417 and 431 (http/client-error.ts), 503 past the
//    connection limit or once closed. An unexpected throw there is logged and answered 500.
//    Under DataHub's REST endpoints (/aspects, /entities, /entitiesV2; src/rest/) the same refusals, and
//    RestliError, are Rest.li error bodies instead: { status, message, exceptionClass } with the header
//    X-RestLi-Error-Response: true; a proposal the ingest reader refuses (its BAD_REQUEST) is a 422 there.
// 3. Log or replay error, met opening a data directory; the start is refused (startServer and
//    Store.open reject, the CLI prints one line) and nothing in the directory is changed. BadLine
//    (store/log-lines.ts), a line replay cannot read, becomes STORE_CORRUPT naming file:line; a torn last
//    line is no error (cut aside with a warning). STORE_CORRUPT also covers a bad signing.key, and
//    STORE_LOCKED a directory another process holds. Once running, CompactedButBroken (store/file-log.ts),
//    a compaction whose new log could not be reopened, is reported as a SERVER_ERROR, and writes are
//    refused until a restart.
// 4. CLI usage error: a MinihubError USAGE (a bad flag or argument). cli/failure.ts prints one stderr
//    line with the help hint and exits 2; every other failure reaching the command line is one stderr
//    line too, exit 1 (--debug adds the stack and its causes).

/** DataHub's error types (DataHubGraphQLErrorCode) plus minihub's own start-up and usage failures. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'SERVER_ERROR'
  | 'UNAUTHENTICATED'
  | 'STORE_CORRUPT'
  | 'STORE_LOCKED'
  | 'USAGE';

const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 403,
  NOT_FOUND: 404,
  SERVER_ERROR: 500,
  UNAUTHENTICATED: 401,
  STORE_CORRUPT: 500,
  STORE_LOCKED: 500,
  USAGE: 400,
};

/**
 * An expected failure: its message names the bad input and what was expected.
 * @example
 * try {
 *   await startServer({ dataDir: 'data' }); // another process holds data/
 * } catch (error) {
 *   if (error instanceof MinihubError && error.code === 'STORE_LOCKED') console.error(error.message);
 * }
 */
export class MinihubError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    // A client's mistake (a 4xx) names its input; where minihub noticed it tells nobody anything. Its stack
    // costs tens of microseconds to format (more under source maps), and graphql-js reads it for every
    // failed field: a hundred aliases of one bad value spent more time there than on all else. So none is taken.
    const stackTraceLimit = Error.stackTraceLimit;
    if (HTTP_STATUS[code] < 500) Error.stackTraceLimit = 0;
    try {
      super(message, options);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'MinihubError';
    this.code = code;
  }

  /** The numeric code DataHub puts in `extensions.code`. */
  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

// Enough of a bad value to recognise it by; a message never echoes a megabyte back to whoever sent it.
const SHOWN_CHARS = 100;

/**
 * A bad value as an error message quotes it: whole when short, else its first 100 characters and "…".
 * Every message that quotes input goes through this, so no message grows with its input.
 * @example
 * throw badRequest(`Invalid urn "${shown(urn)}": it does not start with "urn:li:"`);
 */
export function shown(value: string): string {
  if (value.length <= SHOWN_CHARS) return value;
  // Never cut between the two halves of a surrogate pair: half an emoji is not text.
  const code = value.charCodeAt(SHOWN_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? SHOWN_CHARS - 1 : SHOWN_CHARS;
  return `${value.slice(0, end)}…`;
}

/** Shorthand for the most common case: a 400 naming the bad input. */
export function badRequest(message: string): MinihubError {
  return new MinihubError('BAD_REQUEST', message);
}

/** Why a bearer token was refused; the 401 body says which, never echoing the token. */
export type AuthenticationFailure = 'missing' | 'malformed' | 'expired' | 'revoked' | 'user_removed';

export class AuthenticationError extends MinihubError {
  readonly reason: AuthenticationFailure;

  constructor(reason: AuthenticationFailure, message: string) {
    super('UNAUTHENTICATED', message);
    this.name = 'AuthenticationError';
    this.reason = reason;
  }
}
