// Turns graphql-js errors into DataHub's error entries: resolver errors carry {code, type,
// classification}, validation and syntax errors a classification only. Never a stack trace.

import type { GraphQLError, SourceLocation } from 'graphql';

import { MinihubError } from '../errors.ts';

export type ErrorPhase = 'syntax' | 'validation' | 'execution';

export interface ErrorEntry {
  message: string;
  locations?: readonly SourceLocation[];
  path?: readonly (string | number)[];
  extensions: Record<string, string | number>;
}

const UNKNOWN_ERROR = 'An unknown error occurred.';
// The error types DataHub's clients know (DataHubGraphQLErrorCode as used by these operations).
const DATAHUB_TYPES = new Set(['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'SERVER_ERROR']);

/** `logUnexpected` receives failures that are bugs or I/O trouble, with the detail the client never sees. */
export function formatError(error: GraphQLError, phase: ErrorPhase, logUnexpected: (error: unknown) => void): ErrorEntry {
  const base = { locations: error.locations, path: error.path };
  if (phase === 'syntax') return { message: error.message, ...base, extensions: { classification: 'InvalidSyntax' } };
  if (phase === 'validation') return { message: error.message, ...base, extensions: { classification: 'ValidationError' } };
  const original = error.originalError;
  // minihub's own failures of DataHub's kinds are worded for the client (a server-side one carries no
  // path or detail; its cause, logged here, does). Anything else is a bug: generic message, logged.
  if (original instanceof MinihubError && DATAHUB_TYPES.has(original.code)) {
    if (original.code === 'SERVER_ERROR') logUnexpected(original.cause ?? original);
    return {
      message: original.message,
      ...base,
      extensions: { code: original.status, type: original.code, classification: 'DataFetchingException' },
    };
  }
  logUnexpected(original ?? error);
  return { message: UNKNOWN_ERROR, ...base, extensions: { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' } };
}
