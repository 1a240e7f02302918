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

/** `logUnexpected` receives failures that are bugs or I/O trouble; the client sees only DataHub's generic 500. */
export function formatError(error: GraphQLError, phase: ErrorPhase, logUnexpected: (error: unknown) => void): ErrorEntry {
  const base = { locations: error.locations, path: error.path };
  if (phase === 'syntax') return { message: error.message, ...base, extensions: { classification: 'InvalidSyntax' } };
  if (phase === 'validation') return { message: error.message, ...base, extensions: { classification: 'ValidationError' } };
  const original = error.originalError;
  if (original instanceof MinihubError) {
    // minihub's own failures are worded for the client; a server-side one is also worth a log line.
    if (original.code === 'SERVER_ERROR') logUnexpected(original);
    return {
      message: original.message,
      ...base,
      extensions: { code: original.status, type: original.code, classification: 'DataFetchingException' },
    };
  }
  logUnexpected(original ?? error);
  return { message: UNKNOWN_ERROR, ...base, extensions: { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' } };
}
