// GraphQL over HTTP's request parameters: {query, variables, operationName, extensions} read from a POST's
// parsed JSON body or a GET's query string, type- and size-checked. Throws BAD_REQUEST naming the parameter
// at fault (the handler answers it 400); it never parses or runs the document.

import { MinihubError, shown } from '../errors.ts';
import type { GraphQLParams } from '../graphql/execute-request.ts';
import type { Limits } from '../limits.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../aspects/json.ts';

/** Reads {query, variables?, operationName?} from a parsed JSON body; throws BAD_REQUEST naming the problem. */
export function readGraphQLParams(
  body: unknown,
  limits: Pick<Limits, 'maxQueryLength' | 'maxVariablesDepth'>,
): GraphQLParams {
  if (!isJsonObject(body))
    throw new MinihubError('BAD_REQUEST', 'the JSON body must be an object like {"query": "...", "variables": {}}');
  if (body.query === undefined)
    throw new MinihubError('BAD_REQUEST', 'the JSON body has no "query"; expected a GraphQL document string');
  return checkedParams(body, limits);
}

/**
 * Reads the parameters of a GET from its query string (the part after `?`, form-encoded), as GraphQL over
 * HTTP describes: `query`, `operationName`, and `variables` and `extensions` as JSON text. Throws
 * BAD_REQUEST naming the parameter at fault.
 */
export function readGraphQLSearchParams(
  search: string,
  limits: Pick<Limits, 'maxQueryLength' | 'maxVariablesDepth'>,
): GraphQLParams {
  const found = new URLSearchParams(search);
  const fields: JsonObject = {};
  for (const name of ['query', 'operationName', 'variables', 'extensions'] as const) {
    const values = found.getAll(name);
    if (values.length === 0) continue;
    // One value each: with two, a proxy and minihub could each read a different one.
    if (values.length > 1)
      throw new MinihubError(
        'BAD_REQUEST',
        `the query string gives "${name}" ${values.length} times; expected it once`,
      );
    const text = values[0] as string;
    // GraphQL over HTTP: an empty operationName is the same as none, as a form with a blank field sends it.
    if (name === 'operationName' && text === '') continue;
    fields[name] =
      name === 'variables' || name === 'extensions' ? jsonParameter(name, text, limits.maxQueryLength) : text;
  }
  if (fields.query === undefined) {
    throw new MinihubError(
      'BAD_REQUEST',
      'the query string has no "query"; expected /api/graphql?query=<GraphQL document>[&variables=<JSON object>] (or a POST with a JSON body)',
    );
  }
  return checkedParams(fields, limits);
}

/** A GET's `variables` or `extensions`: JSON text, parsed; an empty value means none. */
function jsonParameter(name: string, text: string, maxLength: number): JsonValue {
  if (text === '') return null;
  // The URL's own size limit bounds this already; the check keeps the parse bounded if that limit is raised.
  if (text.length > maxLength)
    throw new MinihubError('BAD_REQUEST', `"${name}" is ${text.length} characters long; the limit is ${maxLength}`);
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new MinihubError(
      'BAD_REQUEST',
      `"${name}" in the query string is not valid JSON (${shown((error as Error).message)}); expected a JSON object`,
    );
  }
}

/** The checks a POST body and a GET query string share, once both are a map of named values. */
function checkedParams(
  fields: JsonObject,
  limits: Pick<Limits, 'maxQueryLength' | 'maxVariablesDepth'>,
): GraphQLParams {
  const { query, variables, operationName, extensions } = fields;
  if (typeof query !== 'string')
    throw new MinihubError(
      'BAD_REQUEST',
      `"query" must be a string holding a GraphQL document, not ${describe(query)}`,
    );
  if (variables !== undefined && variables !== null && !isJsonObject(variables)) {
    throw new MinihubError('BAD_REQUEST', `"variables" must be an object or null, not ${describe(variables)}`);
  }
  // Request extensions are accepted and ignored, but must be a map (GraphQL over HTTP).
  if (extensions !== undefined && extensions !== null && !isJsonObject(extensions)) {
    throw new MinihubError('BAD_REQUEST', `"extensions" must be an object or null, not ${describe(extensions)}`);
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw new MinihubError('BAD_REQUEST', `"operationName" must be a string or null, not ${describe(operationName)}`);
  }
  if (query.length > limits.maxQueryLength) {
    throw new MinihubError(
      'BAD_REQUEST',
      `"query" is ${query.length} characters long; the limit is ${limits.maxQueryLength}`,
    );
  }
  if (variables != null && nesting(variables, limits.maxVariablesDepth) > limits.maxVariablesDepth) {
    throw new MinihubError('BAD_REQUEST', `"variables" nest more than ${limits.maxVariablesDepth} levels deep`);
  }
  return { query, variables: variables ?? null, operationName: operationName ?? null };
}

/** How deep `value` nests, counting no further than `limit + 1`; iterative, so no input can overflow the stack. */
function nesting(value: unknown, limit: number): number {
  // Two parallel stacks, and only objects and arrays pushed: every POST's variables pass through here.
  const pending: object[] = [];
  const depths: number[] = [];
  if (typeof value === 'object' && value !== null) {
    pending.push(value);
    depths.push(1);
  }
  let deepest = 0;
  while (pending.length > 0) {
    const current = pending.pop() as object;
    const depth = depths.pop() as number;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) {
      if (typeof child !== 'object' || child === null) continue;
      pending.push(child);
      depths.push(depth + 1);
    }
  }
  return deepest;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
