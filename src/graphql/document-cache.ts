// Parsed and validated documents keyed by their query text; about the least recently used go first (lru.ts).
// Validation costs ~100x what execution does here, so a document is validated once per process and limits,
// not per request nor per server. Bounded by entries and by total query characters, so large distinct
// queries cannot fill memory.

import type { DocumentNode } from 'graphql';

import type { DirectMutation } from './direct-mutation.ts';
import type { FastVariables } from './fast-variables.ts';
import { Lru } from './lru.ts';

export interface DocumentCacheLimits {
  maxEntries: number;
  /** Total characters of the cached query texts; their ASTs take up to ~80 bytes per character. */
  maxChars: number;
  /** Longer queries are not cached at all: they are rare, and each would crowd out many others. */
  maxQueryChars: number;
}

/** What is known of a validated document, whichever operation of it runs. */
export interface CachedDocument {
  document: DocumentNode;
  /** Per operation name ('' for none). */
  operations: Map<string, OperationFacts>;
}

/** What one operation of a cached document is, worked out once. */
export interface OperationFacts {
  /** Whether its reads are watched (see ReadWatch). */
  watched: boolean;
  /** The root field a log line names it by. */
  rootField: string | null;
  /** For a mutation, its variables plan once made (null: none possible; undefined: not made yet). */
  fast: FastVariables | null | undefined;
  /** For a planned mutation, whether it runs without graphql-js's execute (direct-mutation.ts), once known. */
  direct: DirectMutation | null | undefined;
}

/**
 * Documents that parsed and passed validation, shared by every server of the process: a test suite that
 * starts a fresh minihub per test validates each of its queries once, not once per server. The schema
 * is one per process (schema.ts); the limits that parse and validation apply are part of the key. Holds
 * only the documents (never per-server facts, which bind a server's own plans).
 */
export class ValidatedDocuments {
  readonly #maxQueryChars: number;
  readonly #documents: Lru<string, DocumentNode>;

  constructor(limits: DocumentCacheLimits) {
    this.#maxQueryChars = limits.maxQueryChars;
    this.#documents = new Lru({ maxEntries: limits.maxEntries, maxWeight: limits.maxChars }, (key) => key.length);
  }

  /** The document validated under `rules` (a key naming the limits it was checked against) for `query`. */
  get(rules: string, query: string): DocumentNode | undefined {
    return query.length <= this.#maxQueryChars ? this.#documents.get(`${rules}\n${query}`) : undefined;
  }

  /** Only documents that passed validation under `rules` belong here. */
  set(rules: string, query: string, document: DocumentNode): void {
    if (query.length <= this.#maxQueryChars) this.#documents.set(`${rules}\n${query}`, document);
  }
}

export class DocumentCache {
  readonly #maxQueryChars: number;
  readonly #documents: Lru<string, CachedDocument>;

  constructor(limits: DocumentCacheLimits) {
    this.#maxQueryChars = limits.maxQueryChars;
    this.#documents = new Lru({ maxEntries: limits.maxEntries, maxWeight: limits.maxChars }, (query) => query.length);
  }

  get(query: string): CachedDocument | undefined {
    return this.#documents.get(query);
  }

  /** Only documents that passed validation belong here. */
  set(query: string, entry: CachedDocument): void {
    if (query.length <= this.#maxQueryChars) this.#documents.set(query, entry);
  }
}
