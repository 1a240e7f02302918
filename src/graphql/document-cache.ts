// Parsed and validated documents keyed by their query text (the process's also by their limits, see
// valid-document.ts); about the least recently used go first (lru.ts). Validation costs ~100x what execution
// does here, so a document is validated once, not per request. Bounded by entries and by total key characters,
// so large distinct queries cannot fill memory.

import type { DocumentNode } from 'graphql';

import type { DirectMutation } from './direct-mutation.ts';
import type { FastVariables } from './fast-variables.ts';
import { Lru } from './lru.ts';

export interface DocumentCacheLimits {
  maxEntries: number;
  /** Total characters of the keys (the query texts); their ASTs take up to ~80 bytes per character. */
  maxChars: number;
  /** Longer keys are not cached at all: such queries are rare, and each would crowd out many others. */
  maxQueryChars: number;
}

// A dense document's AST takes ~80 bytes per character of its text: 512 Ki characters bound a cache near 40 MB.
export const DOCUMENT_CACHE: DocumentCacheLimits = { maxEntries: 1000, maxChars: 512 * 1024, maxQueryChars: 64 * 1024 };

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
 * Entries keyed by a document's query text (or a key that ends with it), about the least recently used
 * evicted first: a server's documents with their facts (CachedDocument), and the process's validated
 * documents (valid-document.ts).
 */
export class DocumentCache<V> {
  readonly #maxQueryChars: number;
  readonly #entries: Lru<string, V>;

  constructor(limits: DocumentCacheLimits) {
    this.#maxQueryChars = limits.maxQueryChars;
    this.#entries = new Lru({ maxEntries: limits.maxEntries, maxWeight: limits.maxChars }, (key) => key.length);
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Only documents that passed validation belong here. */
  set(key: string, entry: V): void {
    if (key.length <= this.#maxQueryChars) this.#entries.set(key, entry);
  }
}
