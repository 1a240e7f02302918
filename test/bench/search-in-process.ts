// The bench's one- or three-word searches run in process, one at a time, against the GraphQL handler over a
// search-load.ts catalogue: CPU µs per search without sockets or a load generator, and a digest of every
// answer so two checkouts can be shown to answer alike. Not part of `npm run bench`; opens (and locks) DIR.
// Usage: tsx test/bench/search-in-process.ts --dir DIR [--words 1] [--searches 4000] [--print]

import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

import { ROOT } from './harness.ts';
import { searchCheckout } from './search-checkout.ts';
import { seededSearchBodies } from './search-bench.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    words: { type: 'string', default: '1' },
    searches: { type: 'string', default: '4000' },
    print: { type: 'boolean', default: false },
  },
});
if (values.dir === undefined) throw new Error('--dir is required: a directory search-load.ts ingested into');
const searches = Number(values.searches);

const checkout = await searchCheckout(ROOT, values.dir);
const ask = (body: string): Promise<string> => checkout.ask(body);
try {
  const all = seededSearchBodies(searches, Number(values.words));
  // The first search waits for the index build. A warm-up round over the same bodies lets the JIT settle and
  // reads every aspect they touch once, as a server long under load has (the log's values are parsed on first read).
  for (const body of all) await ask(body);
  if (values.print) console.log(await ask(all[0] as string));
  const digest = createHash('sha256');
  const started = process.cpuUsage();
  for (const body of all) digest.update(await ask(body));
  const used = process.cpuUsage(started);
  const perSearch = (used.user + used.system) / searches;
  console.log(
    `${values.words} word(s), ${searches} searches: ${perSearch.toFixed(1)} µs CPU per search, ` +
      `answers ${digest.digest('hex').slice(0, 16)}`,
  );
} finally {
  await checkout.close();
}
