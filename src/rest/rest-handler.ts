// DataHub's REST (Rest.li) endpoints, from request to answer: /aspects (ingestProposal, ingestProposalBatch,
// GET one aspect), /entities (ingest, delete) and /entitiesV2 (GET an entity). The same bearer tokens and body
// limit as /api/graphql; every refusal a Rest.li error body. Pure of node:http, as graphql-handler.ts is.

import type { JsonObject } from '../aspects/json.ts';
import type { TokenService } from '../auth/tokens.ts';
import { mayIngest } from '../auth/privileges.ts';
import { ROOT_USER } from '../auth/users.ts';
import { isJsonObject } from '../aspects/json.ts';
import { authenticate } from '../http/bearer.ts';
import { pathOf, searchOf, type HttpAnswer, type HttpRequest } from '../http/exchange.ts';
import { parseJson, readJsonText } from '../http/json-body.ts';
import type { Limits } from '../limits.ts';
import type { Store } from '../store/store.ts';
import { corpUserUrn } from '../urn.ts';
import { forbiddenProposals } from './proposals.ts';
import { getAspect, getEntity } from './reads.ts';
import { actionAnswer, emptyAnswer, quotedParam, recordAnswer, restliError, RestliError } from './restli.ts';
import { deleteEntity, ingestProposal, ingestProposalBatch, ingestSnapshot, SUCCESS } from './writes.ts';

export interface RestHandlerOptions {
  store: Store;
  tokens: TokenService;
  /** Check bearer tokens; false acts as the root user `datahub` for every request. */
  auth: boolean;
  limits: Limits;
  /** Unexpected failures, with detail that must not reach the client. */
  logError: (error: unknown) => void;
}

export type RestHandler = (request: HttpRequest) => Promise<HttpAnswer>;

/** The collections served here, as DataHub's GMS names them. */
const COLLECTIONS = ['/aspects', '/entities', '/entitiesV2'];

/** Whether `path` is one of DataHub's REST collections (or a key in one) that this handler answers. */
export function isRestPath(path: string): boolean {
  return COLLECTIONS.some((collection) => path === collection || path.startsWith(`${collection}/`));
}

type Action = (store: Store, actor: string, body: JsonObject) => Promise<HttpAnswer>;

// Each collection's actions (POST /<collection>?action=<name>) and what it answers.
const ACTIONS: Record<string, Record<string, Action>> = {
  '/aspects': {
    ingestProposal: async (store, actor, body) => (await ingestProposal(store, actor, body), actionAnswer(SUCCESS)),
    ingestProposalBatch: async (store, actor, body) => (
      await ingestProposalBatch(store, actor, body),
      actionAnswer(SUCCESS)
    ),
  },
  '/entities': {
    ingest: async (store, actor, body) => (await ingestSnapshot(store, actor, body), emptyAnswer()),
    delete: async (store, actor, body) => actionAnswer(await deleteEntity(store, actor, body)),
  },
};

// The collections answering GET /<collection>/<url-encoded urn>.
const READS: Record<string, (store: Store, urn: string, params: URLSearchParams) => JsonObject> = {
  '/aspects': (store, urn, params) => getAspect(store.catalogue, urn, params),
  '/entitiesV2': (store, urn, params) => getEntity(store.catalogue, urn, params),
};

export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const { store, tokens, auth, limits, logError } = options;

  return async function handleRest(request) {
    let operation: string | undefined;
    let reply: HttpAnswer;
    try {
      const path = pathOf(request.url);
      const params = new URLSearchParams(searchOf(request.url));
      const slash = path.indexOf('/', 1);
      const collection = slash < 0 ? path : path.slice(0, slash);
      if (slash < 0) {
        const action = actionOf(collection, request.method, params);
        operation = action.name;
        const actor = auth ? authenticate(tokens, request.headers.authorization) : ROOT_USER;
        // Refused before up to 16 MiB of body is read for nothing; checked again inside the commit, against
        // the state the write lands on.
        if (!mayIngest(store.catalogue, actor)) throw forbiddenProposals(corpUserUrn(actor), []);
        const body = parseJson(await readJsonText(request, limits.maxRestBodyBytes));
        if (!isJsonObject(body)) throw new RestliError(400, `the body of action "${action.name}" is not a JSON object`);
        reply = await action.run(store, actor, body);
      } else {
        const read = READS[collection];
        if (read === undefined) throw notFound(request.method, path);
        if (request.method !== 'GET') throw methodNotAllowed(request.method, 'GET');
        operation = collection.slice(1);
        if (auth) authenticate(tokens, request.headers.authorization);
        reply = recordAnswer(read(store, decodeKey(path.slice(slash + 1)), params));
      }
    } catch (error) {
      const refused = restliError(error);
      if (refused === null) logError(error);
      reply = refused ?? (restliError(new RestliError(500, 'An unknown error occurred.')) as HttpAnswer);
    }
    if (operation !== undefined) reply.operation = operation;
    return reply;
  };
}

/** The action a POST to `collection` names, checked before any token or body is read. */
function actionOf(collection: string, method: string, params: URLSearchParams): { name: string; run: Action } {
  const actions = ACTIONS[collection];
  if (actions === undefined) throw notFound(method, collection);
  if (method !== 'POST') throw methodNotAllowed(method, 'POST');
  const names = params.getAll('action');
  const name = names[0];
  // Own keys only: every object also answers toString, constructor and the like.
  const run = name === undefined || names.length > 1 || !Object.hasOwn(actions, name) ? undefined : actions[name];
  if (name === undefined || run === undefined) {
    const given = name === undefined ? 'no action' : `action ${quotedParam(names.join(','))}`;
    throw new RestliError(
      400,
      `POST ${collection} with ${given} is not supported; expected ?action=${Object.keys(actions).join(' or ?action=')}`,
    );
  }
  return { name, run };
}

/** A URN from the path, as the SDK sends it: percent-encoded. */
function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    throw new RestliError(400, `the key ${quotedParam(key)} is not a valid percent-encoded urn`);
  }
}

function notFound(method: string, path: string): RestliError {
  return new RestliError(404, `no resource for ${method} ${quotedParam(path)}`);
}

function methodNotAllowed(method: string, allowed: string): RestliError {
  return new RestliError(405, `${method} is not supported here; use ${allowed}`, { Allow: allowed });
}
