// The search engine's share of search-in-process.ts's searches, without GraphQL: each body's query and
// platform filter through runSearch, its first page's matched terms and its facets, CPU µs per search and a
// digest of what they gave. Not part of `npm run bench`; opens (and locks) DIR.
// Usage: tsx test/bench/search-engine-share.ts --dir DIR [--words 1] [--searches 4000] [--rounds 5]

import '../../src/cli/production-mode.ts';

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { facetsOf } from '../../src/search/facets.ts';
import { parseFilters } from '../../src/search/filters.ts';
import { runSearch } from '../../src/search/query.ts';
import { searchIndexOf } from '../../src/search/search-index.ts';
import { parseSort } from '../../src/search/sort.ts';
import { Store } from '../../src/store/store.ts';
import { seededSearchInputs, type SearchInput } from './search-bench.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    words: { type: 'string', default: '1' },
    searches: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '5' },
  },
});
if (values.dir === undefined) throw new Error('--dir is required: a directory search-load.ts ingested into');

const store = await Store.open({ dataDir: join(values.dir, 'data') });
try {
  const index = searchIndexOf(store);
  // The same inputs in every run: those of search-in-process.ts's bodies.
  const all = seededSearchInputs(Number(values.searches), Number(values.words));
  const sort = parseSort(null);
  const once = (input: SearchInput, digest: ReturnType<typeof createHash> | null): void => {
    const filter = parseFilters(input.orFilters, null);
    const filterKey = JSON.stringify([[], input.orFilters, null, false]);
    const snapshot = index.current();
    if (snapshot instanceof Promise) throw new Error('the index is not built');
    const request = { types: [], query: input.query, filter, includeSoftDeleted: false, sort, filterKey };
    const matches = runSearch(snapshot, request, JSON.stringify([input.query, null, sort.criteria]) + filterKey);
    const page = matches.slice(0, 10).map((match) => [match.urn, match.score, match.terms()]);
    const facets = facetsOf(matches.facets, filter.selected, 20);
    digest?.update(JSON.stringify([matches.length, page, facets]));
  };
  await index.start();
  for (const input of all) once(input, null);
  for (let round = 0; round < Number(values.rounds); round++) {
    const digest = createHash('sha256');
    const started = process.cpuUsage();
    for (const input of all) once(input, digest);
    const used = process.cpuUsage(started);
    const perSearch = (used.user + used.system) / all.length;
    console.log(
      `${values.words} word(s), ${all.length} searches: ${perSearch.toFixed(1)} µs CPU per search (engine), ` +
        `answers ${digest.digest('hex').slice(0, 16)}`,
    );
  }
} finally {
  await store.close();
}
