// Answers to read-only queries, keyed by the acting user and the exact request body, each with the
// versions of the entities it read. A hit is served only while every one of them is unchanged, so a
// read after a write never sees old data; entries are evicted least recently used, bounded by bytes.

import type { Catalogue } from '../store/catalogue.ts';
import { Lru } from './lru.ts';

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

  /** The cached answer and its label, if every entity it read is as it was; a stale entry is dropped. */
  getAnswer(actor: string, body: string, catalogue: Catalogue): { bytes: Buffer; label: string } | undefined {
    const key = keyOf(actor, body);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch === catalogue.epoch && entry.dependencies.every(([urn, version]) => catalogue.version(urn) === version)) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  /** Remembers an answer and what it read (see `snapshot`). */
  set(actor: string, body: string, bytes: Buffer, read: ReadSnapshot, label = ''): void {
    const key = keyOf(actor, body);
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

function keyOf(actor: string, body: string): string {
  return `${actor}\u0000${body}`;
}
