// The GraphQL half of /api/graphql: checked request parameters in, DataHub's response envelope out (a valid
// document from valid-document.ts, execution, error shapes). Pure of HTTP and of caching answers:
// response-cache.ts wraps it and says, through a ReadWatch, which operations' reads to record.

import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

import type { Limits } from '../limits.ts';
import { rootValue } from '../resolvers/root.ts';
import type { MutationContext, QueryContext } from '../resolvers/context.ts';
import type { AspectReader, Catalogue } from '../store/catalogue.ts';
import type { JsonObject } from '../aspects/json.ts';
import { searchIndexOf } from '../search/search-index.ts';
import { DOCUMENT_CACHE, DocumentCache, type CachedDocument, type OperationFacts } from './document-cache.ts';
import { directMutation, settledRoot } from './direct-mutation.ts';
import { fastVariables, withPassThrough, type FastVariables } from './fast-variables.ts';
import { formatError, type ErrorEntry, type ErrorPhase } from './format-error.ts';
import { minihubSchema } from './schema.ts';
import { DocumentValidator } from './valid-document.ts';

export interface GraphQLParams {
  query: string;
  variables: JsonObject | null;
  operationName: string | null;
}

/** DataHub's envelope, keys in its order: errors first, then data, then an empty extensions. */
export interface GraphQLResponse {
  errors?: ErrorEntry[];
  data: unknown;
  extensions: Record<string, never>;
}

/**
 * Who records what a query reads (the response cache). Asked once per document and operation whether
 * to watch it; for a watched run, a reader to run it with, and what that reader saw, in the same tick
 * the reads ran, before any write can land.
 */
export interface ReadWatch<Recorder extends AspectReader, Seen> {
  watches(document: DocumentNode, operationName: string | null): boolean;
  recorder(catalogue: Catalogue): Recorder;
  seen(recorder: Recorder, catalogue: Catalogue): Seen;
}

export interface ExecutionOutcome<Seen = never> {
  response: GraphQLResponse;
  /** What a watched run read, when it completed without errors; null otherwise. */
  read: Seen | null;
  /**
   * True when nothing was executed: a syntax, validation or variable error, or an unknown operation.
   * GraphQL over HTTP answers those 400 without `data` for application/graphql-response+json.
   */
  requestError: boolean;
  /** For the request log: the operationName if given (and a GraphQL name), else the first root field. */
  operation: string | null;
  /**
   * Set when the run was for queries only and the chosen operation is a mutation or a subscription:
   * nothing ran. GraphQL over HTTP answers those 405 over GET.
   */
  notAQuery: NotAQuery | null;
  /** The response as JSON bytes, where they were known without serialising it (see DirectMutation.answer). */
  bytes?: Buffer | null;
}

export type NotAQuery = 'mutation' | 'subscription';

export interface RunOptions {
  /** Run queries only (GraphQL over HTTP: a GET must not change anything, nor open a stream). */
  queriesOnly?: boolean;
}

export class GraphQLExecutor<Recorder extends AspectReader = AspectReader, Seen = never> {
  readonly #schema: GraphQLSchema = minihubSchema();
  // Mutations with a variables plan run here (fast-variables.ts); made on the first such mutation.
  #passThroughSchema: GraphQLSchema | null = null;
  readonly #cache = new DocumentCache<CachedDocument>(DOCUMENT_CACHE);
  readonly #validator: DocumentValidator;
  readonly #logUnexpected: (error: unknown) => void;
  readonly #watch: ReadWatch<Recorder, Seen> | null;

  constructor(limits: Limits, logUnexpected: (error: unknown) => void, watch: ReadWatch<Recorder, Seen> | null = null) {
    this.#validator = new DocumentValidator(limits);
    this.#logUnexpected = logUnexpected;
    this.#watch = watch;
  }

  /** Runs a query with a reader over the store's catalogue, a mutation with the store itself. */
  async run(
    params: GraphQLParams,
    context: MutationContext,
    options: RunOptions = {},
  ): Promise<ExecutionOutcome<Seen>> {
    // A client's operationName is logged only when it is a plain GraphQL name: no line breaks, no secrets' shapes.
    const named =
      params.operationName !== null && /^[_A-Za-z][_0-9A-Za-z]{0,99}$/.test(params.operationName)
        ? params.operationName
        : null;
    let cached = this.#cache.get(params.query);
    if (cached === undefined) {
      const checked = this.#validator.check(params.query);
      if (!('kind' in checked)) {
        const { errors, phase, document } = checked;
        return this.#failure(errors, phase, named ?? (document && firstRootField(document, null)));
      }
      cached = { document: checked, operations: new Map() };
      this.#cache.set(params.query, cached);
    }
    const { document } = cached;
    // What the chosen operation is does not change between requests: work it out once per document.
    let facts = cached.operations.get(params.operationName ?? '');
    if (facts === undefined) {
      facts = {
        watched: this.#watch?.watches(document, params.operationName) ?? false,
        rootField: firstRootField(document, params.operationName),
        fast: undefined,
        direct: undefined,
      };
      // Only names the document defines are remembered, so made-up names cannot grow the map.
      if (getOperationAST(document, params.operationName) !== null)
        cached.operations.set(params.operationName ?? '', facts);
    }
    const operation = named ?? facts.rootField;
    // Checked once the document is known valid, as graphql-http's reference server does; nothing has run yet.
    const chosen = getOperationAST(document, params.operationName) ?? null;
    if (options.queriesOnly === true && chosen !== null && chosen.operation !== 'query') {
      return {
        response: { data: null, extensions: {} },
        read: null,
        requestError: true,
        operation,
        notAQuery: chosen.operation,
      };
    }
    // The schema has no Subscription type, yet graphql-js validates a subscription and only its execute
    // fails (an unexpected error): refused here as a request error instead, with nothing run.
    if (chosen?.operation === 'subscription') {
      const refused = new GraphQLError(
        'minihub serves no subscriptions; send this operation as a query (or a mutation over POST)',
        { nodes: chosen },
      );
      return this.#failure([refused], 'validation', operation);
    }
    const { store, tokens, actor, limits } = context;
    const catalogue = store.catalogue;
    const watch = facts.watched ? this.#watch : null;
    const recorder = watch !== null ? watch.recorder(catalogue) : null;
    // A query sees a reader and no store, a mutation the store: see resolvers/context.ts. With no operation
    // chosen (an unknown name), execute reports the error before any resolver runs.
    const contextValue: QueryContext | MutationContext =
      chosen?.operation === 'mutation'
        ? context
        : {
            reader: recorder ?? catalogue,
            history: store.history,
            search: searchIndexOf(store),
            tokens,
            actor,
            limits,
          };
    // A mutation's variables coerced by the operation's plan, when it takes them as they are (see fast-variables.ts).
    const plan = chosen?.operation === 'mutation' ? this.#variablesPlan(facts, document, chosen) : null;
    const coerced = plan?.coerce(params.variables) ?? null;
    let root = rootValue;
    if (plan !== null && coerced !== null && chosen !== null) {
      // One field with a plain result is called directly; anything else is completed by graphql-js below.
      facts.direct ??= directMutation(this.#schema, chosen, rootValue);
      if (facts.direct !== null) {
        const settled = await facts.direct.call(coerced, contextValue);
        const data = facts.direct.data(settled);
        if (data !== null) {
          const bytes = facts.direct.answer(settled);
          return {
            response: { data, extensions: {} },
            read: null,
            requestError: false,
            operation,
            notAQuery: null,
            bytes,
          };
        }
        root = settledRoot(facts.direct.field, settled);
      }
    }
    const pending = execute({
      schema: coerced === null ? this.#schema : this.#passThrough(),
      document: coerced === null || plan === null ? document : plan.document,
      rootValue: root,
      contextValue,
      variableValues: coerced ?? params.variables,
      operationName: params.operationName,
    });
    // Queries resolve synchronously; their reads are taken in this same tick, before a write lands.
    const read = watch !== null && recorder !== null && !isPromise(pending) ? watch.seen(recorder, catalogue) : null;
    const result = await pending;
    // Without data, execution stopped before running: bad variables or an unknown operation name.
    if (!('data' in result)) return this.#failure(result.errors ?? [], 'validation', operation);
    const response: GraphQLResponse = { data: result.data, extensions: {} };
    if (result.errors !== undefined) {
      const errors = result.errors.map((error) => formatError(error, 'execution', this.#logUnexpected));
      return { response: { errors, ...response }, read: null, requestError: false, operation, notAQuery: null };
    }
    return { response, read, requestError: false, operation, notAQuery: null };
  }

  /** The variables plan of a mutation, made on its first run (fast-variables.ts); null when none is possible. */
  #variablesPlan(
    facts: OperationFacts,
    document: DocumentNode,
    mutation: OperationDefinitionNode,
  ): FastVariables | null {
    if (facts.fast === undefined) facts.fast = fastVariables(this.#schema, document, mutation);
    return facts.fast;
  }

  /** The schema planned mutations run in, made on the first. */
  #passThrough(): GraphQLSchema {
    return (this.#passThroughSchema ??= withPassThrough(this.#schema));
  }

  #failure(errors: readonly GraphQLError[], phase: ErrorPhase, operation: string | null): ExecutionOutcome<Seen> {
    const formatted = errors.map((error) => formatError(error, phase, this.#logUnexpected));
    return {
      response: { errors: formatted, data: null, extensions: {} },
      read: null,
      requestError: true,
      operation,
      notAQuery: null,
    };
  }
}

/** The name of the first field selected at the root of the operation that runs, e.g. `dataset`. */
function firstRootField(document: DocumentNode, operationName: string | null): string | null {
  const operation =
    getOperationAST(document, operationName) ??
    document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return null;
  const field = operation.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
  return field?.kind === Kind.FIELD ? field.name.value : null;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === 'function';
}
