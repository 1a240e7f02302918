// `node --expose-gc --import tsx test/bench/index-build.ts --data DIR [--put | --worker]`: where the search index's build spends
// CPU and memory on an existing data directory, phase by phase (aspects parsed, documents extracted,
// engine filled), GC time included, then a checksum of fixed queries' answers to compare two versions.

import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { searchDocument } from '../../src/search/documents.ts';
import type { DocumentText } from '../../src/search/fields.ts';
import { engineBuilder } from '../../src/search/engine-build.ts';
import { createSearchEngine, type SearchEngine } from '../../src/search/search-engine.ts';
import { Store } from '../../src/store/store.ts';
import { datasetText } from './catalogue-words.ts';

const { values: options } = parseArgs({
  options: {
    data: { type: 'string' },
    put: { type: 'boolean', default: false },
    worker: { type: 'boolean', default: false },
  },
});
if (options.data === undefined) throw new Error('--data DIR: a data directory (e.g. one bench:big left)');
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc --import tsx');

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}
async function phase<T>(label: string, run: () => T | Promise<T>): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  const before = heap();
  const cpu = process.cpuUsage();
  const gcBefore = gcMs;
  const started = performance.now();
  const result = await run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await new Promise((resolve) => setTimeout(resolve, 10)); // GC entries arrive on a later turn
  const spentGc = gcMs - gcBefore;
  const after = heap();
  const cpuS = ((used.user + used.system) / 1e6).toFixed(2);
  console.log(
    `${label}: ${wall.toFixed(0)} ms wall, ${cpuS} s CPU, GC ${spentGc.toFixed(0)} ms, heap +${mb(after - before)}`,
  );
  return result;
}

const store = await Store.open({ dataDir: options.data });
const catalogue = store.catalogue;
const urns = [...catalogue.urns()];
console.log(`${urns.length} entities, heap ${mb(heap())}, RSS ${mb(process.memoryUsage().rss)}`);
await phase('aspects built', () => {
  for (const entity of catalogue.entities()) void entity;
});
const texts = await phase('documents extracted', () => {
  const texts: [string, DocumentText][] = [];
  for (const urn of urns) {
    const document = searchDocument(catalogue, urn);
    if (document !== null) texts.push([urn, document.text]);
  }
  return texts;
});
// --put fills the engine a document at once, as live changes do; else as the first build does, --worker
// with a worker thread counting and laying out (CPU is the process's: both threads).
const engine = await phase(
  options.put ? 'engine filled (put)' : `engine built${options.worker ? ' (worker)' : ''}`,
  (): SearchEngine<undefined> | Promise<SearchEngine<undefined>> => {
    if (options.put) {
      const engine = createSearchEngine<undefined>();
      for (const [urn, text] of texts) engine.put(urn, text, undefined);
      return engine;
    }
    const builder = engineBuilder<undefined>(options.worker);
    for (const [urn, text] of texts) builder.add(urn, text, undefined);
    return builder.build(10);
  },
);
texts.length = 0;
console.log(JSON.stringify((engine as unknown as { stats?: object }).stats));
console.log(
  `with the index: heap ${mb(heap())}, external ${mb(process.memoryUsage().external)}, RSS ${mb(process.memoryUsage().rss)}`,
);

// Fixed queries (words of bench datasets, prefixes, a typo): every answer's ids and scores summed up.
const queries: string[] = [];
for (let i = 0; i < 60; i++) {
  const { words } = datasetText(i * 1601);
  queries.push(words[0]!, words.slice(0, 3).join(' '), words[0]!.slice(0, 3), `${words[0]!}x`);
}
let hits = 0;
let checksum = 0;
const started = performance.now();
for (const query of queries) {
  const result = engine.query(query);
  hits += result.size;
  for (let i = 0; i < result.size; i++) {
    checksum += result.scores[i]! * (1 + (result.id(i).length % 7));
    if (i < 10) checksum += Object.keys(result.matches(i)).length;
  }
}
const queryMs = (performance.now() - started) / queries.length;
console.log(`${queries.length} queries: ${hits} hits, checksum ${checksum.toFixed(6)}, ${queryMs.toFixed(2)} ms each`);
await store.close();
