// minihub's route table: which path gets which pure handler, and the small JSON routes themselves.
// Pure of node:http like the handlers it names; a refusal thrown as HttpError becomes its JSON answer here.

import { shown } from '../errors.ts';
import { errorAnswer, HttpError, jsonAnswer, pathOf, type HttpAnswer, type HttpRequest } from './exchange.ts';
import { createGraphQLHandler, type GraphQLHandlerOptions } from './graphql-handler.ts';
import { createStaticFiles, GRAPHIQL_PATH } from './static-files.ts';
import { createRestHandler, isRestPath } from '../rest/rest-handler.ts';
import { ADMIN_PREFIX, createAdminHandler } from './admin-handler.ts';

export interface RouteOptions extends GraphQLHandlerOptions {
  version: string;
  /** What POST /api/admin/reset goes back to (the seeds); without it, reset empties the catalogue. */
  resetToSeed?: () => Promise<void>;
}

export type Routes = (request: HttpRequest) => Promise<HttpAnswer>;

const ENDPOINTS = [
  'POST /api/graphql',
  'GET /api/graphql?query=',
  'GET /api/graphiql',
  'GET /health',
  'GET /config',
  'POST /aspects?action=ingestProposal',
  'POST /aspects?action=ingestProposalBatch',
  'GET /aspects/{urn}?aspect=',
  'POST /entities?action=ingest',
  'POST /entities?action=delete',
  'GET /entitiesV2/{urn}',
  'POST /api/admin/reset',
  'GET /api/admin/snapshot',
  'POST /api/admin/restore',
];

export function createRoutes(options: RouteOptions): Routes {
  const graphql = createGraphQLHandler(options);
  // DataHub's REST (Rest.li) protocol, as its Python SDK and `datahub ingest` speak it.
  const rest = createRestHandler(options);
  // The fixture over HTTP (reset, snapshot, restore), for test suites that run minihub as a process.
  const admin = createAdminHandler(options);
  // The GraphiQL page and its assets need no token: the queries it sends carry the one typed into it.
  const graphiql = createStaticFiles();
  const config = { noCode: 'true', minihub: true, versions: { minihub: { version: options.version } } };

  function route(request: HttpRequest): Promise<HttpAnswer> {
    const path = pathOf(request.url);
    switch (path) {
      // GraphQL over HTTP: its own handler, which answers every refusal in the negotiated media type.
      case '/api/graphql':
        return graphql(request);
      // Liveness and the server's identity, as DataHub's clients ask for them.
      case '/health':
        return Promise.resolve(getOnly(request, { status: 'ok' }));
      case '/config':
        // DataHub's Python emitter refuses a server whose /config lacks noCode: "true". It names no
        // acryldata/datahub version: 1.0.1 or later would switch the SDK to OpenAPI endpoints minihub lacks.
        return Promise.resolve(getOnly(request, config));
      // The GraphiQL page and the files it loads.
      case GRAPHIQL_PATH:
        return graphiql(request, '');
      default:
        if (path.startsWith(`${GRAPHIQL_PATH}/`)) return graphiql(request, path.slice(GRAPHIQL_PATH.length + 1));
        if (isRestPath(path)) return rest(request);
        if (path.startsWith(ADMIN_PREFIX)) return admin(request);
        throw new HttpError(
          404,
          `no route for ${request.method} ${shown(path)}; minihub serves ${ENDPOINTS.join(', ')}`,
          {},
          { endpoints: ENDPOINTS },
        );
    }
  }

  // Without an async wrapper of its own: every request passes here, and each await is another turn.
  const refused = (error: unknown): HttpAnswer => {
    if (error instanceof HttpError) return errorAnswer(error);
    throw error;
  };
  return (request) => {
    try {
      return route(request).catch(refused);
    } catch (error) {
      return Promise.resolve(refused(error));
    }
  };
}

function getOnly(request: HttpRequest, body: unknown): HttpAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new HttpError(405, `${request.method} is not supported here; use GET`, { Allow: 'GET, HEAD' });
  }
  return jsonAnswer(200, body);
}
