// The getTimeline query: a dataset's change history from the store's history index (src/history/).
// It reads through the query's HistoryReader only, and never writes.

import { timeline, type ChangeTransactionView } from '../history/timeline.ts';
import type { HistoryStep } from '../history/history-index.ts';
import { parseDatasetUrn, parseUrn } from '../urn.ts';
import type { QueryContext } from './context.ts';

interface GetTimelineInput {
  urn: string;
  changeCategories?: string[] | null;
  includeVersionSet?: boolean | null;
}

interface GetTimelineResult {
  changeTransactions: ChangeTransactionView[];
  skippedVersionCount: number;
}

export const timelineQueries = {
  /**
   * DataHub keeps timelines for datasets and glossary terms; for any other entity type its resolver
   * answers null. minihub tracks datasets: a glossary term, or a dataset it does not know, has no changes.
   */
  getTimeline(
    { input }: { input: GetTimelineInput },
    { history }: QueryContext,
  ): GetTimelineResult | Promise<GetTimelineResult> | null {
    const { entityType } = parseUrn(input.urn);
    if (entityType === 'glossaryTerm') return { changeTransactions: [], skippedVersionCount: 0 };
    if (entityType !== 'dataset') return null;
    parseDatasetUrn(input.urn);
    const categories = input.changeCategories ?? null;
    const answer = (steps: readonly HistoryStep[]): GetTimelineResult => ({
      changeTransactions: timeline(steps, categories),
      skippedVersionCount: 0,
    });
    const steps = history.steps(input.urn);
    return steps instanceof Promise ? steps.then(answer) : answer(steps);
  },
};
