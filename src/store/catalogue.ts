// The in-memory catalogue: every entity's aspects, keyed by URN, rebuilt by replaying the log, with the
// version counters the response cache checks, plus a batch's staged changes over it. It knows nothing of
// files, threads, HTTP or GraphQL (the cache's recording reader lives with the cache); it holds and applies changes.

import type { JsonValue } from '../aspects/json.ts';
import type { AspectChange } from './log-record.ts';
import { CONTAINER_ASPECT, ContainerIndex } from './container-index.ts';
import { putAspect, urnsOfType } from './entity-aspects.ts';
import { withSharedLeaves } from './shared-leaves.ts';
import { nextTurn } from '../next-turn.ts';
import { performance } from '../own-timers.ts';

// Defined with the log's record format; re-exported because every reader of the catalogue meets it here.
export type { AspectChange } from './log-record.ts';

/** Read access to aspects, shared by the live catalogue and a batch of changes not yet committed. */
export interface AspectReader {
  /** The aspect's value, or undefined when the entity has no such aspect. */
  aspect(urn: string, name: string): JsonValue | undefined;
  /**
   * The aspect's value as JSON.stringify writes it, or undefined as aspect() would be: for comparing a
   * value without building one still held as text (an ingest of a large file compares every aspect).
   */
  aspectJson(urn: string, name: string): string | undefined;
  /** An entity exists when it has at least one aspect (DataHub's key-aspect rule). */
  exists(urn: string): boolean;
  /**
   * The entities whose `container` aspect names `container`, in the order they were put there. A change
   * to that set counts as a change of the container itself (see Catalogue.version).
   */
  contained(container: string): ReadonlySet<string>;
}

/**
 * A value replay may keep in another form until it is first read (fast-start/lazy-lines.ts keeps long
 * lines as text). The catalogue asks it once, then stores the answer in its place. Each method is given the
 * urn and aspect the value is stored under, so a value read from part of a log line can check it read its own.
 */
export abstract class LazyValue {
  abstract get(urn: string, aspect: string): JsonValue;
  /** The value as JSON text without keeping it built, where that is cheaper; undefined: build it instead. */
  json(_urn: string, _aspect: string): string | undefined {
    return undefined;
  }
  /**
   * The value built for one read and not kept, where that is cheaper than keeping it (it must not be
   * changed); undefined: build it instead.
   */
  peek(_urn: string, _aspect: string): JsonValue | undefined {
    return undefined;
  }
  /** About how many bytes the value takes in the log, known without building it. */
  abstract readonly logBytes: number;
}

/** What the catalogue holds for an aspect: its value, or one still to be built. */
export type StoredValue = JsonValue | LazyValue;

/** A change as the catalogue applies it: its value may still be text (see Store's keepValuesAsText). */
export interface StoredChange {
  urn: string;
  aspect: string;
  value: StoredValue;
}

export class Catalogue implements AspectReader {
  readonly #entities = new Map<string, Map<string, StoredValue>>();
  // How often each entity has changed, so a cached answer can tell whether what it read is current.
  readonly #versions = new Map<string, number>();
  readonly #containers = new ContainerIndex();
  #epoch = 0;

  aspect(urn: string, name: string): JsonValue | undefined {
    const aspects = this.#entities.get(urn);
    const value = aspects?.get(name);
    return value instanceof LazyValue ? built(aspects as Map<string, StoredValue>, urn, name, value) : value;
  }

  aspectJson(urn: string, name: string): string | undefined {
    const aspects = this.#entities.get(urn);
    const value = aspects?.get(name);
    if (!(value instanceof LazyValue)) return value === undefined ? undefined : JSON.stringify(value);
    return value.json(urn, name) ?? JSON.stringify(built(aspects as Map<string, StoredValue>, urn, name, value));
  }

  /**
   * aspect() that leaves a value held as text as it is, where the value can be built for this read alone: for
   * reading every entity once (the search index's first build) without keeping the whole catalogue built.
   * The answer must not be changed.
   */
  aspectUnkept(urn: string, name: string): JsonValue | undefined {
    const value = this.#entities.get(urn)?.get(name);
    return (value instanceof LazyValue ? value.peek(urn, name) : undefined) ?? this.aspect(urn, name);
  }

  exists(urn: string): boolean {
    return this.#entities.has(urn);
  }

  contained(container: string): ReadonlySet<string> {
    return this.#containers.children(container);
  }

  /** URNs whose entity type (the third URN segment) is `entityType`, in insertion order. */
  urnsOfType(entityType: string): Iterable<string> {
    return urnsOfType(this.#entities.keys(), entityType);
  }

  /** Every entity's URN, in insertion order, building no value still held as text. */
  urns(): Iterable<string> {
    return this.#entities.keys();
  }

  aspectNames(urn: string): Iterable<string> {
    return this.#entities.get(urn)?.keys() ?? [];
  }

  /** Every entity with its aspects, in insertion order (building any value still held as text). */
  *entities(): Iterable<[string, ReadonlyMap<string, JsonValue>]> {
    for (const [urn, aspects] of this.#entities) {
      for (const [aspect, value] of aspects) if (value instanceof LazyValue) built(aspects, urn, aspect, value);
      yield [urn, aspects as Map<string, JsonValue>];
    }
  }

  /** About how many bytes the live state takes as log lines, without building values held as text. */
  estimateLogBytes(): number {
    let bytes = 0;
    for (const [urn, aspects] of this.#entities) bytes += logBytes(urn, aspects);
    return bytes;
  }

  /**
   * estimateLogBytes() a few milliseconds at a time, giving the event loop back in between, from every
   * entity of a small catalogue and an even sample of a large one's (every nth, scaled up), so a check
   * during a burst of writes costs them little: measured whole, 10,000 wide datasets took about 0.3 s of
   * CPU. Entities changed meanwhile count as they are when reached.
   */
  async measureLogBytes(sliceMs = 5): Promise<number> {
    const stride = Math.max(1, Math.floor(this.#entities.size / MEASURED_ENTITIES));
    let bytes = 0;
    let measured = 0;
    let seen = 0;
    let sliceStart = performance.now();
    for (const [urn, aspects] of this.#entities) {
      if (seen++ % stride !== 0) continue;
      bytes += logBytes(urn, aspects);
      measured++;
      if (performance.now() - sliceStart < sliceMs) continue;
      await nextTurn();
      sliceStart = performance.now();
    }
    return measured === 0 ? 0 : Math.round((bytes * seen) / measured);
  }

  get entityCount(): number {
    return this.#entities.size;
  }

  /**
   * Changes of `urn` so far; with `epoch`, enough to tell whether an earlier read of it is still current.
   * An entity joining or leaving a container changes the container too, so a cached listing of its
   * contents is not served after the contents changed.
   */
  version(urn: string): number {
    return this.#versions.get(urn) ?? 0;
  }

  /** Bumped when the whole catalogue is replaced. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Applies changes in order, counting each entity's changes (see version). */
  apply(changes: readonly StoredChange[]): void {
    for (const { urn, aspect, value } of changes) {
      this.#bump(urn);
      for (const container of this.#put(urn, aspect, value)) this.#bump(container);
    }
  }

  /**
   * Applies one change read back from the log at start. Versions are not counted: no answer has been
   * cached yet that they could invalidate.
   */
  restore(urn: string, aspect: string, value: StoredValue): void {
    this.#put(urn, aspect, value);
  }

  #bump(urn: string): void {
    this.#versions.set(urn, (this.#versions.get(urn) ?? 0) + 1);
  }

  // One change, by the rule in entity-aspects.ts. Returns the containers whose contents the change
  // altered (see ContainerIndex.set).
  #put(urn: string, aspect: string, value: StoredValue): string[] {
    const aspects = putAspect(this.#entities, urn, aspect, value);
    if (aspect !== CONTAINER_ASPECT) return [];
    if (aspects === undefined) return this.#containers.set(urn, null);
    // A container aspect is small; one still held as text is built now, since the index needs its value.
    return this.#containers.set(urn, value instanceof LazyValue ? built(aspects, urn, aspect, value) : value);
  }

  clear(): void {
    this.#entities.clear();
    this.#versions.clear();
    this.#containers.clear();
    this.#epoch++;
  }
}

// How many entities measureLogBytes reads at most (about): enough that the sample's sum is within a few
// percent of the whole, for a threshold that only decides when to compact.
const MEASURED_ENTITIES = 2048;

function logBytes(urn: string, aspects: ReadonlyMap<string, StoredValue>): number {
  let bytes = 0;
  for (const [aspect, value] of aspects) {
    bytes +=
      value instanceof LazyValue ? value.logBytes : urn.length + aspect.length + JSON.stringify(value).length + 40;
  }
  return bytes;
}

/** Asks a lazy value once and stores the answer in its place, its small leaves shared (shared-leaves.ts). */
function built(aspects: Map<string, StoredValue>, urn: string, aspect: string, value: LazyValue): JsonValue {
  const answer = withSharedLeaves(value.get(urn, aspect));
  aspects.set(aspect, answer);
  return answer;
}

/**
 * Changes staged by one commit batch over the live catalogue. Mutations in a batch validate against
 * it, so the second of two racing `createTag` calls sees the first, while readers of the live
 * catalogue see neither until the batch is durable.
 */
export class StagedChanges implements AspectReader {
  readonly #base: Catalogue;
  readonly #staged = new Map<string, Map<string, JsonValue>>();

  constructor(base: Catalogue) {
    this.#base = base;
  }

  aspect(urn: string, name: string): JsonValue | undefined {
    const staged = this.#staged.get(urn);
    if (staged?.has(name)) {
      const value = staged.get(name);
      return value === null ? undefined : value;
    }
    return this.#base.aspect(urn, name);
  }

  aspectJson(urn: string, name: string): string | undefined {
    if (!this.#staged.get(urn)?.has(name)) return this.#base.aspectJson(urn, name);
    const value = this.aspect(urn, name);
    return value === undefined ? undefined : JSON.stringify(value);
  }

  /** The live catalogue's answer: nothing a mutation checks depends on a container's contents. */
  contained(container: string): ReadonlySet<string> {
    return this.#base.contained(container);
  }

  exists(urn: string): boolean {
    const staged = this.#staged.get(urn);
    if (staged === undefined) return this.#base.exists(urn);
    for (const value of staged.values()) if (value !== null) return true;
    // Every staged value is a removal: the entity exists if the live one keeps an aspect not removed.
    for (const aspect of this.#base.aspectNames(urn)) if (!staged.has(aspect)) return true;
    return false;
  }

  stage(changes: readonly AspectChange[]): void {
    for (const { urn, aspect, value } of changes) {
      let staged = this.#staged.get(urn);
      if (staged === undefined) {
        staged = new Map();
        this.#staged.set(urn, staged);
      }
      staged.set(aspect, value);
    }
  }
}
