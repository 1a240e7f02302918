// Aspect values replayed from a long log line and not read yet: the line's text stands in for them
// until one is read, and then the whole line is parsed once. It holds text; it never parses on its own.

import type { JsonValue } from './json.ts';
import type { LogRecord } from './log-record.ts';

/**
 * Lines at least this long keep their values as text until first read. Replay has parsed (and so
 * checked) every line already; building objects from a long line again only when it is needed halves
 * the start-up of large catalogues, whose ingest batches make lines of megabytes. Shorter lines are
 * cheaper to keep parsed.
 */
export const DEFERRED_LINE_CHARS = 4096;

/** One replayed line whose values are still text. */
export class ReplayedLine {
  readonly text: string;
  /** How many changes the line lists, for size estimates. */
  readonly changeCount: number;

  /** `text` must be a string of its own: a slice of a larger read chunk would keep all of it alive (see detached). */
  constructor(text: string, changeCount: number) {
    this.text = text;
    this.changeCount = changeCount;
  }

  /** The line's changes, values built; the line was parsed and checked once already, so this cannot fail. */
  changes(): LogRecord['changes'] {
    return (JSON.parse(this.text) as LogRecord).changes;
  }
}

/** A copy of `text` that shares no memory with the string it was cut from. */
export function detached(text: string): string {
  return (text + ' ').slice(0, -1);
}

/** Stands in for the value of change number `index` of `line`. */
export class DeferredValue {
  readonly line: ReplayedLine;
  readonly index: number;

  constructor(line: ReplayedLine, index: number) {
    this.line = line;
    this.index = index;
  }
}

export type StoredValue = JsonValue | DeferredValue;
