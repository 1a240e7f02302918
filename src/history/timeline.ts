// getTimeline's answer from an entity's history steps: one ChangeTransaction per step that changed
// something of the asked categories, oldest first, with DataHub's computed semantic versions. Pure.

import { changeEvents, type ChangeCategory, type ChangeEvent, type SemVerChange } from './change-events.ts';
import type { HistoryStep } from './history-index.ts';

/** DataHub answers at most this many transactions, the latest (TimelineService.DEFAULT_MAX_CHANGE_TRANSACTIONS). */
export const MAX_CHANGE_TRANSACTIONS = 100;

export interface ChangeTransactionView {
  timestampMillis: number;
  lastSemanticVersion: string;
  versionStamp: string;
  changeType: 'MODIFY';
  actor: string;
  changes: ChangeEventView[];
}

export interface ChangeEventView {
  urn: string;
  category: ChangeCategory;
  operation: ChangeEvent['operation'];
  modifier: string | null;
  parameters: { key: string; value: string }[] | null;
  auditStamp: { time: number; actor: string };
  description: string;
}

/** At most this many changes are listed per transaction (a wide table's whole schema tagged at once). */
export const MAX_CHANGES_PER_TRANSACTION = 1_000;

type Version = [major: number, minor: number, patch: number];
type Wanted = (category: ChangeCategory) => boolean;

/**
 * The transactions of `steps` in the asked categories (every category when `categories` is null): the
 * latest MAX_CHANGE_TRANSACTIONS, found walking back from the newest step. Older steps only move the
 * semantic version. Each step is diffed once and the result kept with it, so a repeated question only
 * walks the steps.
 */
export function timeline(steps: readonly HistoryStep[], categories: readonly string[] | null): ChangeTransactionView[] {
  const wanted: Wanted = (category) => categories === null || categories.includes(category);
  const latest: { step: HistoryStep; change: SemVerChange; events: ChangeEvent[] }[] = [];
  let first = steps.length;
  while (first > 0 && latest.length < MAX_CHANGE_TRANSACTIONS) {
    const step = steps[--first] as HistoryStep;
    const events = diffed(step).events.filter((event) => wanted(event.category));
    if (events.length > 0) latest.push({ step, change: largestChange(step, wanted) as SemVerChange, events });
  }
  // DataHub's computed version starts at 0.0.0 and moves with the largest change of each transaction.
  let version: Version | null = null;
  for (let index = 0; index < first; index++) {
    const change = largestChange(steps[index] as HistoryStep, wanted);
    if (change !== null) version = next(version, change);
  }
  return latest.reverse().map(({ step: { time, actor }, change, events }) => {
    version = next(version, change);
    return {
      timestampMillis: time,
      lastSemanticVersion: `${version.join('.')}-computed`,
      // DataHub's GraphQL answer always says "none" here and MODIFY for the transaction's type.
      versionStamp: 'none',
      changeType: 'MODIFY',
      actor,
      changes: events.slice(0, MAX_CHANGES_PER_TRANSACTION).map((event) => ({
        urn: event.urn,
        category: event.category,
        operation: event.operation,
        modifier: event.modifier,
        parameters: event.parameters === null ? null : event.parameters.map(([key, value]) => ({ key, value })),
        auditStamp: { time, actor },
        description: event.description,
      })),
    };
  });
}

/** What a step's diff gives: its events (at most MAX_CHANGES_PER_TRANSACTION of each category) and weights. */
interface Diffed {
  events: ChangeEvent[];
  /** The largest change of each category the step holds, counting every event. */
  largest: Map<ChangeCategory, SemVerChange>;
}

// Steps never change once recorded, so each is diffed once, on the first question that needs it.
const diffedSteps = new WeakMap<HistoryStep, Diffed>();

function diffed(step: HistoryStep): Diffed {
  const known = diffedSteps.get(step);
  if (known !== undefined) return known;
  const events: ChangeEvent[] = [];
  const counts = new Map<ChangeCategory, number>();
  const largest = new Map<ChangeCategory, SemVerChange>();
  for (const { urn, aspect, before, value } of step.changes) {
    for (const event of changeEvents(urn, aspect, before, value)) {
      const count = counts.get(event.category) ?? 0;
      counts.set(event.category, count + 1);
      if (count < MAX_CHANGES_PER_TRANSACTION) events.push(event);
      if (largest.get(event.category) !== 'MINOR') largest.set(event.category, event.semVer);
    }
  }
  const result = { events, largest };
  diffedSteps.set(step, result);
  return result;
}

/** The largest change of `step` in the wanted categories, or null when it has none of them. */
function largestChange(step: HistoryStep, wanted: Wanted): SemVerChange | null {
  let change: SemVerChange | null = null;
  for (const [category, semVer] of diffed(step).largest) {
    if (wanted(category) && change !== 'MINOR') change = semVer;
  }
  return change;
}

function next(version: Version | null, change: SemVerChange): Version {
  if (version === null) return [0, 0, 0];
  const [major, minor, patch] = version;
  return change === 'MINOR' ? [major, minor + 1, 0] : [major, minor, patch + 1];
}
