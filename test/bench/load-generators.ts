// Which load generator can drive a server to its core's limit from one core of its own: the bare
// reference server of `npm run bench` loaded by autocannon in this process, autocannon with worker
// threads, and wrk (one and two threads), alternating, each with the server's CPU share. Not part of the bench.
// Usage: tsx test/bench/load-generators.ts [--duration 5] [--rounds 2] [--connections 32]

import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { datasetUrn } from './catalogue.ts';
import { cpuSeconds, fmt, load, log, pin, serve, stop, type Served } from './harness.ts';
import { wrkLoad } from './wrk.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const QUERY = 'query getDataset($urn: String!) { dataset(urn: $urn) { urn } }';
const randomRead = () =>
  JSON.stringify({ query: QUERY, variables: { urn: datasetUrn(Math.floor(Math.random() * 10_000)) } });

interface Run {
  rps: number;
  /** The server's CPU time over the wall time. */
  cpu: number;
  /** CPU µs per request of the server and of the generator (this process and its waited-for children). */
  serverUs: number;
  generatorUs: number;
}

/** This process's CPU seconds with its children's (wrk), from /proc; a machine shared with others inflates neither. */
function generatorSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0) / 100;
}

/**
 * One load: requests per second and CPU costs. Where the generator costs fewer µs per request than the
 * server, each on a core of its own, the server is the limit however busy the machine is.
 */
async function measure(server: Served, run: () => Promise<number>): Promise<Run> {
  const pid = server.child.pid as number;
  const cpuBefore = cpuSeconds(pid);
  const generatorBefore = generatorSeconds();
  const wallBefore = performance.now();
  const rps = await run();
  const wall = (performance.now() - wallBefore) / 1000;
  const requests = rps * DURATION;
  return {
    rps,
    cpu: (cpuSeconds(pid) - cpuBefore) / wall,
    serverUs: ((cpuSeconds(pid) - cpuBefore) * 1e6) / requests,
    generatorUs: ((generatorSeconds() - generatorBefore) * 1e6) / requests,
  };
}

const GENERATORS: Record<string, (server: Served) => Promise<number>> = {
  'autocannon, in process': async (server) =>
    (await load(server, randomRead, { connections: CONNECTIONS, duration: DURATION, generator: 'autocannon' })).rps,
  // Workers take no function for the body: one fixed body, which only helps them.
  'autocannon, 2 workers': async (server) =>
    (
      await autocannon({
        url: `${server.url}/api/graphql`,
        connections: CONNECTIONS,
        duration: DURATION,
        workers: 2,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: randomRead(),
      })
    ).requests.average,
  'wrk, 1 thread': async (server) =>
    (
      await wrkLoad(`${server.url}/api/graphql`, '', randomRead, {
        connections: CONNECTIONS,
        duration: DURATION,
        count: false,
      })
    ).rps,
  'wrk, 2 threads': async (server) =>
    (
      await wrkLoad(`${server.url}/api/graphql`, '', randomRead, {
        connections: CONNECTIONS,
        duration: DURATION,
        threads: 2,
        count: false,
      })
    ).rps,
};

pin(process.pid, 1);
const work = mkdtempSync(join(tmpdir(), 'minihub-loadgen-'));
// About the size of the bench's read answer (a dataset with 20 described columns).
const response = join(work, 'response.json');
writeFileSync(response, JSON.stringify({ data: { dataset: { urn: datasetUrn(1), text: 'x'.repeat(2200) } } }));
const bare = await serve(['test/bench/baselines.ts', 'bare', response]);
try {
  const results = new Map<string, Run[]>();
  for (const run of Object.values(GENERATORS)) await run(bare); // warm-up
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [name, run] of Object.entries(GENERATORS)) {
      const measured = await measure(bare, () => run(bare));
      results.set(name, [...(results.get(name) ?? []), measured]);
      log(
        `  ${name} round ${round}: ${fmt(measured.rps)} req/s, bare server at ${fmt(measured.cpu * 100)}% of its core`,
      );
    }
  }
  for (const [name, runs] of results) {
    const mean = (pick: (run: Run) => number) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
    console.log(
      `${name}: ${fmt(mean((run) => run.rps))} req/s, server CPU ${fmt(mean((run) => run.cpu) * 100)}%, ` +
        `CPU per request: server ${fmt(
          mean((run) => run.serverUs),
          1,
        )} µs, generator ${fmt(
          mean((run) => run.generatorUs),
          1,
        )} µs`,
    );
  }
} finally {
  await stop(bare.child);
  rmSync(work, { recursive: true, force: true });
}
