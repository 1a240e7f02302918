// REST ingest throughput for `npm run bench`: the catalogue files `minihub ingest` loaded, sent to a fresh
// server on a data directory as DataHub's SDK sends them (ingestProposalBatch of 100 proposals, aspect.value
// a JSON string) by a few concurrent senders, counted in aspects/s beside `minihub ingest`'s.
// Run alone for a short measurement: `npx tsx test/bench/rest-ingest.ts --datasets 2000`.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { parseDataHubFile } from '../../src/datahub/datahub-file.ts';
import { writeCatalogueFiles } from './catalogue.ts';

export const BATCH = 100;
export const SENDERS = 4;

export interface Target {
  url: string;
  token: string;
}

/** The files' aspects as SDK request bodies of BATCH proposals each, and how many aspects they hold. */
export function proposalBodies(files: readonly string[]): { bodies: string[]; aspects: number } {
  const proposals: string[] = [];
  for (const file of files) {
    for (const { urn, entityType, aspect, value } of parseDataHubFile(readFileSync(file, 'utf8'), file).aspects) {
      proposals.push(
        JSON.stringify({
          entityType,
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: aspect,
          aspect: { value: JSON.stringify(value), contentType: 'application/json' },
        }),
      );
    }
  }
  const bodies: string[] = [];
  for (let at = 0; at < proposals.length; at += BATCH)
    bodies.push(`{"proposals":[${proposals.slice(at, at + BATCH).join(',')}],"async":"true"}`);
  return { bodies, aspects: proposals.length };
}

/** Sends every body with SENDERS concurrent senders; resolves to the wall time in ms. Any refusal throws. */
export async function sendAll(target: Target, bodies: readonly string[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  const sender = async () => {
    while (next < bodies.length) {
      const body = bodies[next++] as string;
      const response = await fetch(`${target.url}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-RestLi-Protocol-Version': '2.0.0',
          Authorization: `Bearer ${target.token}`,
        },
        body,
      });
      if (response.status !== 200)
        throw new Error(`ingestProposalBatch answered ${response.status}: ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return performance.now() - started;
}

/** The bench's row: REST ingest aspects/s against `minihub ingest`'s over the same files (`ingestMs`, same run). */
export async function restIngestRow(
  files: readonly string[],
  ingestMs: number,
  serveFresh: () => Promise<Target & { stop: () => Promise<void> }>,
): Promise<{ row: string[]; summary: string }> {
  const { bodies, aspects } = proposalBodies(files);
  const target = await serveFresh();
  let ms: number;
  try {
    ms = await sendAll(target, bodies);
  } finally {
    await target.stop();
  }
  const rest = aspects / (ms / 1000);
  const cli = aspects / (ingestMs / 1000);
  const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
  return {
    row: [
      `REST ingest, ${SENDERS} senders x ingestProposalBatch of ${BATCH}`,
      `${fmt(rest)} aspects/s`,
      `${fmt(cli)} aspects/s (minihub ingest, process start included)`,
      (rest / cli).toFixed(2),
      `${fmt(aspects)} aspects in ${(ms / 1000).toFixed(1)} s`,
      '',
      '(for scale)',
    ],
    summary: `REST ingest: ${fmt(rest)} aspects/s through ingestProposalBatch (${SENDERS} senders, ${BATCH} a batch), minihub ingest ${fmt(cli)} aspects/s, ${fmt(aspects)} aspects`,
  };
}

// Run alone: a small catalogue, `minihub ingest` of it timed, then the REST row.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const cli = ['--import', 'tsx', 'src/cli.ts'];
  const { values } = parseArgs({ options: { datasets: { type: 'string', default: '2000' } } });
  const work = mkdtempSync(join(tmpdir(), 'minihub-rest-bench-'));
  try {
    const files = await writeCatalogueFiles(work, Number(values.datasets), 20);
    const started = performance.now();
    execFileSync(process.execPath, [...cli, 'ingest', ...files, '--data', join(work, 'ingested')], {
      cwd: root,
      stdio: 'ignore',
    });
    const ingestMs = performance.now() - started;
    const { summary } = await restIngestRow(files, ingestMs, () => {
      const child = spawn(process.execPath, [...cli, 'serve', '--port', '0', '--quiet', '--data', join(work, 'rest')], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      return new Promise((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const url = /^minihub listening on (\S+)$/m.exec(out)?.[1];
          const token = /^ {10}(eyJ\S+)$/m.exec(out)?.[1];
          if (url !== undefined && token !== undefined && /^ {2}try /m.test(out)) {
            const exited = new Promise<void>((done) => child.once('exit', () => done()));
            resolve({ url, token, stop: () => (child.kill('SIGTERM'), exited) });
          }
        });
      });
    });
    console.log(summary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
