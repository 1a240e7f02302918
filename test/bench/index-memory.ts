// `node --expose-gc --import tsx test/bench/index-memory.ts [--datasets 10000] [--columns 20]`: where the
// memory of a catalogue with its search index goes. Ingests a synthetic catalogue, opens it, then builds
// every aspect still held as log text, then the index, printing heap, external and RSS after each, settled.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { SearchIndex } from '../../src/search/search-index.ts';
import { Store } from '../../src/store/store.ts';
import { writeCatalogueFiles } from './catalogue.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { values: options } = parseArgs({
  options: { datasets: { type: 'string', default: '10000' }, columns: { type: 'string', default: '20' } },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc --import tsx');

/** Memory after full collections and a few seconds' idling, so freed pages have gone back. */
async function settled(label: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5000));
  gc?.();
  gc?.();
  const { heapUsed, external, rss } = process.memoryUsage();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(`${label}: heap used ${mb(heapUsed)}, external ${mb(external)}, RSS ${mb(rss)}`);
}

const work = mkdtempSync(join(tmpdir(), 'minihub-index-memory-'));
try {
  const files = await writeCatalogueFiles(work, Number(options.datasets), Number(options.columns));
  const dataDir = join(work, 'data');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ingest', ...files, '--data', dataDir], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const logMb = statSync(join(dataDir, 'catalogue.jsonl')).size / 1024 / 1024;
  console.log(`${options.datasets} datasets x ${options.columns} columns, ${logMb.toFixed(0)} MB log`);
  const store = await Store.open({ dataDir });
  await settled('opened (long lines held as text)');
  // What the index's build does to the catalogue as a side effect: each aspect it reads is built and kept.
  for (const entity of store.catalogue.entities()) void entity;
  await settled('every aspect built');
  await new SearchIndex(store).start();
  await settled('search index built');
  await store.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
