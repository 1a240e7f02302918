// getTimeline's answer from an entity's history steps: one ChangeTransaction per step that changed
// something of the asked categories, oldest first, with DataHub's computed semantic versions. Pure.

import { changeEvents, type ChangeCategory, type ChangeEvent } from './change-events.ts';
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

/** The transactions of `steps` in the asked categories (every category when `categories` is null). */
export function timeline(steps: readonly HistoryStep[], categories: readonly string[] | null): ChangeTransactionView[] {
  const wanted = (category: ChangeCategory) => categories === null || categories.includes(category);
  const transactions: ChangeTransactionView[] = [];
  // DataHub's computed version starts at 0.0.0 and moves with the largest change of each transaction.
  let version: [number, number, number] | null = null;
  for (const { time, actor, changes } of steps) {
    const events = changes
      .flatMap(({ urn, aspect, before, value }) => changeEvents(urn, aspect, before, value))
      .filter((event) => wanted(event.category));
    if (events.length === 0) continue;
    version = next(version, events);
    transactions.push({
      timestampMillis: time,
      lastSemanticVersion: `${version.join('.')}-computed`,
      // DataHub's GraphQL answer always says "none" here and MODIFY for the transaction's type.
      versionStamp: 'none',
      changeType: 'MODIFY',
      actor,
      changes: events.map((event) => ({
        urn: event.urn,
        category: event.category,
        operation: event.operation,
        modifier: event.modifier,
        parameters: event.parameters === null ? null : event.parameters.map(([key, value]) => ({ key, value })),
        auditStamp: { time, actor },
        description: event.description,
      })),
    });
  }
  return transactions.slice(-MAX_CHANGE_TRANSACTIONS);
}

function next(version: [number, number, number] | null, events: readonly ChangeEvent[]): [number, number, number] {
  if (version === null) return [0, 0, 0];
  const [major, minor, patch] = version;
  return events.some((event) => event.semVer === 'MINOR') ? [major, minor + 1, 0] : [major, minor, patch + 1];
}
