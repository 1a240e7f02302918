// Reads the log's records that may change a tracked aspect (see change-events.ts), and follows the
// tracked aspects' values through them: what the history index and compaction both need from the log.
// It reads chunks it is given and parses only lines that can matter; it never writes.

import type { JsonValue } from '../aspects/json.ts';
import { decodeUtf8, wholeLineRuns } from '../store/log-lines.ts';
import { loggedValue } from '../store/column-edit.ts';
import {
  aspectKey,
  isColumnEdit,
  parseLogRecord,
  type AspectChange,
  type LoggedChange,
  type LoggedRecord,
} from '../store/log-record.ts';
import { isTracked, sameJson, TRACKED_ASPECTS } from './change-events.ts';
import { asPatched, isPatched, patchedValue } from './value-patch.ts';
import { nextTurn } from '../next-turn.ts';

// Records are written by JSON.stringify, so a change of a tracked aspect shows as exactly these bytes
// (ASCII, which never occurs inside a UTF-8 sequence); a line without any of them holds none and is
// neither decoded nor parsed: an ingest batch's line of megabytes costs a byte search.
const NEEDLES = [...TRACKED_ASPECTS].map((aspect) => Buffer.from(`"aspect":"${aspect}"`));
const NEWLINE = 0x0a;
const YIELD_EVERY_CHARS = 256 * 1024;

/** A tracked change together with the value it replaces (undefined: the aspect was absent). */
export interface TrackedChange extends AspectChange {
  before: JsonValue | undefined;
}

/**
 * Every change a record carries: its history (written by compaction, not replayed), whole values then
 * patches and column edits, and then its changes.
 */
export function allChanges(record: LoggedRecord): readonly LoggedChange[] {
  const { history, patches, changes } = record;
  if (history === undefined && patches === undefined) return changes;
  const patched = (patches ?? []).map((change) => (isColumnEdit(change) ? change : asPatched(change)));
  return [...(history ?? []), ...patched, ...changes];
}

/**
 * The records of the log in `chunks` that may hold tracked changes, in log order, a chunk's worth at a
 * time (so a long log is read with turns of the event loop between chunks). A torn last line is skipped.
 */
export async function* candidateRecords(chunks: AsyncIterable<Buffer>): AsyncGenerator<LoggedRecord> {
  // A torn last line (the generator's return value) is never read.
  for await (const bytes of wholeLineRuns(chunks)) {
    const next = new NeedleSearch(bytes);
    let parsed = 0;
    for (let at = next.from(0); at !== -1;) {
      const start = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
      const stop = bytes.indexOf(NEWLINE, at);
      // Replay read and accepted these lines when the store opened.
      const line = decodeUtf8(bytes.subarray(start, stop));
      if (line === null) throw new Error('the log holds a line that is not valid UTF-8');
      const record = parseLogRecord(line);
      if (typeof record === 'string') throw new Error(`the log holds a line that is not a record: ${record}`);
      yield record;
      at = next.from(stop + 1);
      // A read chunk of lines that all matter takes a good part of a second to parse: let requests in between.
      parsed += line.length;
      if (parsed > YIELD_EVERY_CHARS) {
        parsed = 0;
        await nextTurn();
      }
    }
  }
}

/** Where the next of the NEEDLES is in `bytes`: each searched for again only once passed, so a run is searched once per needle. */
class NeedleSearch {
  readonly #bytes: Buffer;
  // Each needle's next place at or after the last `from` asked (-1: none is left).
  readonly #next: number[];

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
    this.#next = NEEDLES.map(() => -2);
  }

  /** The first place at or after `start` where a needle begins, or -1. */
  from(start: number): number {
    let first = -1;
    NEEDLES.forEach((needle, index) => {
      let at = this.#next[index] as number;
      if (at !== -1 && at < start) this.#next[index] = at = this.#bytes.indexOf(needle, start);
      if (at !== -1 && (first === -1 || at < first)) first = at;
    });
    return first;
  }
}

/** Where a TrackedState finds the value of an aspect no change it was given has written. */
export type ValueBefore = (urn: string, aspect: string) => JsonValue | undefined;

/**
 * The current value of every tracked aspect, as the changes given so far leave it; an aspect they have
 * not written is looked up in `fallback` (the catalogue before a record), or absent when there is none.
 */
export class TrackedState {
  // null: removed by a change given, which the fallback must not answer for.
  readonly #values = new Map<string, JsonValue>();
  readonly #fallback: ValueBefore;

  constructor(fallback: ValueBefore = () => undefined) {
    this.#fallback = fallback;
  }

  /**
   * The changes that change a tracked value, each with the value it replaces (a column edit read from
   * the log with the whole aspect it leaves); then applies them.
   */
  step(changes: readonly LoggedChange[]): TrackedChange[] {
    const found: TrackedChange[] = [];
    for (const change of changes) {
      const { urn, aspect } = change;
      if (!isTracked(urn, aspect)) continue;
      const key = aspectKey(urn, aspect);
      const before = this.#values.has(key) ? this.#values.get(key) : this.#fallback(urn, aspect);
      // A column edit read from the log applies to the value before it (column-edit.ts), and so does a
      // value compaction's history kept as a patch (value-patch.ts).
      const value = isPatched(change) ? patchedValue(change, before) : loggedValue(change, () => before);
      if (sameJson(before, value)) continue;
      found.push({ urn, aspect, value, before: before ?? undefined });
      this.#values.set(key, value);
    }
    return found;
  }
}

/** `changes` by the entity they change, in first-seen order. */
export function groupByUrn(changes: readonly TrackedChange[]): Map<string, TrackedChange[]> {
  const byUrn = new Map<string, TrackedChange[]>();
  for (const change of changes) {
    const group = byUrn.get(change.urn);
    if (group === undefined) byUrn.set(change.urn, [change]);
    else group.push(change);
  }
  return byUrn;
}
