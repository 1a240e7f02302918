// What a compaction writes, while commits go on: the catalogue as it stood when the compaction began
// (a snapshot kept by saving an entity's aspects before a commit first changes it), preceded by the
// change history, in slices that give the event loop back every few milliseconds. It writes no file.

import type { JsonValue } from '../aspects/json.ts';
import { MinihubError } from '../errors.ts';
import type { Catalogue } from './catalogue.ts';
import { SYSTEM_ACTOR, type AspectChange, type LogRecord } from './log-record.ts';

// The longest stretch a compaction holds the event loop between two turns, in milliseconds (see test/bench/NOTES.md).
const SLICE_MS = 5;

/** The catalogue as it stood when this was made, while commits keep changing the live one. */
export class CatalogueSnapshot {
  readonly #catalogue: Catalogue;
  // The entities in the catalogue's order then; entities created later are not in the snapshot.
  readonly #urns: string[];
  // Aspects of an entity as they were before a commit first changed it (null: it did not exist then).
  readonly #before = new Map<string, Map<string, JsonValue> | null>();

  constructor(catalogue: Catalogue) {
    this.#catalogue = catalogue;
    this.#urns = [...catalogue.urns()];
  }

  /** Must be told of every change before it is applied to the catalogue. */
  preserve(changes: readonly AspectChange[]): void {
    for (const { urn } of changes) if (!this.#before.has(urn)) this.#before.set(urn, this.#copy(urn));
  }

  /** Every entity of the snapshot with its aspects, in the catalogue's order; each read when it is reached. */
  *entities(): Generator<[string, ReadonlyMap<string, JsonValue>]> {
    for (const urn of this.#urns) {
      const saved = this.#before.get(urn);
      // A copy taken now, in one step: a commit applied after this yield does not reach what it yields.
      const aspects = saved === undefined ? this.#copy(urn) : saved;
      if (aspects !== null) yield [urn, aspects];
    }
  }

  /** The value `aspect` of `urn` has in the snapshot (undefined: none). */
  value(urn: string, aspect: string): JsonValue | undefined {
    const saved = this.#before.get(urn);
    if (saved === undefined) return this.#catalogue.aspect(urn, aspect);
    return saved?.get(aspect);
  }

  #copy(urn: string): Map<string, JsonValue> | null {
    if (!this.#catalogue.exists(urn)) return null;
    const aspects = new Map<string, JsonValue>();
    for (const aspect of this.#catalogue.aspectNames(urn)) {
      aspects.set(aspect, this.#catalogue.aspect(urn, aspect) as JsonValue);
    }
    return aspects;
  }
}

/** Counts of what compactedRecords gave, once it is done. */
export interface CompactedCounts {
  records: number;
  history: number;
}

/** Entities with their aspects' values, in the catalogue's order: a CatalogueSnapshot's or a LogIndex's. */
type EntityValues =
  AsyncIterable<[string, ReadonlyMap<string, JsonValue>]> | Iterable<[string, ReadonlyMap<string, JsonValue>]>;

/**
 * The compacted log's records: first `history` (records replay skips, see src/history/), then one record
 * per entity of `entities`, numbered from 1 (see log-record.ts for what follows them). Gives the event
 * loop back at least every SLICE_MS, and stops once `stopped()`.
 */
export async function* compactedRecords(
  history: Iterable<Omit<LogRecord, 'seq'>> | AsyncIterable<Omit<LogRecord, 'seq'>>,
  entities: EntityValues,
  counts: CompactedCounts,
  stopped: () => boolean,
): AsyncGenerator<LogRecord> {
  const time = Date.now();
  let sliceStart = performance.now();
  const breathe = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    // A store closing does not wait for the rest of a compaction it would drop anyway.
    if (stopped()) throw new MinihubError('SERVER_ERROR', 'the store is closing');
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  for await (const record of history) {
    counts.history++;
    yield { seq: counts.history + counts.records, ...record };
    await breathe();
  }
  for await (const [urn, aspects] of entities) {
    const changes = [...aspects].map(([aspect, value]) => ({ urn, aspect, value }));
    counts.records++;
    yield { seq: counts.history + counts.records, time, actor: SYSTEM_ACTOR, op: 'compact', changes };
    await breathe();
  }
}

/** What a failed compaction is told as; `switched`: the new log was renamed into place before the failure. */
export function compactionFailure(location: string, error: unknown, switched: boolean): MinihubError {
  const outcome = switched ? 'the new log is in place, but writes are refused until a restart' : 'the log is unchanged';
  return new MinihubError('SERVER_ERROR', `compaction of ${location} failed: ${(error as Error).message}; ${outcome}`, {
    cause: error,
  });
}
