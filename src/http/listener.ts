// The node:http request listener: a small route table, the transport checks of /api/graphql (method,
// token, content type, size, JSON; queries over GET) and JSON answers. GraphQL itself lives in graphql/.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

import type { TokenService } from '../auth/tokens.ts';
import { ROOT_USER } from '../auth/users.ts';
import { AuthenticationError, MinihubError, shown } from '../errors.ts';
import { GraphQLExecutor, readGraphQLParams, readGraphQLSearchParams } from '../graphql/execute-request.ts';
import { ResponseCache } from '../graphql/response-cache.ts';
import type { Limits } from '../limits.ts';
import type { Store } from '../store/store.ts';
import { closeAfterAnswer, readBody } from './body.ts';
import { createCors } from './cors.ts';
import { GRAPHQL_RESPONSE, responseMediaType } from './media-type.ts';
import { HttpError, sendBytes, sendHttpError, sendJson } from './reply.ts';
import { createStaticFiles, GRAPHIQL_PATH } from './static-files.ts';

export interface ListenerOptions {
  store: Store;
  tokens: TokenService;
  /** Check bearer tokens; false acts as the root user `datahub` for every request. */
  auth: boolean;
  limits: Limits;
  version: string;
  /** Origins whose browser pages may call /api/graphql (`*` for any); none: no CORS headers at all. */
  corsOrigins?: readonly string[];
  /** One line per answered request: method, path, status, time and, for /api/graphql, the operation. */
  logRequest?: (line: string) => void;
  /** Unexpected failures, with detail that must not reach the client. */
  logError: (error: unknown) => void;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;
const ENDPOINTS = ['POST /api/graphql', 'GET /api/graphql?query=', 'GET /api/graphiql', 'GET /health', 'GET /config'];

export function createRequestListener(options: ListenerOptions): RequestListener {
  const { store, tokens, auth, limits, version, corsOrigins = [], logRequest, logError } = options;
  const executor = new GraphQLExecutor(limits, logError);
  const answers = new ResponseCache(RESPONSE_CACHE_BYTES);
  // The GraphiQL page and its assets need no token: the queries it sends carry the one typed into it.
  const graphiql = createStaticFiles();
  const cors = createCors(corsOrigins);
  // What each /api/graphql answer's log line names it by; set once the operation is known.
  const operations = new WeakMap<ServerResponse, string>();

  async function graphql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Before the token check: a browser's preflight carries none, and a refusal needs the header to be readable.
    if (cors.handle(req, res)) return;
    // Every answer from here on, refusals included, is a GraphQL response in the media type the client accepts.
    const media = responseMediaType(req.headers.accept);
    res.setHeader('Content-Type', `${media}; charset=utf-8`);
    // The answer is one user's view at one moment: no cache may keep it. A GET would otherwise be cacheable
    // by default heuristics; a POST is not, but saying so costs nothing. Its Content-Type follows Accept, its
    // body the token; Origin was named by the CORS handler when CORS is configured.
    res.setHeader('Cache-Control', 'no-store');
    const vary = res.getHeader('Vary');
    res.setHeader('Vary', vary === undefined ? 'Accept, Authorization' : `Accept, Authorization, ${String(vary)}`);
    const method = req.method;
    // HEAD too is refused, as graphql-http's reference server does: answering it would mean running the query.
    if (method !== 'POST' && method !== 'GET') {
      throw new HttpError(405, `${method} is not supported on /api/graphql; send a POST with a JSON body, or a query as GET with ?query=`, { Allow: 'GET, POST' });
    }
    const actor = auth ? authenticate(tokens, req.headers.authorization) : ROOT_USER;
    // What identifies the request: a GET's query string (node's header size limit bounds it), a POST's body.
    const request = method === 'GET' ? searchOf(req.url) : await readJsonText(req, limits.maxBodyBytes);
    // A repeated read whose entities are unchanged is answered from the cache, before any parsing.
    // Only answers that executed are cached: status 200 and the same body under either media type, whose
    // Content-Type was set above from this request's Accept and is never part of what is stored.
    const cached = answers.getAnswer(actor, method, request, store.catalogue);
    if (cached !== undefined) {
      if (logRequest !== undefined && cached.label !== '') operations.set(res, cached.label);
      sendBytes(res, 200, cached.bytes);
      return;
    }
    const params = method === 'GET' ? badRequestOf(() => readGraphQLSearchParams(request, limits)) : badRequestOf(() => readGraphQLParams(parseJson(request), limits));
    const { response, read, requestError, operation, notAQuery } = await executor.run(params, { store, tokens, actor, limits }, { queriesOnly: method === 'GET' });
    if (logRequest !== undefined && operation !== null) operations.set(res, operation);
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
      sendJson(res, 400, { errors: response.errors, extensions: response.extensions });
      return;
    }
    const answer = Buffer.from(JSON.stringify(response));
    if (read !== null) answers.set(actor, method, request, answer, read, operation ?? '');
    sendBytes(res, 200, answer);
  }

  function route(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    // node:http's own refusal (requireHostHeader, turned off in index.ts) has an empty body.
    if (req.httpVersion === '1.1' && req.headers.host === undefined) throw new HttpError(400, 'an HTTP/1.1 request needs a Host header');
    const path = (req.url ?? '/').split('?')[0];
    switch (path) {
      case '/api/graphql':
        return graphql(req, res);
      case '/health':
        return getOnly(req, res, { status: 'ok' });
      case '/config':
        // DataHub's Python emitter refuses a server whose /config lacks noCode: "true".
        return getOnly(req, res, { noCode: 'true', minihub: true, versions: { minihub: { version } } });
      case GRAPHIQL_PATH:
        return graphiql(req, res, '');
      default:
        if (path?.startsWith(`${GRAPHIQL_PATH}/`) === true) return graphiql(req, res, path.slice(GRAPHIQL_PATH.length + 1));
        throw new HttpError(404, `no route for ${req.method} ${shown(path ?? '')}; minihub serves ${ENDPOINTS.join(', ')}`, {}, { endpoints: ENDPOINTS });
    }
  }

  return (req, res) => {
    // Only when lines are wanted: a listener and a map entry per request are not free under load.
    if (logRequest !== undefined) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The path without its query string, and never headers, bodies or variables: tokens stay out of the log.
        const path = (req.url ?? '/').split('?')[0];
        const operation = operations.get(res);
        logRequest(`${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms${operation === undefined ? '' : ` ${operation}`}`);
      });
    }
    Promise.resolve()
      .then(() => route(req, res))
      .catch((error: unknown) => {
        if (res.headersSent) {
          logError(error);
          res.destroy();
          return;
        }
        if (error instanceof HttpError) {
          // Refused before its body was read: close, rather than read on through a body nobody wants.
          if (!req.complete) closeAfterAnswer(req, res);
          sendHttpError(res, error);
          return;
        }
        logError(error);
        sendHttpError(res, new HttpError(500, 'An unknown error occurred.'));
      });
  };
}

function authenticate(tokens: TokenService, header: string | undefined): string {
  try {
    return tokens.authenticate(header);
  } catch (error) {
    if (error instanceof AuthenticationError) {
      const extensions = { code: 401, type: 'UNAUTHENTICATED', reason: error.reason };
      // RFC 6750: a request without credentials gets the challenge alone, a bad token an error code too.
      const challenge = error.reason === 'missing' ? 'Bearer realm="minihub"' : 'Bearer realm="minihub", error="invalid_token"';
      throw new HttpError(401, error.message, { 'WWW-Authenticate': challenge }, extensions);
    }
    throw error;
  }
}

/** A POST's body as text: JSON content type, size limit, strict UTF-8. */
async function readJsonText(req: IncomingMessage, maxBytes: number): Promise<string> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new HttpError(415, `Content-Type ${contentType === '' ? 'is missing' : `"${shown(contentType)}" is not supported`}; expected application/json`);
  }
  const bytes = await readBody(req, maxBytes);
  try {
    // Fatal decoding: a lenient one would store U+FFFD in place of the bytes the client sent.
    return UTF8.decode(bytes);
  } catch {
    throw new HttpError(400, 'the body is not valid UTF-8; expected UTF-8 encoded JSON');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The part of a request target after `?`, or '' without one. */
function searchOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at < 0 ? '' : (url as string).slice(at + 1);
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

function getOnly(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpError(405, `${req.method} is not supported here; use GET`, { Allow: 'GET, HEAD' });
  }
  sendJson(res, 200, body);
}
