// What a compaction writes, while commits go on: the catalogue as it stood when the compaction began
// (a snapshot kept by saving an entity's aspects before a commit first changes it), preceded by the
// change history, in slices that give the event loop back every few milliseconds. It writes no file.

import type { JsonValue } from '../aspects/json.ts';
import { MinihubError } from '../errors.ts';
import type { Catalogue } from './catalogue.ts';
import type { CompactionReport } from './store-options.ts';
import { MAX_CHUNK_BYTES } from './chunked-writer.ts';
import { joinedLine, SYSTEM_ACTOR, type AspectChange, type LogRecord, type RecordOrLine } from './log-record.ts';
import { nextTurn } from '../next-turn.ts';
import { performance } from '../own-timers.ts';

// The longest stretch a compaction holds the event loop between two turns, in milliseconds (see test/bench/NOTES.md).
const SLICE_MS = 5;

// The state is written several entities to a line of at most this many bytes, or the writer's chunk if
// smaller (an entity larger than that alone): one record per entity spent about 94 bytes of envelope on each,
// and a compacted log whose every record was live came out larger than the log (see test/bench/NOTES.md).
const STATE_LINE_BYTES = 64 * 1024;

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
  /** State records (lines), each holding one entity or more. */
  records: number;
  /** The entities those records hold. */
  entities: number;
  history: number;
}

/** Entities with their aspects' values, in the catalogue's order: a CatalogueSnapshot's or a LogIndex's. */
type EntityValues =
  AsyncIterable<[string, ReadonlyMap<string, JsonValue>]> | Iterable<[string, ReadonlyMap<string, JsonValue>]>;

/**
 * The compacted log's records: first `history` (records replay skips, see src/history/), then the state of
 * `entities`, several to a record written out as its line, numbered from 1 (see log-record.ts for what follows
 * them). Gives the event loop back at least every SLICE_MS, and stops once `stopped()`. `maxChunkBytes`: the
 * chunks its lines are written in (chunked-writer.ts), which a line of several entities does not outgrow.
 */
export async function* compactedRecords(
  history: Iterable<Omit<LogRecord, 'seq'>> | AsyncIterable<Omit<LogRecord, 'seq'>>,
  entities: EntityValues,
  counts: CompactedCounts,
  stopped: () => boolean,
  maxChunkBytes: number = MAX_CHUNK_BYTES,
): AsyncGenerator<RecordOrLine> {
  const lineBytes = Math.min(STATE_LINE_BYTES, maxChunkBytes);
  const time = Date.now();
  let sliceStart = performance.now();
  const breathe = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    // A store closing does not wait for the rest of a compaction it would drop anyway.
    if (stopped()) throw new MinihubError('SERVER_ERROR', 'the store is closing');
    await nextTurn();
    sliceStart = performance.now();
  };
  for await (const record of history) {
    counts.history++;
    yield { seq: counts.history + counts.records, ...record };
    await breathe();
  }
  // The changes of the entities gathered for the next line, each stringified once, as JSON.stringify(record) would.
  let changes: string[] = [];
  // The next line's bytes so far: its envelope, `]}` and its newline, and each entity's changes with a comma
  // before all but the first.
  let bytes = 0;
  const envelope = () => ({ seq: counts.history + counts.records + 1, time, actor: SYSTEM_ACTOR, op: 'compact' });
  const line = () => {
    const text = joinedLine(envelope(), changes.join(','));
    counts.records++;
    changes = [];
    return text;
  };
  for await (const [urn, aspects] of entities) {
    const text = JSON.stringify([...aspects].map(([aspect, value]) => ({ urn, aspect, value }))).slice(1, -1);
    const size = Buffer.byteLength(text);
    if (changes.length > 0 && bytes + 1 + size > lineBytes) yield line();
    bytes = (changes.length === 0 ? joinedLine(envelope(), '').length + 1 : bytes + 1) + size;
    changes.push(text);
    counts.entities++;
    await breathe();
  }
  if (changes.length > 0) yield line();
}

/** What a compaction that wrote `counts` and took the log from `bytesBefore` to `bytesAfter` reports. */
export function compactionReport(bytesBefore: number, bytesAfter: number, counts: CompactedCounts): CompactionReport {
  return {
    bytesBefore,
    bytesAfter,
    records: counts.records,
    entities: counts.entities,
    historyRecords: counts.history,
  };
}

/** What a failed compaction is told as; `switched`: the new log was renamed into place before the failure. */
export function compactionFailure(location: string, error: unknown, switched: boolean): MinihubError {
  const outcome = switched ? 'the new log is in place, but writes are refused until a restart' : 'the log is unchanged';
  return new MinihubError('SERVER_ERROR', `compaction of ${location} failed: ${(error as Error).message}; ${outcome}`, {
    cause: error,
  });
}
