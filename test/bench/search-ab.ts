// Two checkouts' GraphQL search answered in one process, alternated in batches of 300: CPU µs per search of
// each and their ratio, and a digest of each one's answers. On a shared machine runs in separate processes
// drift by tens of percent; batches alternated in one process see the same load. Not part of `npm run bench`.
// Usage: tsx test/bench/search-ab.ts ROOT_A DIR_A ROOT_B DIR_B [WORDS] (each DIR a copy search-load.ts made)

import { createHash, type Hash } from 'node:crypto';

import { searchCheckout, type SearchCheckout } from './search-checkout.ts';

const [rootA, dirA, rootB, dirB, wordsArg] = process.argv.slice(2);
if (dirB === undefined) throw new Error('usage: search-ab.ts ROOT_A DIR_A ROOT_B DIR_B [WORDS]');
const words = Number(wordsArg ?? 1);

/** One checkout over its own copy, asked a body; its answer joins `digest` when one is given. */
async function side(root: string, dir: string) {
  const checkout: SearchCheckout = await searchCheckout(root, dir);
  const ask = async (body: string, digest: Hash | null): Promise<void> => {
    const answer = await checkout.ask(body);
    digest?.update(answer);
  };
  return { checkout, ask };
}

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
  await a.checkout.close();
  await b.checkout.close();
}
