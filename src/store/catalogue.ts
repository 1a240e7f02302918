// The in-memory catalogue: every entity's aspects, keyed by URN, rebuilt by replaying the log.
// It knows nothing of files, HTTP or GraphQL; it only holds and applies aspect changes.

import type { JsonValue } from './json.ts';
import type { AspectChange } from './log-record.ts';
import { forEachPlannedChange, type ReplayPlan } from './replay-plan.ts';
import { DEFERRED_LINE_CHARS, DeferredValue, detached, ReplayedLine, type StoredValue } from './replayed-line.ts';

// Defined with the log's record format; re-exported because every reader of the catalogue meets it here.
export type { AspectChange } from './log-record.ts';

/** Read access to aspects, shared by the live catalogue and a batch of changes not yet committed. */
export interface AspectReader {
  /** The aspect's value, or undefined when the entity has no such aspect. */
  aspect(urn: string, name: string): JsonValue | undefined;
  /** An entity exists when it has at least one aspect (DataHub's key-aspect rule). */
  exists(urn: string): boolean;
}

export class Catalogue implements AspectReader {
  // Values of long replayed lines stay text until first read (see replayed-line.ts).
  readonly #entities = new Map<string, Map<string, StoredValue>>();
  // How often each entity has changed, so a cached answer can tell whether what it read is current.
  readonly #versions = new Map<string, number>();
  #epoch = 0;

  aspect(urn: string, name: string): JsonValue | undefined {
    const value = this.#entities.get(urn)?.get(name);
    if (!(value instanceof DeferredValue)) return value;
    this.#build(value.line);
    return this.#entities.get(urn)?.get(name) as JsonValue;
  }

  exists(urn: string): boolean {
    return this.#entities.has(urn);
  }

  /** URNs whose entity type (the third URN segment) is `entityType`, in insertion order. */
  *urnsOfType(entityType: string): Iterable<string> {
    const prefix = `urn:li:${entityType}:`;
    for (const urn of this.#entities.keys()) if (urn.startsWith(prefix)) yield urn;
  }

  aspectNames(urn: string): Iterable<string> {
    return this.#entities.get(urn)?.keys() ?? [];
  }

  /** Every entity with its aspects, in insertion order (building any value still held as text). */
  *entities(): Iterable<[string, ReadonlyMap<string, JsonValue>]> {
    for (const [urn, aspects] of this.#entities) {
      for (const value of aspects.values()) if (value instanceof DeferredValue) this.#build(value.line);
      yield [urn, aspects as Map<string, JsonValue>];
    }
  }

  /** About how many bytes the live state takes as log lines, without building values held as text. */
  estimateLogBytes(): number {
    let bytes = 0;
    for (const [urn, aspects] of this.#entities) {
      for (const [aspect, value] of aspects) {
        // A line's text already holds each change's urn, aspect and framing: its share is the whole cost.
        bytes += value instanceof DeferredValue ? value.line.text.length / value.line.changeCount : urn.length + aspect.length + JSON.stringify(value).length + 40;
      }
    }
    return bytes;
  }

  get entityCount(): number {
    return this.#entities.size;
  }

  /** Changes of `urn` so far; with `epoch`, enough to tell whether an earlier read of it is still current. */
  version(urn: string): number {
    return this.#versions.get(urn) ?? 0;
  }

  /** Bumped when the whole catalogue is replaced. */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Applies changes in order. `tracked: false` skips version counting, for replay at start, when no
   * answer has been cached yet that versions could invalidate.
   */
  apply(changes: readonly { urn: string; aspect: string; value: StoredValue }[], tracked = true): void {
    for (const { urn, aspect, value } of changes) {
      if (tracked) this.#versions.set(urn, (this.#versions.get(urn) ?? 0) + 1);
      this.#put(urn, aspect, value);
    }
  }

  /**
   * Applies one record read back from the log, `line` being its text. The values of a long line are
   * kept as the line's text, to be built on first read; a short line's are kept as parsed.
   */
  replay(changes: readonly AspectChange[], line: string): void {
    if (line.length < DEFERRED_LINE_CHARS) {
      this.apply(changes, false);
      return;
    }
    const replayed = new ReplayedLine(detached(line), changes.length);
    this.apply(changes.map(({ urn, aspect, value }, index) => ({ urn, aspect, value: value === null ? null : new DeferredValue(replayed, index) })), false);
  }

  /** Applies records read back on another thread, condensed (see replay-plan.ts), as replay() would have; `lineTexts` are its long lines. */
  replayPlan(plan: ReplayPlan, lineTexts: readonly string[]): void {
    forEachPlannedChange(plan, lineTexts, (urn, aspect, value) => this.#put(urn, aspect, value));
  }

  // One change; removing an entity's last aspect removes the entity, so a later change re-creates it last.
  #put(urn: string, aspect: string, value: StoredValue): void {
    let aspects = this.#entities.get(urn);
    if (value === null) {
      aspects?.delete(aspect);
      if (aspects?.size === 0) this.#entities.delete(urn);
      return;
    }
    if (aspects === undefined) {
      aspects = new Map();
      this.#entities.set(urn, aspects);
    }
    aspects.set(aspect, value);
  }

  // Builds the values of every change of `line` that is still current, all at once: one parse per line.
  #build(line: ReplayedLine): void {
    for (const [index, { urn, aspect, value }] of line.changes().entries()) {
      const aspects = this.#entities.get(urn);
      const current = aspects?.get(aspect);
      // A later change replaced it, or it was built already: leave it as it is.
      if (current instanceof DeferredValue && current.line === line && current.index === index) aspects?.set(aspect, value);
    }
  }

  clear(): void {
    this.#entities.clear();
    this.#versions.clear();
    this.#epoch++;
  }
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

  exists(urn: string): boolean {
    this.touched.add(urn);
    return this.#catalogue.exists(urn);
  }
}
