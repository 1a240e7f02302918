// The change history of datasets' tracked aspects, per URN, answered from the log: built by reading the
// log once, on the first question, then kept current by the store's commit path. It keeps no file of
// its own and never changes the catalogue; the store tells it each record before applying it.

import type { AspectReader } from '../store/catalogue.ts';
import type { LogRecord } from '../store/log-record.ts';
import { allChanges, candidateRecords, groupByUrn, TrackedState, type TrackedChange } from './tracked-records.ts';

/** What one log record changed in one entity's tracked aspects, with when and by whom. */
export interface HistoryStep {
  time: number;
  actor: string;
  changes: readonly TrackedChange[];
}

/** What a query may ask of the history: read only. */
export interface HistoryReader {
  /** The steps of `urn`, oldest first: at once when the index is built, else once the log has been read. */
  steps(urn: string): readonly HistoryStep[] | Promise<readonly HistoryStep[]>;
}

/** How the index reads the log the first time it is asked. */
export interface LogSource {
  /**
   * Opens the log as it stands between two commit batches and calls `atSnapshot` at that moment;
   * every record applied later reaches the index through `record`.
   */
  snapshot(atSnapshot: () => void): Promise<AsyncIterable<Buffer>>;
}

type Mode = 'dormant' | 'building' | 'live';

export class HistoryIndex implements HistoryReader {
  readonly #source: LogSource | null;
  #mode: Mode;
  #byUrn = new Map<string, HistoryStep[]>();
  // Steps of records applied while the log is being read: they follow everything the read finds.
  #tail: [string, HistoryStep][] = [];
  #building: Promise<void> | null = null;
  // Set when noting a record failed during a build: the build's answer misses it, so it is not kept.
  #stale = false;

  /** With no source (a store in memory) the index follows every commit from the start. */
  constructor(source: LogSource | null) {
    this.#source = source;
    this.#mode = source === null ? 'live' : 'dormant';
  }

  /** Whether the index has been built (or needs no build). */
  get built(): boolean {
    return this.#mode === 'live';
  }

  steps(urn: string): readonly HistoryStep[] | Promise<readonly HistoryStep[]> {
    if (this.#mode === 'live') return this.#byUrn.get(urn) ?? [];
    this.#building ??= this.#build().finally(() => {
      this.#building = null;
    });
    return this.#building.then(() => this.#byUrn.get(urn) ?? []);
  }

  /**
   * Notes the tracked changes of `record`, which is about to be applied to `current`. Costs nothing
   * while the index is dormant: the record is in the log, which the build will read. Never throws: the
   * store calls it between the append and the apply, where a throw would leave the record durable but
   * not applied. On a failure the index sets itself aside and reads the log again when next asked.
   */
  record(record: LogRecord, current: AspectReader): void {
    if (this.#mode === 'dormant') return;
    try {
      this.#note(record, current);
    } catch {
      this.#setAside();
    }
  }

  #note(record: LogRecord, current: AspectReader): void {
    // A record may change the same aspect twice: the second replaces the first's value, not the catalogue's.
    const changes = new TrackedState((urn, aspect) => current.aspect(urn, aspect)).step(record.changes);
    for (const [urn, grouped] of groupByUrn(changes)) {
      const step = { time: record.time, actor: record.actor, changes: grouped };
      if (this.#mode === 'building') this.#tail.push([urn, step]);
      else add(this.#byUrn, urn, step);
    }
  }

  // A store in memory has no log to read again: its history just misses the record that failed.
  #setAside(): void {
    if (this.#source === null) return;
    if (this.#mode === 'building') this.#stale = true;
    else {
      this.#mode = 'dormant';
      this.#byUrn = new Map();
    }
  }

  /** Forgets everything: the catalogue was replaced whole (a store in memory only). */
  clear(): void {
    this.#byUrn = new Map();
    this.#tail = [];
  }

  async #build(): Promise<void> {
    const source = this.#source as LogSource;
    try {
      const chunks = await source.snapshot(() => {
        this.#mode = 'building';
      });
      const built = new Map<string, HistoryStep[]>();
      const state = new TrackedState();
      for await (const record of candidateRecords(chunks)) {
        for (const [urn, changes] of groupByUrn(state.step(allChanges(record)))) {
          add(built, urn, { time: record.time, actor: record.actor, changes });
        }
      }
      for (const [urn, step] of this.#tail) add(built, urn, step);
      this.#byUrn = built;
      // Those waiting get this answer; the next question reads the log again.
      this.#mode = this.#stale ? 'dormant' : 'live';
    } catch (error) {
      // Asked again, it reads the log again.
      this.#mode = 'dormant';
      throw error;
    } finally {
      this.#tail = [];
      this.#stale = false;
    }
  }
}

function add(byUrn: Map<string, HistoryStep[]>, urn: string, step: HistoryStep): void {
  const steps = byUrn.get(urn);
  if (steps === undefined) byUrn.set(urn, [step]);
  else steps.push(step);
}
