// Two checkouts' GraphQL search answered in one process, alternated in batches of 300: CPU µs per search of
// each and their ratio, and a digest of each one's answers. On a shared machine runs in separate processes
// drift by tens of percent; batches alternated in one process see the same load. Not part of `npm run bench`.
// Usage: tsx test/bench/search-ab.ts ROOT_A DIR_A ROOT_B DIR_B [WORDS] (each DIR a copy search-load.ts made)

import { createHash } from 'node:crypto';

import { seededSearchBodies } from './search-bench.ts';
import { searchCheckout, type SearchCheckout } from './search-checkout.ts';

const [rootA, dirA, rootB, dirB, wordsArg] = process.argv.slice(2);
if (dirB === undefined) throw new Error('usage: search-ab.ts ROOT_A DIR_A ROOT_B DIR_B [WORDS]');
const words = Number(wordsArg ?? 1);

const bodies = seededSearchBodies(3000, words); // the same bodies as search-in-process.ts's

// Each checkout over its own copy of the catalogue (each locks its directory).
const sides: SearchCheckout[] = [await searchCheckout(rootA!, dirA!), await searchCheckout(rootB!, dirB)];
try {
  for (const side of sides) for (let round = 0; round < 2; round++) for (const body of bodies) await side.ask(body);
  const digests = sides.map(() => createHash('sha256'));
  for (const body of bodies) for (const [which, side] of sides.entries()) digests[which]!.update(await side.ask(body));
  const spent = [0, 0];
  const ROUNDS = 4;
  for (let round = 0; round < ROUNDS; round++)
    for (let start = 0; start < bodies.length; start += 300) {
      const order = (round + start / 300) % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const started = process.cpuUsage();
        for (const body of bodies.slice(start, start + 300)) await sides[which]!.ask(body);
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
  for (const side of sides) await side.close();
}
