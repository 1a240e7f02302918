// Two checkouts' GraphQL search answered in one process, alternated in batches of 300: CPU µs per search of
// each and their ratio, and a digest of each one's answers. On a shared machine runs in separate processes
// drift by tens of percent; batches alternated in one process see the same load. Not part of `npm run bench`.
// Usage: tsx test/bench/search-ab.ts ROOT_A DIR_A ROOT_B DIR_B [WORDS] (each DIR a copy search-load.ts made)

import { createHash, type Hash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Routes = ReturnType<typeof import('../../src/http/routes.ts').createRoutes>;

const [rootA, dirA, rootB, dirB, wordsArg] = process.argv.slice(2);
if (dirB === undefined) throw new Error('usage: search-ab.ts ROOT_A DIR_A ROOT_B DIR_B [WORDS]');
const words = Number(wordsArg ?? 1);
const from = <T>(root: string, path: string): Promise<T> =>
  import(pathToFileURL(resolve(root, path)).href) as Promise<T>;

/** One checkout's routes over its own copy: each checkout's modules load apart, with their own state. */
async function side(root: string, dir: string) {
  const { TokenService } = await from<typeof import('../../src/auth/tokens.ts')>(root, 'src/auth/tokens.ts');
  const { loadSigningKey } = await from<typeof import('../../src/auth/signing-key.ts')>(
    root,
    'src/auth/signing-key.ts',
  );
  const { bufferedBody } = await from<typeof import('../../src/http/body.ts')>(root, 'src/http/body.ts');
  const { createRoutes } = await from<typeof import('../../src/http/routes.ts')>(root, 'src/http/routes.ts');
  const { resolveLimits } = await from<typeof import('../../src/limits.ts')>(root, 'src/limits.ts');
  const { Store } = await from<typeof import('../../src/store/store.ts')>(root, 'src/store/store.ts');
  const dataDir = join(dir, 'data');
  const store = await Store.open({ dataDir });
  const routes: Routes = createRoutes({
    store,
    tokens: new TokenService(loadSigningKey(dataDir), store),
    auth: false,
    limits: resolveLimits({}),
    version: 'bench',
    resetToSeed: () => Promise.resolve(),
    logError: (error) => console.error(error),
  });
  const ask = async (body: string, digest: Hash | null): Promise<void> => {
    const headers = { 'content-type': 'application/json' };
    const answer = await routes({
      method: 'POST',
      url: '/api/graphql',
      headers,
      body: bufferedBody(Buffer.from(body)),
    });
    digest?.update(answer.body?.toString('utf8') ?? '');
  };
  return { store, ask };
}

await from(rootA!, 'src/cli/production-mode.ts');
const { seededSearchBodies } = await import('./search-bench.ts');
const bodies = seededSearchBodies(3000, words); // the same bodies as search-in-process.ts's

const a = await side(rootA!, dirA!);
const b = await side(rootB!, dirB);
try {
  for (const one of [a, b])
    for (let round = 0; round < 2; round++) for (const body of bodies) await one.ask(body, null);
  const digests = [createHash('sha256'), createHash('sha256')] as const;
  for (const body of bodies) {
    await a.ask(body, digests[0]);
    await b.ask(body, digests[1]);
  }
  const spent = [0, 0];
  const ROUNDS = 4;
  for (let round = 0; round < ROUNDS; round++)
    for (let start = 0; start < bodies.length; start += 300) {
      const order = (round + start / 300) % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const started = process.cpuUsage();
        for (const body of bodies.slice(start, start + 300)) await [a, b][which]!.ask(body, null);
        const used = process.cpuUsage(started);
        spent[which]! += used.user + used.system;
      }
    }
  const per = spent.map((total) => total / (ROUNDS * bodies.length));
  console.log(
    `${words} word(s): A ${per[0]!.toFixed(1)} µs, B ${per[1]!.toFixed(1)} µs CPU per search, B/A ` +
      `${(per[1]! / per[0]!).toFixed(3)}; answers ${digests.map((digest) => digest.digest('hex').slice(0, 16)).join(' ')}`,
  );
} finally {
  await a.store.close();
  await b.store.close();
}
