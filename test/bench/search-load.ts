// The bench's search load alone, for measuring changes to search: one server (tsx, pinned to core 0) on
// 10,000 bench datasets x 20 columns, one- or three-word searches with a platform filter at 8 connections.
// Prints throughput, latency and the server's CPU µs per search. Not part of `npm run bench`.
// Usage: tsx test/bench/search-load.ts [--words 1] [--duration 8] [--dir DIR] [--node-flag=--cpu-prof ...]

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { writeCatalogueFiles } from './catalogue.ts';
import { cpuSeconds, fmt, load, log, ROOT, serve, stop } from './harness.ts';
import { SEARCH_CONNECTIONS, searchBody, waitForIndex } from './search-bench.ts';

const DATASETS = 10_000;
const { values } = parseArgs({
  options: {
    words: { type: 'string', default: '1' },
    duration: { type: 'string', default: '8' },
    // Kept between runs: the catalogue is ingested once.
    dir: { type: 'string', default: join(tmpdir(), 'minihub-search-load') },
    'node-flag': { type: 'string', multiple: true, default: [] },
  },
});
const words = Number(values.words);
const duration = Number(values.duration);
const dataDir = join(values.dir, 'data');

if (!existsSync(join(dataDir, 'catalogue.jsonl'))) {
  log(`writing and ingesting ${fmt(DATASETS)} datasets into ${values.dir}`);
  mkdirSync(values.dir, { recursive: true });
  const files = await writeCatalogueFiles(values.dir, DATASETS, 20);
  const ingest = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ingest', ...files, '--data', dataDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (ingest.status !== 0) throw new Error(`ingest exited with ${ingest.status}`);
}

const server = await serve(['src/cli.ts', 'serve', '--port', '0', '--data', dataDir, '--quiet'], values['node-flag']);
try {
  log(`index complete ${fmt(await waitForIndex(server))} ms after the banner`);
  const body = () => searchBody(DATASETS, words);
  await load(server, body, { connections: SEARCH_CONNECTIONS, duration: 3, generator: 'autocannon' });
  const cpuBefore = cpuSeconds(server.child.pid as number);
  const measured = await load(server, body, { connections: SEARCH_CONNECTIONS, duration, generator: 'autocannon' });
  const perSearch = ((cpuSeconds(server.child.pid as number) - cpuBefore) * 1e6) / (measured.rps * duration);
  log(
    `${words} word(s): ${fmt(measured.rps)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, ` +
      `${fmt(perSearch)} µs CPU per search, server at ${fmt(measured.cpu * 100)}% of its core`,
  );
} finally {
  await stop(server.child);
}
