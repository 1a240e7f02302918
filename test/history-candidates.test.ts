// Which log lines the history reads (tracked-records.ts candidateRecords): exactly those with a change of
// a tracked aspect, in order, wherever they fall in the chunks read (a line may span chunks); long lines
// without one, and a torn last line, are skipped.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { candidateRecords } from '../src/history/tracked-records.ts';
import type { LogRecord } from '../src/store/log-record.ts';

const candidates = suite('history candidate records');
const URN = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:postgres,db.t${i},PROD)`;

function record(seq: number, aspect: string, value: LogRecord['changes'][number]['value']): string {
  return JSON.stringify({
    seq,
    time: 1,
    actor: 'urn:li:corpuser:datahub',
    op: 'edit',
    changes: [{ urn: URN(seq), aspect, value }],
  });
}

async function seqsOf(text: string, chunkBytes: number): Promise<number[]> {
  const bytes = Buffer.from(text);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
  }
  const seqs: number[] = [];
  for await (const found of candidateRecords(chunks())) seqs.push(found.seq);
  return seqs;
}

candidates('every line with a tracked change, in order, and no other, however the chunks cut them', async () => {
  const lines = [
    record(1, 'editableDatasetProperties', { description: 'first line of the log' }),
    // A long line of untracked aspects (an ingest batch), whose text names a tracked aspect only as a value.
    record(2, 'datasetProperties', { description: `"aspect":"globalTags" ${'é'.repeat(20_000)}` }),
    record(3, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
    record(4, 'institutionalMemory', { elements: [] }),
    record(5, 'status', { removed: false }),
    record(6, 'editableSchemaMetadata', { editableSchemaFieldInfo: [] }),
    record(7, 'editableDatasetProperties', { description: 'last whole line' }),
  ];
  const torn = record(8, 'globalTags', { tags: [] }).slice(0, 40);
  const text = lines.join('\n') + '\n' + torn;
  for (const chunkBytes of [7, 100, 4096, 1 << 20]) {
    assert.equal(await seqsOf(text, chunkBytes), [1, 3, 4, 6, 7], `chunks of ${chunkBytes} bytes`);
  }
});

candidates.run();
