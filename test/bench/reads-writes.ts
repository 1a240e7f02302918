// The bench's reads, mixed load and durable writes: minihub against the bare server (reads, 95/5 mixed)
// and against one fsync per write and group commit without GraphQL (writes), each minihub on a fresh copy
// of the ingested data directory. It adds rows to the report; it never writes RESULTS.md itself.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { datasetUrn } from './catalogue.ts';
import { COLUMNS, mixedBody, READ, randomRead as benchRead, randomWrite as benchWrite } from './bodies.ts';
import { compare, cpuOf, latencies, referenceCell, type Loads } from './compare.ts';
import { withFreshServer, type FreshServer } from './fresh-server.ts';
import { fmt, graphql, withServer, type Served } from './harness.ts';
import type { Report } from './search-bench.ts';

export interface ReadWriteSettings {
  loads: Loads;
  /** Bench datasets the bodies pick from at random. */
  datasets: number;
}

/** minihub against the reference servers: random reads, the mixed load and durable writes. */
export async function readsAndWrites(
  ingested: string,
  work: string,
  profile: string[],
  { loads, datasets }: ReadWriteSettings,
  { rows, summary }: Report,
): Promise<void> {
  const randomRead = () => benchRead(datasets);
  const randomWrite = () => benchWrite(datasets);
  const responseFile = join(work, 'response.json');
  await withFreshServer(ingested, work, 'reads', profile, async ({ served: minihub }) => {
    await checkReads(minihub, responseFile, datasets);
    // The bare server answers exactly the bytes minihub answers for one dataset.
    await withServer(['test/bench/baselines.ts', 'bare', responseFile], async (bare) => {
      const reads = await compare(loads, 'reads', bare, 'bare', minihub, 'minihub', randomRead, randomRead);
      const readRatio = reads.b.rps / reads.a.rps;
      rows.push([
        'random reads',
        `${fmt(reads.b.rps)} req/s`,
        referenceCell(reads.a),
        fmt(readRatio, 2),
        latencies(reads),
        cpuOf(reads),
        '≥ 0.70, p99 ≤ 5 ms',
      ]);
      summary.push(
        `reads: minihub ${fmt(reads.b.rps)} req/s, bare ${fmt(reads.a.rps)} req/s at ${fmt(reads.a.cpu * 100)}% of its core, ratio ${fmt(readRatio, 2)}, p99 ${fmt(reads.b.p99, 1)} ms, failures ${reads.b.failures}`,
      );

      const mixed95 = () => mixedBody(datasets);
      const mixed = await compare(loads, 'mixed 95/5', bare, 'bare', minihub, 'minihub', randomRead, mixed95);
      const mixedRatio = mixed.b.rps / mixed.a.rps;
      rows.push([
        'mixed 95% reads / 5% writes',
        `${fmt(mixed.b.rps)} req/s`,
        referenceCell(mixed.a, 'reads'),
        fmt(mixedRatio, 2),
        latencies(mixed),
        cpuOf(mixed),
        '≥ 0.40',
      ]);
      summary.push(
        `mixed 95/5: minihub ${fmt(mixed.b.rps)} req/s, ratio to bare reads ${fmt(mixedRatio, 2)}, failures ${mixed.b.failures}`,
      );
    });
  });

  const run = { ingested, work, profile, responseFile, loads, randomWrite, rows, summary };
  for (const row of WRITE_ROWS) await writeRow(run, row);
}

/** One durable-write row: minihub on a fresh copy against a reference server of baselines.ts. */
interface WriteRow {
  /** baselines.ts's mode. */
  mode: 'fsync' | 'group';
  /** The reference's name in the rounds' lines. */
  label: string;
  figure: string;
  /** What the reference cell says the reference is. */
  reference: string;
  /** Its name in the summary line, when not `reference`. */
  summary?: string;
  /** Decimals of the ratio. */
  digits: number;
  goal: string;
}

const WRITE_ROWS: readonly WriteRow[] = [
  {
    mode: 'fsync',
    label: 'fsync per write',
    figure: 'durable writes, 32 writers',
    reference: 'one fsync per write',
    digits: 1,
    goal: '(for scale)',
  },
  // What durable writes cost here with no GraphQL at all: how much of the gap is minihub's own.
  {
    mode: 'group',
    label: 'group commit, no GraphQL',
    figure: 'durable writes against group commit without GraphQL',
    reference: 'the same batching, no GraphQL',
    summary: 'group commit without GraphQL',
    digits: 2,
    goal: '≥ 0.65; ≥ 10,000/s where the reference does ≥ 15,000/s',
  },
];

/** What every write row shares. */
interface WriteRun {
  ingested: string;
  work: string;
  profile: string[];
  responseFile: string;
  loads: Loads;
  randomWrite: () => string;
  rows: string[][];
  summary: string[];
}

async function writeRow(
  { ingested, work, profile, responseFile, loads, randomWrite, rows, summary }: WriteRun,
  row: WriteRow,
): Promise<void> {
  const args = ['test/bench/baselines.ts', row.mode, responseFile, join(work, `${row.mode}.log`)];
  await withFreshServer(ingested, work, `writes-${row.mode}`, profile, (minihub) =>
    withServer(args, async (reference) => {
      const writes = await compare(
        loads,
        'writes',
        reference,
        row.label,
        minihub.served,
        'minihub',
        randomWrite,
        randomWrite,
        true,
      );
      const ratio = (writes.b.acknowledged ?? 0) / (writes.a.acknowledged ?? 1);
      rows.push([
        row.figure,
        `${fmt(writes.b.acknowledged ?? 0)} acknowledged/s${compactionNote(minihub)}`,
        `${fmt(writes.a.acknowledged ?? 0)}/s (${row.reference})`,
        fmt(ratio, row.digits),
        latencies(writes),
        cpuOf(writes),
        row.goal,
      ]);
      summary.push(
        `writes: minihub ${fmt(writes.b.acknowledged ?? 0)} acknowledged/s, ${row.summary ?? row.reference} ${fmt(writes.a.acknowledged ?? 0)}/s, ratio ${fmt(ratio, row.digits)}`,
      );
    }),
  );
}

/**
 * Writes to `responseFile` the bytes minihub answers for one dataset's read: what the bare server sends
 * back, so both send exactly the same answer.
 */
export async function writeSampleAnswer(minihub: Served, responseFile: string): Promise<void> {
  const sample = await fetch(`${minihub.url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${minihub.token}` },
    body: JSON.stringify({ query: READ, variables: { urn: datasetUrn(42) } }),
  });
  writeFileSync(responseFile, Buffer.from(await sample.arrayBuffer()));
}

/** Checks that minihub answers reads of random datasets whole, and keeps one answer's bytes for the bare server. */
async function checkReads(minihub: Served, responseFile: string, datasets: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const index = Math.floor(Math.random() * datasets);
    const body = JSON.stringify({ query: READ, variables: { urn: datasetUrn(index) } });
    const reply = (await graphql(minihub, body)) as { data: { dataset: { schemaMetadata: { fields: unknown[] } } } };
    if (reply.data.dataset.schemaMetadata.fields.length !== COLUMNS)
      throw new Error(`dataset ${index} answered wrongly`);
  }
  await writeSampleAnswer(minihub, responseFile);
}

/** What a write row's minihub cell adds when the log was compacted during its rounds. */
function compactionNote(server: FreshServer): string {
  return server.compacted() ? ' (a compaction ran during the rounds)' : '';
}
