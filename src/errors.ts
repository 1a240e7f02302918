// The error vocabulary of minihub: one error class with DataHub's error types.
// Library code throws these; only the CLI prints them, and the GraphQL layer maps them to DataHub's extensions.

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
    super(message, options);
    this.name = 'MinihubError';
    this.code = code;
  }

  /** The numeric code DataHub puts in `extensions.code`. */
  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

/** Shorthand for the most common case: a 400 naming the bad input. */
export function badRequest(message: string): MinihubError {
  return new MinihubError('BAD_REQUEST', message);
}

/** Why a bearer token was refused; the 401 body says which, never echoing the token. */
export type AuthenticationFailure = 'missing' | 'malformed' | 'expired' | 'revoked';

export class AuthenticationError extends MinihubError {
  readonly reason: AuthenticationFailure;

  constructor(reason: AuthenticationFailure, message: string) {
    super('UNAUTHENTICATED', message);
    this.name = 'AuthenticationError';
    this.reason = reason;
  }
}
