// Turns graphql-js errors into DataHub's error entries: resolver errors carry {code, type,
// classification}, validation and syntax errors a classification only. Never a stack trace, and
// never more than a short quote of any value the request sent.

import type { GraphQLError, SourceLocation } from 'graphql';

import { MinihubError, shown } from '../errors.ts';

export type ErrorPhase = 'syntax' | 'validation' | 'execution';

export interface ErrorEntry {
  message: string;
  locations?: readonly SourceLocation[];
  path?: readonly (string | number)[];
  extensions: Record<string, string | number>;
}

const UNKNOWN_ERROR = 'An unknown error occurred.';
// graphql-js quotes names and values whole ("Variable "$u" got invalid value "<a megabyte>""): each quoted
// run is cut to a short quote, and the message as a whole to this.
const MAX_GRAPHQL_MESSAGE_CHARS = 1000;
// graphql-js's own wording runs to ~145 characters between two quotes; a longer stretch is input printed
// bare (an object's keys, in "got invalid value { <key>: … }"), and is cut like a quoted one.
const MAX_UNQUOTED_CHARS = 150;
// The error types DataHub's clients know (DataHubGraphQLErrorCode as used by these operations).
const DATAHUB_TYPES = new Set(['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'SERVER_ERROR']);

/** `logUnexpected` receives failures that are bugs or I/O trouble, with the detail the client never sees. */
export function formatError(
  error: GraphQLError,
  phase: ErrorPhase,
  logUnexpected: (error: unknown) => void,
): ErrorEntry {
  const base = { locations: error.locations, path: error.path };
  if (phase === 'syntax')
    return { message: bounded(error.message), ...base, extensions: { classification: 'InvalidSyntax' } };
  if (phase === 'validation')
    return { message: bounded(error.message), ...base, extensions: { classification: 'ValidationError' } };
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
  return {
    message: UNKNOWN_ERROR,
    ...base,
    extensions: { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' },
  };
}

/** A graphql-js message with every quoted value cut to a short quote, and at most MAX_GRAPHQL_MESSAGE_CHARS long. */
function bounded(message: string): string {
  if (message.length <= 100) return message;
  let out = '';
  let at = 0;
  // Linear in the message: indexOf finds each quote, and the work stops once the answer is long enough.
  while (at < message.length && out.length <= MAX_GRAPHQL_MESSAGE_CHARS) {
    const open = message.indexOf('"', at);
    const close = open === -1 ? -1 : closingQuote(message, open + 1);
    if (close === -1) {
      out += unquoted(message.slice(at, at + MAX_GRAPHQL_MESSAGE_CHARS + 1));
      break;
    }
    out += `${unquoted(message.slice(at, open))}"${shown(message.slice(open + 1, close))}"`;
    at = close + 1;
  }
  return out.length > MAX_GRAPHQL_MESSAGE_CHARS ? `${out.slice(0, MAX_GRAPHQL_MESSAGE_CHARS)}…` : out;
}

function unquoted(text: string): string {
  return text.length > MAX_UNQUOTED_CHARS ? shown(text) : text;
}

/** The index of the first quote at or after `from` that no backslash escapes; -1 when there is none. */
function closingQuote(text: string, from: number): number {
  for (let i = text.indexOf('"', from); i !== -1; i = text.indexOf('"', i + 1)) {
    let backslashes = 0;
    while (i - backslashes - 1 >= from && text[i - backslashes - 1] === '\\') backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return -1;
}
