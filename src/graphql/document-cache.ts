// Parsed and validated documents keyed by their query text, least recently used evicted first.
// Validation costs ~100x what execution does here, so a document is validated once, not per request.

import type { DocumentNode } from 'graphql';

export class DocumentCache {
  readonly #limit: number;
  readonly #documents = new Map<string, DocumentNode>();

  constructor(limit: number) {
    this.#limit = limit;
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
    this.#documents.set(query, document);
    if (this.#documents.size > this.#limit) {
      const oldest = this.#documents.keys().next().value;
      if (oldest !== undefined) this.#documents.delete(oldest);
    }
  }
}
