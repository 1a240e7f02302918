// The live search index over one store's catalogue: built after start-up in slices of 10 ms that yield to
// the event loop (every document counted, then every posting list laid out at once, on a worker thread for a
// large catalogue: engine-build.ts), then kept current by the store's applied-changes listener. Changed
// entities are noted as they are applied and re-indexed before the next question, so a write is searchable
// by the next request.

import type { AspectReader, Catalogue } from '../store/catalogue.ts';
import type { Store } from '../store/store.ts';
import { searchDocument, type FacetValues } from './documents.ts';
import { engineBuilder } from './engine-build.ts';
import { FacetPool } from './facet-pool.ts';
import type { DocumentText } from './fields.ts';
import { createSearchEngine, type SearchEngine } from './search-engine.ts';
import { nextTurn } from '../next-turn.ts';
import { performance } from '../own-timers.ts';

/** How long the build indexes before it lets the event loop answer requests again, in milliseconds. */
const BUILD_SLICE_MS = 10;
/**
 * Catalogues of this many entities or more are built with a worker thread counting the terms (below 20,000
 * its start costs more than it saves). It once kept ~100 MB more settled on 100,000 datasets, when the
 * build left this thread's old generation full of parsed log lines; it reads them unkept now (below), and
 * settles as the build here does (test/bench/NOTES.md).
 */
const WORKER_FROM = 20_000;

/** What a query reads: the engine and every indexed entity's facet values, both current. */
export interface IndexSnapshot {
  engine: SearchEngine<FacetValues>;
  facets: ReadonlyMap<string, FacetValues>;
  /** Changes whenever the index does, so a result computed at one version can be reused at the same one. */
  version: number;
}

/** What a query may ask of the index: read only. */
export interface SearchSource {
  current(): IndexSnapshot | Promise<IndexSnapshot>;
}

export class SearchIndex implements SearchSource {
  readonly #store: Store;
  readonly #catalogue: Catalogue;
  #engine: SearchEngine<FacetValues> = createSearchEngine();
  #facets = new Map<string, FacetValues>();
  // Entities changed since they were last indexed; indexed again before the next question.
  #dirty = new Set<string>();
  // Which entities name which tags in their text, both ways, so a renamed tag re-indexes them.
  #tagged = new Map<string, Set<string>>();
  #tagsOf = new Map<string, readonly string[]>();
  #pool = new FacetPool();
  #version = 0;
  readonly #workerFrom: number;
  #building: Promise<void> | null = null;
  #built = false;

  /** `workerFrom`: a catalogue of this many entities or more is built with a worker thread (tests set it). */
  constructor(store: Store, { workerFrom = WORKER_FROM }: { workerFrom?: number } = {}) {
    this.#workerFrom = workerFrom;
    this.#store = store;
    this.#catalogue = store.catalogue;
    store.onApplied((changes, reset) => {
      if (reset) this.#restart();
      else for (const change of changes) this.#changed(change.urn, change.aspect);
    });
  }

  /** Whether the first build is over. */
  get built(): boolean {
    return this.#built;
  }

  /** Starts the build on a later turn of the event loop, so the caller (start-up) finishes first. */
  start(): Promise<void> {
    this.#building ??= nextTurn().then(() => this.#build());
    return this.#building;
  }

  /** The index as of now: at once when built, else once the build is over (a search waits for it). */
  current(): IndexSnapshot | Promise<IndexSnapshot> {
    if (!this.#built) return this.start().then(() => this.#flushed());
    return this.#flushed();
  }

  #flushed(): IndexSnapshot {
    if (this.#dirty.size > 0) {
      const dirty = this.#dirty;
      this.#dirty = new Set();
      for (const urn of dirty) this.#index(urn);
      this.#version++;
    }
    return { engine: this.#engine, facets: this.#facets, version: this.#version };
  }

  // An entity's text holds the names of its tags and of its container: renaming either changes it too. Its
  // browse path holds every container above it: moving a container moves everything below it.
  #changed(urn: string, aspect: string): void {
    this.#dirty.add(urn);
    if (aspect === 'tagProperties') for (const tagged of this.#tagged.get(urn) ?? []) this.#dirty.add(tagged);
    if (aspect === 'containerProperties') for (const child of this.#catalogue.contained(urn)) this.#dirty.add(child);
    if (aspect === 'container') this.#descendantsChanged(urn);
  }

  // Iterative; a cycle in ingested data ends the walk (no entity is walked twice).
  #descendantsChanged(container: string): void {
    const seen = new Set([container]);
    const pending = [container];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const child of this.#catalogue.contained(next)) {
        if (seen.has(child)) continue;
        seen.add(child);
        this.#dirty.add(child);
        pending.push(child);
      }
    }
  }

  #index(urn: string): void {
    const described = this.#describe(urn);
    if (described === null) this.#engine.remove(urn);
    else this.#engine.put(urn, described.text, described.facets);
  }

  // The document of `urn` (null when it is not searched), its facets and named tags noted. A change reads the
  // catalogue, which keeps what it builds of a long log line; the first build reads every entity through
  // unkept() below, which leaves those lines as text.
  #describe(urn: string, reader: AspectReader = this.#catalogue): { text: DocumentText; facets: FacetValues } | null {
    const document = searchDocument(reader, urn);
    for (const tag of this.#tagsOf.get(urn) ?? []) this.#tagged.get(tag)?.delete(urn);
    this.#tagsOf.delete(urn);
    const before = this.#facets.get(urn);
    if (before !== undefined) this.#pool.release(before);
    if (document === null) {
      this.#facets.delete(urn);
      return null;
    }
    const facets = this.#pool.share(document.facets);
    this.#facets.set(urn, facets);
    if (document.namedTags.length > 0) this.#noteTags(urn, document.namedTags);
    return { text: document.text, facets };
  }

  #noteTags(urn: string, namedTags: readonly string[]): void {
    this.#tagsOf.set(urn, namedTags);
    for (const tag of namedTags) {
      let tagged = this.#tagged.get(tag);
      if (tagged === undefined) this.#tagged.set(tag, (tagged = new Set()));
      tagged.add(urn);
    }
  }

  // Every entity as it is when its slice runs; one changed meanwhile is in #dirty too and indexed again. The
  // documents go to a first build (engine-build.ts), which replaces the empty engine at the end; one on a
  // worker thread that fails is done once more on this one. A store that is closing ends the build
  // (an embedding program that closed its server should not keep a core busy for it); what is left is noted
  // dirty, so a search still in flight indexes it before answering. A catalogue replaced meanwhile (#restart)
  // made everything dirty: the build is let go.
  async #build(mayUseWorker = true): Promise<void> {
    const urns = [...this.#catalogue.urns()];
    const onWorker = mayUseWorker && urns.length >= this.#workerFrom;
    const empty = this.#engine;
    const builder = engineBuilder<FacetValues>(onWorker);
    const reader = unkept(this.#catalogue);
    let i = 0;
    while (i < urns.length && !this.#store.closing && this.#engine === empty) {
      const until = performance.now() + BUILD_SLICE_MS;
      for (; i < urns.length && performance.now() < until; i++) {
        const described = this.#describe(urns[i]!, reader);
        if (described !== null) builder.add(urns[i]!, described.text, described.facets);
      }
      await (builder.room() ?? nextTurn());
    }
    if (i < urns.length) {
      // Nothing the builder was given reaches the engine: every entity, described or not, is indexed again.
      builder.cancel();
      for (const urn of urns) this.#dirty.add(urn);
    } else {
      let engine: SearchEngine<FacetValues>;
      try {
        engine = await builder.build(BUILD_SLICE_MS);
      } catch (error) {
        if (!onWorker) throw error;
        return this.#build(false);
      }
      if (this.#engine === empty) this.#engine = engine;
    }
    this.#version++;
    this.#built = true;
  }

  // The catalogue was replaced whole (a store in memory): index everything again, before the next question.
  #restart(): void {
    this.#engine = createSearchEngine();
    this.#facets = new Map();
    this.#tagged = new Map();
    this.#tagsOf = new Map();
    this.#pool = new FacetPool();
    this.#dirty = new Set(this.#catalogue.urns());
  }
}

/**
 * The catalogue read without building the values it holds as text into it: the first build reads every
 * entity once, and keeping them all built cost this thread seconds of garbage collection on 100,000
 * datasets and settled ~400 MB higher than the text they came from (test/bench/NOTES.md).
 */
function unkept(catalogue: Catalogue): AspectReader {
  return {
    aspect: (urn, name) => catalogue.aspectUnkept(urn, name),
    aspectJson: (urn, name) => catalogue.aspectJson(urn, name),
    exists: (urn) => catalogue.exists(urn),
    contained: (container) => catalogue.contained(container),
  };
}

const indexes = new WeakMap<Store, SearchIndex>();

/** The store's search index, created (and its build started) on first use. */
export function searchIndexOf(store: Store): SearchIndex {
  let index = indexes.get(store);
  if (index === undefined) {
    index = new SearchIndex(store);
    indexes.set(store, index);
    void index.start();
  }
  return index;
}
