// Aspect values replayed from a long log line and not read yet: the line's text stands in for them until
// they are read, each from its part of the line (or the whole line once). It holds text; it never parses on
// its own.

import { LazyValue, type StoredChange, type StoredValue } from '../catalogue.ts';
import { ColumnEditChange } from '../column-edit.ts';
import { CONTAINER_ASPECT } from '../container-index.ts';
import type { JsonValue } from '../../aspects/json.ts';
import { isColumnEdit, parseLogRecord, type AspectChange, type LoggedRecord, type LogRecord } from '../log-record.ts';
import { restoreChange, type ReplaySink } from '../replay.ts';

/**
 * Lines at least this long keep their values as text until first read. Replay has parsed (and so
 * checked) every line already; building objects from a long line again only when it is needed cuts
 * the start-up of large catalogues (see test/bench/NOTES.md), whose ingest batches make lines of
 * megabytes. Shorter lines are cheaper to keep parsed.
 */
export const DEFERRED_LINE_CHARS = 4096;

// Lines that cannot be cut by change (see changeStarts) and whose values were last built for reads that keep
// none (peek), oldest first: a few serve reads that go through a line's entities one after another.
const PEEKED_LINES = 2;
const peekedLines = new Map<ReplayedLine, (JsonValue | undefined)[]>();
// Between two changes of a line as JSON.stringify writes them (each change's first key is its urn, its
// second the aspect: an object inside a value that begins with a urn, such as a glossary term, is passed over).
const BETWEEN_CHANGES = '},{"urn":"';
const AFTER_URN = '","aspect":"';
const CHANGES = '"changes":[';

/** One replayed line whose values are still text, until they are read. */
export class ReplayedLine {
  // Each change's share of the line's text: its urn, aspect and framing are in it, so that is its whole cost.
  readonly bytesPerChange: number;
  #text: string | null;
  // After the one parse: each value not handed out yet (undefined once it has been).
  #values: (JsonValue | undefined)[] | null = null;
  readonly #changeCount: number;
  // Where each change begins in the text (changeStarts), once asked; null when the line cannot be cut so.
  #starts: Uint32Array | null | undefined;
  // A line that cannot be cut and was dropped from peekedLines: asked again, it is built and kept, so reads
  // that jump between such lines parse each at most twice.
  #peekDropped = false;

  /** `text` must be a string of its own: a slice of a larger read chunk would keep all of it alive (see detached). */
  constructor(text: string, changeCount: number) {
    this.#text = text;
    this.#changeCount = changeCount;
    this.bytesPerChange = text.length / changeCount;
  }

  /**
   * The value of change number `index`; asked once per change. Only its part of the line is parsed, where
   * the line can be cut by change: a request for one dataset of a line of hundreds builds that one (the
   * text stays until every value was asked, or the line is dropped). Else the whole line, once.
   */
  value(index: number, urn: string, aspect: string): JsonValue {
    if (this.#values === null) {
      const part = this.#part(index, urn, aspect);
      if (part !== undefined) return part;
    }
    const values = this.#values ?? this.#keepValues();
    const value = values[index] as JsonValue;
    values[index] = undefined;
    return value;
  }

  /**
   * The value of change number `index`, built for one read and not kept: the line stays text. Only that
   * change's part is parsed where the line can be cut, so what a read builds dies young (a whole line's
   * values, read entity by entity, lived long enough to be copied into the old generation).
   */
  peek(index: number, urn: string, aspect: string): JsonValue {
    if (this.#values !== null) return this.#values[index] as JsonValue;
    const part = this.#part(index, urn, aspect);
    if (part !== undefined) return part;
    let values = peekedLines.get(this);
    if (values === undefined && this.#peekDropped) values = this.#keepValues();
    else if (values === undefined) {
      values = this.#parsedValues();
      for (const oldest of peekedLines.keys()) {
        if (peekedLines.size < PEEKED_LINES) break;
        peekedLines.delete(oldest);
        oldest.#peekDropped = true;
      }
      peekedLines.set(this, values);
    }
    return values[index] as JsonValue;
  }

  // The whole line parsed once and its values kept in place of the text.
  #keepValues(): (JsonValue | undefined)[] {
    const values = peekedLines.get(this) ?? this.#parsedValues();
    this.#values = values;
    this.#text = null;
    peekedLines.delete(this);
    return values;
  }

  // Change `index`'s value parsed from its part of the text, which must be the change of `urn` and `aspect`;
  // undefined when the line cannot be cut by change. Never a column edit's part: those are not deferred.
  #part(index: number, urn: string, aspect: string): JsonValue | undefined {
    const text = this.#text as string;
    if (this.#starts === undefined) this.#starts = changeStarts(text, this.#changeCount);
    const starts = this.#starts;
    if (starts === null) return undefined;
    let change: Partial<AspectChange> | null = null;
    try {
      change = JSON.parse(text.slice(starts[index]!, starts[index + 1]! - 1)) as Partial<AspectChange> | null;
    } catch {
      // The cut was wrong after all (a list after the changes): the line is parsed whole, as it is written.
    }
    if (change?.urn === urn && change.aspect === aspect && change.value !== undefined) return change.value;
    this.#starts = null;
    return undefined;
  }

  #parsedValues(): (JsonValue | undefined)[] {
    // Replay parsed and checked this line already, so this cannot fail. A column edit is never deferred (it
    // needs the aspect before it at once): it has no value here.
    const record = parseLogRecord(this.#text as string) as LoggedRecord;
    return record.changes.map((change) => (isColumnEdit(change) ? undefined : change.value));
  }

  /**
   * The value of change number `index` as JSON.stringify writes it, from its part of the line, which stays
   * text; undefined for a line that cannot be cut by change, whose values are then built (value()) once.
   */
  valueJson(index: number, urn: string, aspect: string): string | undefined {
    if (this.#values !== null) return JSON.stringify(this.#values[index]);
    const part = this.#part(index, urn, aspect);
    return part === undefined ? undefined : JSON.stringify(part);
  }
}

/**
 * Where each of a line's `count` changes begins, then the end of the last plus one, or null when
 * the line is not the record JSON.stringify writes with `changes` last. A quote inside a JSON string is
 * escaped, so `},{"urn":"` then a urn and `","aspect":"` stands between two objects whose first keys are a
 * urn and an aspect; exactly count - 1 of them after the list's start means none is inside a value, and each
 * read checks that its part is the change it asked for. Change i is text[starts[i], starts[i + 1] - 1).
 */
function changeStarts(text: string, count: number): Uint32Array | null {
  const first = text.indexOf(`${CHANGES}{"urn":"`);
  if (first < 0 || !text.endsWith(']}')) return null;
  const starts = new Uint32Array(count + 1);
  starts[0] = first + CHANGES.length;
  let n = 1;
  for (let at = text.indexOf(BETWEEN_CHANGES, starts[0]); at >= 0; at = text.indexOf(BETWEEN_CHANGES, at + 2)) {
    if (!text.startsWith(AFTER_URN, text.indexOf('"', at + BETWEEN_CHANGES.length))) continue;
    if (n === count) return null;
    starts[n++] = at + 2;
  }
  if (n !== count) return null;
  starts[count] = text.length - 1;
  return starts;
}

/** Stands in for the value of change number `index` of `line`. */
export class DeferredValue extends LazyValue {
  readonly #line: ReplayedLine;
  readonly #index: number;

  constructor(line: ReplayedLine, index: number) {
    super();
    this.#line = line;
    this.#index = index;
  }

  get(urn: string, aspect: string): JsonValue {
    return this.#line.value(this.#index, urn, aspect);
  }

  override json(urn: string, aspect: string): string | undefined {
    return this.#line.valueJson(this.#index, urn, aspect);
  }

  override peek(urn: string, aspect: string): JsonValue {
    return this.#line.peek(this.#index, urn, aspect);
  }

  get logBytes(): number {
    return this.#line.bytesPerChange;
  }
}

/** A copy of `text` that shares no memory with the string it was cut from. */
export function detached(text: string): string {
  return (text + ' ').slice(0, -1);
}

/**
 * What replay on this thread does with each record: a short line's values go to `sink` as parsed; a
 * long line's as DeferredValues over its text.
 */
export function deferLongLines(sink: ReplaySink): (record: LoggedRecord, line: string) => void {
  return ({ changes }, line) => {
    if (line.length < DEFERRED_LINE_CHARS) {
      for (const change of changes) restoreChange(sink, change);
      return;
    }
    const replayed = new ReplayedLine(detached(line), changes.length);
    changes.forEach((change, index) => {
      if (isColumnEdit(change) || change.value === null) restoreChange(sink, change);
      else sink.restore(change.urn, change.aspect, new DeferredValue(replayed, index) satisfies StoredValue);
    });
  };
}

/**
 * A committed record's changes as a restart would hold them: a long record's values as DeferredValues
 * over its line, a short one's as they are. Kept as they are too: removals, column edits (the log keeps
 * the edit alone) and `container` values, which the catalogue's container index reads at once (building
 * one value parses the whole line). `line` is the record as the log wrote it (JSON.stringify(record)).
 */
export function heldAsText(record: LogRecord, line: string = JSON.stringify(record)): readonly StoredChange[] {
  if (line.length < DEFERRED_LINE_CHARS) return record.changes;
  const held = new ReplayedLine(line, record.changes.length);
  return record.changes.map((change, index) =>
    change.value === null || change instanceof ColumnEditChange || change.aspect === CONTAINER_ASPECT
      ? change
      : { urn: change.urn, aspect: change.aspect, value: new DeferredValue(held, index) },
  );
}
