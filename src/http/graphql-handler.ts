// /api/graphql, GraphQL over HTTP from request to answer, top to bottom: CORS, media type, method,
// token, body, the response cache, parameters, execution and the envelope with its status rules.
// Pure of node:http: it takes an HttpRequest and returns an HttpAnswer; the node adapter does the I/O.

import type { TokenService } from '../auth/tokens.ts';
import { ROOT_USER } from '../auth/users.ts';
import { MinihubError } from '../errors.ts';
import type { GraphQLParams } from '../graphql/execute-request.ts';
import { CachedExecutor, type RequestMethod } from '../graphql/response-cache.ts';
import type { Limits } from '../limits.ts';
import type { Store } from '../store/store.ts';
import { authenticate } from './bearer.ts';
import { createCors } from './cors.ts';
import { readGraphQLParams, readGraphQLSearchParams } from './graphql-params.ts';
import { errorAnswer, HttpError, searchOf, type Headers, type HttpAnswer, type HttpRequest } from './exchange.ts';
import { parseJson, readJsonText } from './json-body.ts';
import { GRAPHQL_RESPONSE, JSON_MEDIA, responseMediaType } from './media-type.ts';

export interface GraphQLHandlerOptions {
  store: Store;
  tokens: TokenService;
  /** Check bearer tokens; false acts as the root user `datahub` for every request. */
  auth: boolean;
  limits: Limits;
  /** Origins whose browser pages may call /api/graphql (`*` for any); none: no CORS headers at all. */
  corsOrigins?: readonly string[];
  /** Unexpected failures, with detail that must not reach the client. */
  logError: (error: unknown) => void;
}

export type GraphQLHandler = (request: HttpRequest) => Promise<HttpAnswer>;

/** What the request log names a request by, filled in as soon as the operation is known. */
interface Label {
  operation: string | undefined;
}

const RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;

export function createGraphQLHandler(options: GraphQLHandlerOptions): GraphQLHandler {
  const { store, tokens, auth, limits, corsOrigins = [], logError } = options;
  const readParams = (method: RequestMethod, text: string): GraphQLParams =>
    method === 'GET'
      ? badRequestOf(() => readGraphQLSearchParams(text, limits))
      : badRequestOf(() => readGraphQLParams(parseJson(text), limits));
  const executor = new CachedExecutor({ store, tokens, limits, logError, readParams, maxBytes: RESPONSE_CACHE_BYTES });
  const cors = createCors(corsOrigins);
  // Without CORS the headers follow the media type alone: built once for each, not for every request.
  const fixedHeaders =
    corsOrigins.length === 0
      ? new Map([JSON_MEDIA, GRAPHQL_RESPONSE].map((media) => [media, Object.freeze(answerHeaders({}, media))]))
      : null;

  return async function handleGraphQL(request) {
    // Before the token check: a browser's preflight carries none, and a refusal needs the header to be readable.
    const allowed = cors(request.method, request.headers.origin);
    if (allowed.preflight) return { status: 204, headers: allowed.headers, body: null };
    // Every answer from here on, refusals included, is a GraphQL response in the media type the client accepts.
    const media = responseMediaType(request.headers.accept);
    const headers = fixedHeaders?.get(media) ?? answerHeaders(allowed.headers, media);
    // What the request log names this request by, once the operation is known (refusals after that included).
    // A plain record rather than a callback: no closure is made per request.
    const label: Label = { operation: undefined };
    let reply: HttpAnswer;
    try {
      const { status, body } = await answer(request, media, label);
      reply = { status, headers, body };
    } catch (error) {
      if (error instanceof HttpError) reply = errorAnswer(error, headers);
      else {
        logError(error);
        reply = errorAnswer(new HttpError(500, 'An unknown error occurred.'), headers);
      }
    }
    if (label.operation !== undefined) reply.operation = label.operation;
    return reply;
  };

  /** Status and body of an answer that gets this far; refusals are thrown as HttpError. */
  async function answer(request: HttpRequest, media: string, label: Label): Promise<{ status: number; body: Buffer }> {
    const method = request.method;
    // HEAD too is refused, as graphql-http's reference server does: answering it would mean running the query.
    if (method !== 'POST' && method !== 'GET') {
      throw new HttpError(
        405,
        `${method} is not supported on /api/graphql; send a POST with a JSON body, or a query as GET with ?query=`,
        { Allow: 'GET, POST' },
      );
    }
    const actor = auth ? authenticate(tokens, request.headers.authorization) : ROOT_USER;
    // What identifies the request: a GET's query string (node's header size limit bounds it), a POST's body.
    const text = method === 'GET' ? searchOf(request.url) : await readJsonText(request, limits.maxBodyBytes);
    // A repeated read whose entities are unchanged is answered from the cache, before any parsing; a
    // cached answer is always a 200 with the same body under either media type.
    const found = executor.answer(actor, method, text);
    if (!(found instanceof Promise)) {
      if (found.label !== '') label.operation = found.label;
      return { status: 200, body: found.bytes };
    }
    const { outcome, bytes } = await found;
    const { response, requestError, operation, notAQuery } = outcome;
    if (operation !== null) label.operation = operation;
    if (notAQuery !== null) {
      // GraphQL over HTTP: a GET runs queries only, so anything else over GET is 405 and never runs.
      const message =
        notAQuery === 'mutation'
          ? 'a mutation cannot be sent with GET; send it as a POST with a JSON body'
          : 'a subscription cannot be sent with GET, and minihub serves no subscriptions; send a query';
      throw new HttpError(405, message, { Allow: 'POST' });
    }
    if (requestError && media === GRAPHQL_RESPONSE) {
      // GraphQL over HTTP: a request that never executed is a 400 without a data entry. With application/json
      // it stays 200 with data: null, as DataHub answers.
      return {
        status: 400,
        body: Buffer.from(JSON.stringify({ errors: response.errors, extensions: response.extensions })),
      };
    }
    return { status: 200, body: bytes ?? outcome.bytes ?? Buffer.from(JSON.stringify(response)) };
  }
}

/**
 * The answer is one user's view at one moment: no cache may keep it. A GET would otherwise be cacheable
 * by default heuristics; a POST is not, but saying so costs nothing. Its Content-Type follows Accept, its
 * body the token, and its CORS headers the Origin when CORS is configured.
 */
function answerHeaders(corsHeaders: Headers, media: string): Headers {
  const vary = corsHeaders.Vary === undefined ? 'Accept, Authorization' : `Accept, Authorization, ${corsHeaders.Vary}`;
  // Content-Type first, where every other answer (exchange.ts bytesAnswer) has it.
  return { 'Content-Type': `${media}; charset=utf-8`, ...corsHeaders, 'Cache-Control': 'no-store', Vary: vary };
}

/** Runs a parameter reader, turning its MinihubError into a 400. */
function badRequestOf<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof MinihubError) throw new HttpError(400, error.message);
    throw error;
  }
}
