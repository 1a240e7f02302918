// Parsed and validated documents keyed by their query text, least recently used evicted first.
// Validation costs ~100x what execution does here, so a document is validated once, not per request.
// Bounded by entries and by total query characters, so large distinct queries cannot fill memory.

import type { DocumentNode } from 'graphql';

export interface DocumentCacheLimits {
  maxEntries: number;
  /** Total characters of the cached query texts; their ASTs take up to ~80 bytes per character. */
  maxChars: number;
  /** Longer queries are not cached at all: they are rare, and each would crowd out many others. */
  maxQueryChars: number;
}

export class DocumentCache {
  readonly #limits: DocumentCacheLimits;
  readonly #documents = new Map<string, DocumentNode>();
  #chars = 0;

  constructor(limits: DocumentCacheLimits) {
    this.#limits = limits;
  }

  get(query: string): DocumentNode | undefined {
    const document = this.#documents.get(query);
    if (document !== undefined) {
      // Re-inserting moves the entry to the young end of the Map's insertion order.
      this.#documents.delete(query);
      this.#documents.set(query, document);
    }
    return document;
  }

  /** Only documents that passed validation belong here. */
  set(query: string, document: DocumentNode): void {
    if (query.length > this.#limits.maxQueryChars || this.#documents.has(query)) return;
    this.#documents.set(query, document);
    this.#chars += query.length;
    while (this.#documents.size > this.#limits.maxEntries || this.#chars > this.#limits.maxChars) {
      const oldest = this.#documents.keys().next().value;
      if (oldest === undefined) break;
      this.#documents.delete(oldest);
      this.#chars -= oldest.length;
    }
  }

  get size(): number {
    return this.#documents.size;
  }
}
