// Answers to read-only queries, keyed by the acting user and the exact request (a POST's body or a GET's
// query string, kept apart), each with the versions of the entities it read. A hit is served only while
// all of them are unchanged, so a read after a write never sees old data; evicted LRU, bounded by bytes.

import type { Catalogue } from '../store/catalogue.ts';
import { Lru } from './lru.ts';

/** How the request came: a GET's query string and a POST's body are never taken for one another. */
export type RequestMethod = 'GET' | 'POST';

interface Entry {
  bytes: Buffer;
  /** What the request log names the request by (see ExecutionOutcome.operation); '' for none. */
  label: string;
  epoch: number;
  dependencies: [urn: string, version: number][];
}

export class ResponseCache {
  readonly #maxBytes: number;
  readonly #entries: Lru<string, Entry>;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#entries = new Lru({ maxWeight: maxBytes }, weigh);
  }

  /**
   * The cached answer and its label, if every entity it read is as it was; a stale entry is dropped.
   * `request` is the POST body's text, or the GET query string's: the same query sent both ways is two entries.
   */
  getAnswer(actor: string, method: RequestMethod, request: string, catalogue: Catalogue): { bytes: Buffer; label: string } | undefined {
    const key = keyOf(actor, method, request);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch === catalogue.epoch && entry.dependencies.every(([urn, version]) => catalogue.version(urn) === version)) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  /** Remembers an answer and what it read (see `snapshot`). */
  set(actor: string, method: RequestMethod, request: string, bytes: Buffer, read: ReadSnapshot, label = ''): void {
    const key = keyOf(actor, method, request);
    const entry = { bytes, label, epoch: read.epoch, dependencies: read.dependencies };
    // One answer may take a sixteenth of the budget at most, so a few huge ones cannot flush the rest.
    if (weigh(key, entry) > this.#maxBytes / 16) return;
    this.#entries.set(key, entry);
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

/** Bytes an entry holds: V8 keeps a string in one or two bytes per character, so count two. */
function weigh(key: string, entry: Entry): number {
  return 2 * key.length + entry.bytes.length;
}

// The method leads, so no body text can ever equal a query string's key, whatever either holds.
function keyOf(actor: string, method: RequestMethod, request: string): string {
  return `${method} ${actor}\u0000${request}`;
}
