// Answers to read-only queries, keyed by the acting user and the exact request body, each with the
// versions of the entities it read. A hit is served only while every one of them is unchanged, so a
// read after a write never sees old data; entries are evicted least recently used, bounded by bytes.

import type { Catalogue } from '../store/catalogue.ts';

interface Entry {
  bytes: Buffer;
  /** What the request log names the request by (see ExecutionOutcome.operation); '' for none. */
  label: string;
  epoch: number;
  dependencies: [urn: string, version: number][];
}

export class ResponseCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The cached answer, if every entity it read is as it was; a stale entry is dropped. */
  get(actor: string, body: string, catalogue: Catalogue): Buffer | undefined {
    return this.getAnswer(actor, body, catalogue)?.bytes;
  }

  /** As get(), with the label it was stored with. */
  getAnswer(actor: string, body: string, catalogue: Catalogue): { bytes: Buffer; label: string } | undefined {
    const key = keyOf(actor, body);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const current = entry.epoch === catalogue.epoch && entry.dependencies.every(([urn, version]) => catalogue.version(urn) === version);
    this.#entries.delete(key);
    if (!current) {
      this.#bytes -= entry.bytes.length + key.length;
      return undefined;
    }
    // Re-inserting moves the entry to the young end of the Map's insertion order.
    this.#entries.set(key, entry);
    return entry;
  }

  /** Remembers an answer and what it read (see `snapshot`). */
  set(actor: string, body: string, bytes: Buffer, read: ReadSnapshot, label = ''): void {
    const key = keyOf(actor, body);
    const size = bytes.length + key.length;
    if (size > this.#maxBytes / 16) return;
    const previous = this.#entries.get(key);
    if (previous !== undefined) this.#bytes -= previous.bytes.length + key.length;
    this.#entries.set(key, { bytes, label, epoch: read.epoch, dependencies: read.dependencies });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes.length + oldest.length;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface ReadSnapshot {
  epoch: number;
  dependencies: [urn: string, version: number][];
}

/** The versions of `touched` now: take it in the same tick as the reads, before any write can land. */
export function snapshot(touched: Iterable<string>, catalogue: Catalogue): ReadSnapshot {
  return { epoch: catalogue.epoch, dependencies: [...touched].map((urn): [string, number] => [urn, catalogue.version(urn)]) };
}

function keyOf(actor: string, body: string): string {
  return `${actor}\u0000${body}`;
}
