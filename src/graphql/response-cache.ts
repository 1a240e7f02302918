// The response cache, whole: which queries may be cached, the reader that records what an answer read,
// the entity versions a hit checks, the key, and CachedExecutor, the one call the HTTP handler makes.
// Answers are keyed by the acting user and the exact request (a POST's body or a GET's query string,
// kept apart); a hit is served only while every entity read is unchanged, so a read after a write never
// sees old data. Evicted about least recently used first (lru.ts), bounded by bytes. It never parses
// HTTP; it is handed a params reader.

import { getOperationAST, Kind, type DocumentNode } from 'graphql';

import type { TokenService } from '../auth/tokens.ts';
import type { Limits } from '../limits.ts';
import type { AspectReader, Catalogue } from '../store/catalogue.ts';
import type { JsonValue } from '../aspects/json.ts';
import type { Store } from '../store/store.ts';
import { GraphQLExecutor, type ExecutionOutcome, type GraphQLParams, type ReadWatch } from './execute-request.ts';
import { Lru } from './lru.ts';
import { searchIndexOf } from '../search/search-index.ts';

/** How the request came: a GET's query string and a POST's body are never taken for one another. */
export type RequestMethod = 'GET' | 'POST';

interface Entry {
  bytes: Buffer;
  /** What the request log names the request by (see ExecutionOutcome.operation); '' for none. */
  label: string;
  epoch: number;
  dependencies: [urn: string, version: number][];
  /** The request text's length (see ResponseCache's #lengths). */
  length: number;
}

// Root fields whose answers depend only on entities read through the query's reader (and the schema, for
// introspection), so an answer can be reused while those entities are unchanged. listAccessTokens lists
// every token and search's fields (searchAcrossEntities...) depend on every entity they could match,
// which no recorder of single entities can follow, and mutations write: never cached.
const CACHEABLE_ROOT_FIELDS = new Set([
  'dataset',
  'container',
  'tag',
  'corpUser',
  'me',
  '__typename',
  '__schema',
  '__type',
]);

/** Turns a request's text into GraphQL parameters; throws (as the caller's protocol wants) when it cannot. */
export type ParamsReader = (method: RequestMethod, text: string) => GraphQLParams;

export interface CachedExecutorOptions {
  store: Store;
  tokens: TokenService;
  limits: Limits;
  /** Unexpected failures, with detail that must not reach the client. */
  logError: (error: unknown) => void;
  readParams: ParamsReader;
  maxBytes: number;
}

/** A cached answer: its bytes and the label the request log names it by ('' for none). */
export interface CachedAnswer {
  bytes: Buffer;
  label: string;
}

/** An answer that ran: the outcome, and its 200 body when it was cached (null: the caller builds the body). */
export interface ExecutedAnswer {
  outcome: ExecutionOutcome<ReadSnapshot>;
  bytes: Buffer | null;
}

/** The executor with the cache around it: one call answers from the cache or runs and fills it. */
export class CachedExecutor {
  readonly #store: Store;
  readonly #tokens: TokenService;
  readonly #limits: Limits;
  readonly #readParams: ParamsReader;
  readonly #executor: GraphQLExecutor<RecordingReader, ReadSnapshot>;
  readonly #answers: ResponseCache;

  constructor(options: CachedExecutorOptions) {
    this.#store = options.store;
    this.#tokens = options.tokens;
    this.#limits = options.limits;
    this.#readParams = options.readParams;
    this.#executor = new GraphQLExecutor(options.limits, options.logError, WATCH);
    this.#answers = new ResponseCache(options.maxBytes);
    // The search index builds from now on, in chunks between requests: reads are answered meanwhile.
    searchIndexOf(options.store);
  }

  /**
   * The cached answer to `text` from `actor` when its entities are unchanged, else a run. Not async, so
   * a hit costs no promise: the caller tells the two apart with `instanceof Promise`.
   */
  answer(actor: string, method: RequestMethod, text: string): CachedAnswer | Promise<ExecutedAnswer> {
    return this.#answers.getAnswer(actor, method, text, this.#store.catalogue) ?? this.#run(actor, method, text);
  }

  // Only answers that executed without errors are cached: status 200 and the same body under either media type.
  async #run(actor: string, method: RequestMethod, text: string): Promise<ExecutedAnswer> {
    const params = this.#readParams(method, text);
    const context = { store: this.#store, tokens: this.#tokens, actor, limits: this.#limits };
    const outcome = await this.#executor.run(params, context, { queriesOnly: method === 'GET' });
    if (outcome.read === null) return { outcome, bytes: null };
    const bytes = Buffer.from(JSON.stringify(outcome.response));
    this.#answers.set(actor, method, text, bytes, outcome.read, outcome.operation ?? '');
    return { outcome, bytes };
  }
}

/** The entries: answers with the versions they read, LRU by bytes. */
export class ResponseCache {
  readonly #maxBytes: number;
  readonly #entries: Lru<string, Entry>;
  // How many entries have a request text of each length. A request of a length no entry has (every write,
  // under a load of reads and writes whose texts differ in length) misses without a key being built and
  // hashed: the key is the whole text, a few hundred characters, and the lookup cost a write about 0.7 µs.
  readonly #lengths = new Map<number, number>();

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#entries = new Lru({ maxWeight: maxBytes }, weigh, (_key, { length }) => {
      const count = (this.#lengths.get(length) as number) - 1;
      if (count === 0) this.#lengths.delete(length);
      else this.#lengths.set(length, count);
    });
  }

  /**
   * The cached answer and its label, if every entity it read is as it was; a stale entry is dropped.
   * `request` is the POST body's text, or the GET query string's: the same query sent both ways is two entries.
   */
  getAnswer(
    actor: string,
    method: RequestMethod,
    request: string,
    catalogue: Catalogue,
  ): { bytes: Buffer; label: string } | undefined {
    if (!this.#lengths.has(request.length)) return undefined;
    const key = keyOf(actor, method, request);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (isCurrent(entry, catalogue)) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  /** Remembers an answer and what it read (see `snapshot`). */
  set(actor: string, method: RequestMethod, request: string, bytes: Buffer, read: ReadSnapshot, label = ''): void {
    const key = keyOf(actor, method, request);
    const entry = { bytes, label, epoch: read.epoch, dependencies: read.dependencies, length: request.length };
    // One answer may take a sixteenth of the budget at most, so a few huge ones cannot flush the rest.
    if (weigh(key, entry) > this.#maxBytes / 16) return;
    // Counted before it is stored: storing may replace an entry of the same key, or evict this one at once.
    this.#lengths.set(entry.length, (this.#lengths.get(entry.length) ?? 0) + 1);
    this.#entries.set(key, entry);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Whether every entity the entry read is as it was then: a plain loop, run on every hit. */
function isCurrent(entry: Entry, catalogue: Catalogue): boolean {
  if (entry.epoch !== catalogue.epoch) return false;
  for (const [urn, version] of entry.dependencies) if (catalogue.version(urn) !== version) return false;
  return true;
}

export interface ReadSnapshot {
  epoch: number;
  dependencies: [urn: string, version: number][];
}

/** The versions of `touched` now: take it in the same tick as the reads, before any write can land. */
export function snapshot(touched: Iterable<string>, catalogue: Catalogue): ReadSnapshot {
  return {
    epoch: catalogue.epoch,
    dependencies: [...touched].map((urn): [string, number] => [urn, catalogue.version(urn)]),
  };
}

/** Reads through to the catalogue and notes every entity read, so an answer knows what it depends on. */
export class RecordingReader implements AspectReader {
  readonly #catalogue: Catalogue;
  readonly touched = new Set<string>();

  constructor(catalogue: Catalogue) {
    this.#catalogue = catalogue;
  }

  aspect(urn: string, name: string): JsonValue | undefined {
    this.touched.add(urn);
    return this.#catalogue.aspect(urn, name);
  }

  aspectJson(urn: string, name: string): string | undefined {
    this.touched.add(urn);
    return this.#catalogue.aspectJson(urn, name);
  }

  exists(urn: string): boolean {
    this.touched.add(urn);
    return this.#catalogue.exists(urn);
  }

  // The container's version changes whenever its contents do (Catalogue.version), so noting it suffices.
  contained(container: string): ReadonlySet<string> {
    this.touched.add(container);
    return this.#catalogue.contained(container);
  }
}

/** What the executor asks of the cache: which operations to record, with which reader, and what they read. */
const WATCH: ReadWatch<RecordingReader, ReadSnapshot> = {
  watches: isCacheable,
  recorder: (catalogue) => new RecordingReader(catalogue),
  seen: (recorder, catalogue) => snapshot(recorder.touched, catalogue),
};

function isCacheable(document: DocumentNode, operationName: string | null): boolean {
  const operation = getOperationAST(document, operationName);
  return (
    operation?.operation === 'query' &&
    operation.selectionSet.selections.every(
      (selection) => selection.kind === Kind.FIELD && CACHEABLE_ROOT_FIELDS.has(selection.name.value),
    )
  );
}

// About what one [urn, version] pair of an entry's dependencies takes (the URN string itself is shared).
const DEPENDENCY_BYTES = 64;

/**
 * Bytes an entry holds: V8 keeps a string in one or two bytes per character, so count two. Its
 * dependencies count too: a container listing filtered by name reads every child, and an answer that
 * depends on 100,000 entities is too big to keep even when its body is small.
 */
function weigh(key: string, entry: Entry): number {
  return 2 * key.length + entry.bytes.length + entry.dependencies.length * DEPENDENCY_BYTES;
}

// The method leads, so no body text can ever equal a query string's key, whatever either holds.
function keyOf(actor: string, method: RequestMethod, request: string): string {
  return `${method} ${actor}\u0000${request}`;
}
