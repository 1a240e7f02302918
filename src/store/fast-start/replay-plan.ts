// A run of log records condensed for a cheap hand-over between threads: every change's entity and aspect
// in order, a value only where no later change replaces it, long lines by their place in the file.
// Pure data and its two ends (built in the replay worker, read by the catalogue); no threads, no files.

import type { StoredValue } from '../catalogue.ts';
import type { JsonValue } from '../../aspects/json.ts';
import type { AspectChange } from '../log-record.ts';
import { DEFERRED_LINE_CHARS, DeferredValue, ReplayedLine } from './lazy-lines.ts';

/** Strings, numbers and plain values only: what structured clone copies fast. */
export interface ReplayPlan {
  urns: string[];
  aspects: string[];
  /** OP_WIDTH numbers per change, in log order: urn index, aspect index, value slot, index in its line. */
  ops: Int32Array<ArrayBuffer>;
  values: JsonValue[];
  /** Each long line (see DEFERRED_LINE_CHARS) that still holds a value: its first byte in the file, its length in bytes, its change count. */
  lines: { start: number; bytes: number; changes: number }[];
}

const OP_WIDTH = 4;
// Value slots: 0 and up index `values`; these two mark a change with no value to hand over; below
// them, -3 - n stands for a value kept as the text of long line n.
const REPLACED = -1;
const REMOVED = -2;
const FIRST_LINE = -3;

/**
 * What a change replaced later in the same plan is applied as, so entities and aspects keep the order
 * a full replay gives them; the later change always overwrites it before the plan ends.
 */
const REPLACED_LATER: JsonValue = Object.freeze({ replacedLater: true });

/** A long line whose values stay text; kept only while some change of it is still the latest. */
class PendingLine {
  readonly start: number;
  readonly bytes: number;
  readonly changes: number;
  slot = 0;

  constructor(start: number, bytes: number, changes: number) {
    this.start = start;
    this.bytes = bytes;
    this.changes = changes;
  }
}

/** Collects records in log order and condenses them into a ReplayPlan. */
export class PlanBuilder {
  // Where in the file the records handed to add() start: their line positions count from there.
  readonly #base: number;
  readonly #urns: string[] = [];
  readonly #urnIndex = new Map<string, number>();
  readonly #aspects: string[] = [];
  readonly #aspectIndex = new Map<string, number>();
  readonly #ops: number[] = [];
  // Per change, its value while it is still the latest for its urn and aspect; undefined once
  // replaced (so the value can be collected at once) and for removals.
  readonly #pending: (JsonValue | PendingLine | undefined)[] = [];
  // By urn index, then aspect index: the number of the latest change (arrays: one string lookup per change).
  readonly #latest: number[][] = [];

  constructor(base: number) {
    this.#base = base;
  }

  /** Adds one record's changes; `line` is its text and `at` its first byte, counted from the base. */
  add(changes: readonly AspectChange[], line: string, at: number): void {
    const long =
      line.length >= DEFERRED_LINE_CHARS
        ? new PendingLine(this.#base + at, Buffer.byteLength(line), changes.length)
        : null;
    for (let index = 0; index < changes.length; index++) {
      const { urn, aspect, value } = changes[index] as AspectChange;
      const op = this.#pending.length;
      const urnIndex = intern(urn, this.#urns, this.#urnIndex);
      const aspectIndex = intern(aspect, this.#aspects, this.#aspectIndex);
      this.#ops.push(urnIndex, aspectIndex, value === null ? REMOVED : REPLACED, index);
      this.#pending.push(value === null ? undefined : (long ?? value));
      const latest = (this.#latest[urnIndex] ??= []);
      const previous = latest[aspectIndex];
      if (previous !== undefined) this.#pending[previous] = undefined;
      latest[aspectIndex] = op;
    }
  }

  finish(): ReplayPlan {
    const ops = Int32Array.from(this.#ops);
    const values: JsonValue[] = [];
    const lines: ReplayPlan['lines'] = [];
    for (let op = 0; op < this.#pending.length; op++) {
      const pending = this.#pending[op];
      if (pending === undefined) continue;
      if (pending instanceof PendingLine) {
        // Slots of lines are negative: 0 means this line has none yet.
        if (pending.slot === 0) {
          pending.slot = FIRST_LINE - lines.length;
          lines.push({ start: pending.start, bytes: pending.bytes, changes: pending.changes });
        }
        ops[op * OP_WIDTH + 2] = pending.slot;
      } else {
        ops[op * OP_WIDTH + 2] = values.length;
        values.push(pending);
      }
    }
    return { urns: this.#urns, aspects: this.#aspects, ops, values, lines };
  }
}

/**
 * Calls `visit` for every change of `plan` in log order: null for a removal, REPLACED_LATER for a value
 * overwritten later in the plan. `lineTexts` holds the text of each of `plan.lines`, read back from the file.
 */
export function forEachPlannedChange(
  plan: ReplayPlan,
  lineTexts: readonly string[],
  visit: (urn: string, aspect: string, value: StoredValue) => void,
): void {
  const lines = plan.lines.map((line, n) => new ReplayedLine(lineTexts[n] as string, line.changes));
  const { ops, urns, aspects, values } = plan;
  for (let at = 0; at < ops.length; at += OP_WIDTH) {
    const slot = ops[at + 2] as number;
    let value: StoredValue;
    if (slot >= 0) value = values[slot] as JsonValue;
    else if (slot === REPLACED) value = REPLACED_LATER;
    else if (slot === REMOVED) value = null;
    else value = new DeferredValue(lines[FIRST_LINE - slot] as ReplayedLine, ops[at + 3] as number);
    visit(urns[ops[at] as number] as string, aspects[ops[at + 1] as number] as string, value);
  }
}

function intern(text: string, list: string[], index: Map<string, number>): number {
  let found = index.get(text);
  if (found === undefined) {
    found = list.length;
    list.push(text);
    index.set(text, found);
  }
  return found;
}
