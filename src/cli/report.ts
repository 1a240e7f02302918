// One-line summaries of ingest reports, shared by `serve --seed` and `ingest`, and counted nouns.

import type { IngestReport } from '../datahub/ingest.ts';

export function describeReport(report: IngestReport): string {
  const entities = Object.entries(report.entities)
    .map(([type, count]) => `${type} ${count}`)
    .join(', ');
  return (
    `${report.source}: ${plural(report.records, 'record')}, ${plural(report.written, 'aspect')} written, ${report.unchanged} unchanged, ` +
    `${report.rejected.length} rejected` +
    (entities === '' ? '' : ` (${entities})`)
  );
}

/** `1 record`, `2 records`; `many` for irregular plurals. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
