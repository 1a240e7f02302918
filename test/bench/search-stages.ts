// `node --import tsx test/bench/search-stages.ts --data DIR [--words 1] [--searches 3000] [--root CHECKOUT]`:
// the bench's search (a random dataset's words, filtered on its platform; the same searches every run) in
// process, without HTTP or GraphQL, timed stage by stage (matching and ranking, a page's matched fields,
// facets) after a warm-up of as many. Prints µs per search and a checksum of the answers; --root runs
// another checkout's src/ (a version before) for an A/B on one catalogue.

import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

import type * as Facets from '../../src/search/facets.ts';
import type * as Filters from '../../src/search/filters.ts';
import type * as MatchedFields from '../../src/search/matched-fields.ts';
import type * as Query from '../../src/search/query.ts';
import type * as SearchIndexModule from '../../src/search/search-index.ts';
import type * as StoreModule from '../../src/store/store.ts';
import { seededSearchInputs, type SearchInput } from './search-bench.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    words: { type: 'string', default: '1' },
    searches: { type: 'string', default: '3000' },
    datasets: { type: 'string', default: '10000' },
    root: { type: 'string' },
  },
});
const root = values.root === undefined ? new URL('../../', import.meta.url) : pathToFileURL(`${values.root}/`);
const load = (path: string): Promise<unknown> => import(new URL(path, root).href);
const { DEFAULT_MAX_AGG_VALUES, facetsOf } = (await load('src/search/facets.ts')) as typeof Facets;
const { parseFilters } = (await load('src/search/filters.ts')) as typeof Filters;
const { matchedFields } = (await load('src/search/matched-fields.ts')) as typeof MatchedFields;
const { runSearch } = (await load('src/search/query.ts')) as typeof Query;
const { SearchIndex } = (await load('src/search/search-index.ts')) as typeof SearchIndexModule;
const { Store } = (await load('src/store/store.ts')) as typeof StoreModule;
if (values.data === undefined) throw new Error('--data DIR: a data directory of bench datasets');
const store = await Store.open({ dataDir: values.data });
const index = new SearchIndex(store);
await index.start();
const searches = Number(values.searches);
// The same searches every run.
const inputs = seededSearchInputs(2 * searches, Number(values.words), Number(values.datasets));

const spent = { match: 0, matchedFields: 0, facets: 0 };
let checksum = 0;
let hits = 0;
function run(input: SearchInput, measured: boolean): void {
  let t = performance.now();
  const filter = parseFilters(input.orFilters, null);
  const snapshot = index.current() as SearchIndexModule.IndexSnapshot;
  const filterKey = JSON.stringify([null, input.orFilters, null, false]);
  const request = { types: null, query: input.query, filter, includeSoftDeleted: false, filterKey };
  const matches = runSearch(snapshot, request, JSON.stringify([filterKey, input.query]));
  const page = matches.slice(0, 10);
  let u = performance.now();
  if (measured) spent.match += u - t;
  t = u;
  const fields = page.map((match) => matchedFields(store.catalogue, match));
  u = performance.now();
  if (measured) spent.matchedFields += u - t;
  t = u;
  const facets = facetsOf(matches.facets, filter.selected, DEFAULT_MAX_AGG_VALUES);
  u = performance.now();
  if (measured) spent.facets += u - t;
  if (!measured) return;
  hits += matches.length;
  const answer = JSON.stringify([matches.length, page.map((m) => [m.urn, m.score]), fields, facets]);
  for (let i = 0; i < answer.length; i++) checksum = (checksum * 31 + answer.charCodeAt(i)) >>> 0;
}
inputs.slice(0, searches).forEach((input) => run(input, false));
const cpu = process.cpuUsage();
inputs.slice(searches).forEach((input) => run(input, true));
const used = process.cpuUsage(cpu);
const per = (ms: number) => ((ms * 1000) / searches).toFixed(0);
console.log(
  `${values.words} word(s), ${searches} searches, mean hits ${(hits / searches).toFixed(0)}: ` +
    `CPU ${((used.user + used.system) / searches) | 0} µs per search; match ${per(spent.match)} µs, ` +
    `matched fields ${per(spent.matchedFields)} µs, facets ${per(spent.facets)} µs; checksum ${checksum}`,
);
await store.close();
