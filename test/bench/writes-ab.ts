// Short A/B runs of durable writes, 32 writers: minihub of this checkout, optionally minihub of another
// checkout (`--base DIR`), and the group-commit reference without GraphQL (baselines.ts), alternating,
// each on a data directory of its own. Prints writes/s, the server's CPU µs per acknowledged write and
// the ratio to the reference. Not part of `npm run bench`; for measuring changes to the write path.
// Usage: tsx test/bench/writes-ab.ts [--base DIR] [--datasets 10000] [--duration 5] [--rounds 3] [--cpu-prof DIR]

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { datasetUrn, writeCatalogueFiles } from './catalogue.ts';
import { columnPath } from './catalogue-words.ts';
import { cpuSeconds, fmt, load, log, pin, ROOT, serve, stop, type Served } from './harness.ts';
import { waitForIndex } from './search-bench.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    datasets: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'cpu-prof': { type: 'string' },
  },
});
const DATASETS = Number(values.datasets);
const COLUMNS = 20;
const WRITE = 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';

let count = 0;
function randomWrite(): string {
  const index = Math.floor(Math.random() * DATASETS);
  const input = {
    description: `edited ${++count}`,
    resourceUrn: datasetUrn(index),
    subResource: columnPath(index, Math.floor(Math.random() * COLUMNS)),
    subResourceType: 'DATASET_FIELD',
  };
  return JSON.stringify({ query: WRITE, variables: { input } });
}

interface Side {
  name: string;
  server: Served;
  runs: { acknowledged: number; us: number; p99: number }[];
}

pin(process.pid, 1);
const work = mkdtempSync(join(tmpdir(), 'minihub-writes-'));
const sides: Side[] = [];
try {
  const files = await writeCatalogueFiles(work, DATASETS, COLUMNS);
  const data = join(work, 'data');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ingest', ...files, '--data', data], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const profile = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']];
  const minihub = async (name: string, root: string): Promise<void> => {
    const dir = join(work, name);
    cpSync(data, dir, { recursive: true });
    const server = await serve([join(root, 'src/cli.ts'), 'serve', '--port', '0', '--data', dir, '--quiet'], profile);
    sides.push({ name, server, runs: [] });
    // As the bench: the search index, built after start, is complete before anything is measured.
    await waitForIndex(server);
  };
  const response = join(work, 'response.json');
  writeFileSync(response, '{}');
  const group = await serve(['test/bench/baselines.ts', 'group', response, join(work, 'group.log')]);
  sides.push({ name: 'group commit, no GraphQL', server: group, runs: [] });
  await minihub('minihub', ROOT);
  if (values.base !== undefined) await minihub('minihub (base)', values.base);

  const options = { connections: Number(values.connections), countAcknowledged: true };
  for (const side of sides) await load(side.server, randomWrite, { ...options, duration: 3 });
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const side of sides) {
      const pid = side.server.child.pid as number;
      const before = cpuSeconds(pid);
      const run = await load(side.server, randomWrite, { ...options, duration: Number(values.duration) });
      const acknowledged = run.acknowledged ?? 0;
      const us = ((cpuSeconds(pid) - before) * 1e6) / (acknowledged * Number(values.duration));
      side.runs.push({ acknowledged, us, p99: run.p99 });
      log(
        `  ${side.name} round ${round}: ${fmt(acknowledged)}/s, ${fmt(us, 1)} µs CPU per write, ` +
          `server at ${fmt(run.cpu * 100)}% of its core, p99 ${fmt(run.p99, 1)} ms, ${run.failures} failed`,
      );
    }
  }
  const reference = sides[0] as Side;
  const mean = (side: Side, pick: (run: Side['runs'][number]) => number) =>
    side.runs.reduce((sum, run) => sum + pick(run), 0) / side.runs.length;
  for (const side of sides) {
    const ratio = mean(side, (run) => run.acknowledged) / mean(reference, (run) => run.acknowledged);
    console.log(
      `${side.name}: ${fmt(mean(side, (run) => run.acknowledged))}/s, ${fmt(
        mean(side, (run) => run.us),
        1,
      )} µs CPU per write, ` + `ratio to the reference ${fmt(ratio, 2)}`,
    );
  }
} finally {
  for (const side of sides) await stop(side.server.child);
  rmSync(work, { recursive: true, force: true });
}
