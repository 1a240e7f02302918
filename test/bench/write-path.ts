// CPU per durable write of minihub's own path, without sockets: the real GraphQL handler in process
// (routes, response cache, execution, resolvers, the store with its fdatasync), 32 writers at a time, on a
// data directory of bench datasets. Prints CPU µs and log bytes per acknowledged write of each round (a
// compaction during a round shows in both); for A/B runs of the write path (run it from each checkout).
// Not part of `npm run bench`.
// Usage: tsx test/bench/write-path.ts [--datasets 2000] [--writes 20000] [--rounds 3]

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { loadSigningKey } from '../../src/auth/signing-key.ts';
import { TokenService } from '../../src/auth/tokens.ts';
import { ROOT_USER } from '../../src/auth/users.ts';
import { bufferedBody } from '../../src/http/body.ts';
import { createRoutes } from '../../src/http/routes.ts';
import { resolveLimits } from '../../src/limits.ts';
import { searchIndexOf } from '../../src/search/search-index.ts';
import { Store } from '../../src/store/store.ts';
import { writeCatalogueFiles } from './catalogue.ts';
import { randomWrite as benchWrite } from './bodies.ts';
import { fmt, log, ROOT } from './harness.ts';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: '2000' },
    writes: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
  },
});
const DATASETS = Number(values.datasets);
const WRITERS = 32;
const randomWrite = () => benchWrite(DATASETS);

const work = mkdtempSync(join(tmpdir(), 'minihub-write-path-'));
try {
  const files = await writeCatalogueFiles(work, DATASETS, 20);
  const dataDir = join(work, 'data');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ingest', ...files, '--data', dataDir], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const store = await Store.open({ dataDir });
  const tokens = new TokenService(loadSigningKey(dataDir), store);
  const token = tokens.createSessionToken(ROOT_USER);
  const routes = createRoutes({
    store,
    tokens,
    auth: true,
    limits: resolveLimits(),
    version: 'bench',
    logError: (error) => log(String(error)),
  });
  // As the bench: the search index, built after start, is complete before anything is measured.
  await searchIndexOf(store).current();
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}`, host: 'localhost' };
  let failed = 0;
  const writer = async (writes: number): Promise<void> => {
    for (let i = 0; i < writes; i++) {
      const body = Buffer.from(randomWrite());
      const answer = await routes({ method: 'POST', url: '/api/graphql', headers, body: bufferedBody(body) });
      if (answer.status !== 200 || answer.body?.includes('"errors"')) failed++;
    }
  };
  const perWriter = Math.ceil(Number(values.writes) / WRITERS);
  await Promise.all(Array.from({ length: WRITERS }, () => writer(Math.ceil(perWriter / 4)))); // warm-up
  for (let round = 1; round <= Number(values.rounds); round++) {
    const bytes = store.logBytes;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, () => writer(perWriter)));
    const used = process.cpuUsage(cpu);
    const writes = perWriter * WRITERS;
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `round ${round}: ${fmt((used.user + used.system) / writes, 1)} µs CPU per write ` +
        `(user ${fmt(used.user / writes, 1)}), ${fmt(writes / seconds)} writes/s, ` +
        `${fmt((store.logBytes - bytes) / writes)} log bytes per write, ${failed} failed`,
    );
  }
  await store.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
