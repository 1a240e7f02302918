// The bench's one- or three-word searches run in process, one at a time, against the GraphQL handler over a
// search-load.ts catalogue: CPU µs per search without sockets or a load generator, and a digest of every
// answer so two checkouts can be shown to answer alike. Not part of `npm run bench`; opens (and locks) DIR.
// Usage: tsx test/bench/search-in-process.ts --dir DIR [--words 1] [--searches 4000] [--print]

import '../../src/cli/production-mode.ts';

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { TokenService } from '../../src/auth/tokens.ts';
import { loadSigningKey } from '../../src/auth/signing-key.ts';
import { bufferedBody } from '../../src/http/body.ts';
import { createRoutes } from '../../src/http/routes.ts';
import { resolveLimits } from '../../src/limits.ts';
import { Store } from '../../src/store/store.ts';
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
const dataDir = join(values.dir, 'data');
const searches = Number(values.searches);

const store = await Store.open({ dataDir });
try {
  const routes = createRoutes({
    store,
    tokens: new TokenService(loadSigningKey(dataDir), store),
    auth: false,
    limits: resolveLimits({}),
    version: 'bench',
    resetToSeed: () => Promise.resolve(),
    logError: (error) => console.error(error),
  });
  const ask = async (body: string): Promise<string> => {
    const answer = await routes({
      method: 'POST',
      url: '/api/graphql',
      headers: { 'content-type': 'application/json' },
      body: bufferedBody(Buffer.from(body)),
    });
    return answer.body?.toString('utf8') ?? '';
  };
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
  await store.close();
}
