// Short A/B runs of the bench's durable writes (32 writers; the reference: group commit without GraphQL)
// or random reads (`--reads`; the reference: the bare server with minihub's answer bytes): minihub of this
// checkout, optionally minihub of another checkout (`--base DIR`), and the reference (baselines.ts),
// alternating (the servers after the reference in reverse order every other round), each minihub on a data
// directory of its own. Prints throughput, the server's CPU µs per answer and the ratio to the reference.
// Not part of `npm run bench`; for measuring changes.
// `--gc` also prints each minihub round's scavenges (its server runs with --trace-gc-nvp; see scavenges.ts).
// `--reads --copies N` adds a second bare server that sends a random one of N copies of the answer.
// `--base-node-flag F` (repeatable) starts the base's server with node flag F too, after the bench's own, so
// `--base . --base-node-flag=--max-semi-space-size=64` measures a flag on the same code.
// Usage: tsx test/bench/ab.ts [--reads [--copies N]] [--base DIR [--base-node-flag F]] [--datasets 10000]
//        [--duration 5] [--rounds 3] [--cpu-prof DIR] [--gc]

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { writeCatalogueFiles } from './catalogue.ts';
import { COLUMNS, randomRead as benchRead, randomWrite as benchWrite } from './bodies.ts';
import { cpuSeconds, fmt, load, log, pin, ROOT, serve, stop, type Served } from './harness.ts';
import { describeScavenges, watchScavenges } from './scavenges.ts';
import { writeSampleAnswer } from './reads-writes.ts';
import { waitForIndex } from './search-bench.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    'base-node-flag': { type: 'string', multiple: true },
    datasets: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'cpu-prof': { type: 'string' },
    reads: { type: 'boolean', default: false },
    gc: { type: 'boolean', default: false },
    copies: { type: 'string' },
  },
});
const READS = values.reads === true;
const GC = values.gc === true;
const DATASETS = Number(values.datasets);
const randomRead = () => benchRead(DATASETS);
const randomWrite = () => benchWrite(DATASETS);

interface Side {
  name: string;
  server: Served;
  /** minihub's scavenges, with --gc. */
  scavenges?: ReturnType<typeof watchScavenges>;
  /** Answers (acknowledged writes, or reads) per second, the server's CPU µs per answer, the p99 in ms. */
  runs: { rate: number; us: number; p99: number }[];
}

pin(process.pid, 1);
const work = mkdtempSync(join(tmpdir(), 'minihub-ab-'));
const sides: Side[] = [];
try {
  const files = await writeCatalogueFiles(work, DATASETS, COLUMNS);
  const data = join(work, 'data');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ingest', ...files, '--data', data], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const profile = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']];
  const minihub = async (name: string, root: string, nodeFlags: string[] = []): Promise<void> => {
    const dir = join(work, name);
    cpSync(data, dir, { recursive: true });
    const server = await serve(
      [join(root, 'src/cli.ts'), 'serve', '--port', '0', '--data', dir, '--quiet'],
      [...nodeFlags, ...profile, ...(GC ? ['--trace-gc-nvp'] : [])],
    );
    sides.push({ name, server, runs: [], ...(GC ? { scavenges: watchScavenges(server.child) } : {}) });
    // As the bench: the search index, built after start, is complete before anything is measured.
    await waitForIndex(server);
  };
  await minihub('minihub', ROOT);
  if (values.base !== undefined) await minihub('minihub (base)', values.base, values['base-node-flag']);
  const response = join(work, 'response.json');
  await writeSampleAnswer((sides[0] as Side).server, response);
  const reference = READS
    ? { name: 'bare', server: await serve(['test/bench/baselines.ts', 'bare', response], profile), runs: [] }
    : {
        name: 'group commit, no GraphQL',
        server: await serve(['test/bench/baselines.ts', 'group', response, join(work, 'group.log')], profile),
        runs: [],
      };
  sides.unshift(reference);
  if (READS && values.copies !== undefined) {
    const copies = await serve(['test/bench/baselines.ts', 'bare', response, values.copies], profile);
    sides.splice(1, 0, { name: `bare, ${values.copies} copies`, server: copies, runs: [] });
  }

  const body = READS ? randomRead : randomWrite;
  const options = { connections: Number(values.connections), countAcknowledged: !READS };
  for (const side of sides) await load(side.server, body, { ...options, duration: 3 });
  for (let round = 1; round <= Number(values.rounds); round++) {
    // The servers after the reference swap places every round: of two minihubs with the same code, the one
    // measured second read about 4% faster (test/bench/NOTES.md), so a fixed order would favour --base.
    const order = round % 2 === 1 ? sides : [sides[0] as Side, ...sides.slice(1).reverse()];
    for (const side of order) {
      const pid = side.server.child.pid as number;
      side.scavenges?.take();
      const before = cpuSeconds(pid);
      const run = await load(side.server, body, { ...options, duration: Number(values.duration) });
      const rate = READS ? run.rps : (run.acknowledged ?? 0);
      const us = ((cpuSeconds(pid) - before) * 1e6) / (rate * Number(values.duration));
      side.runs.push({ rate, us, p99: run.p99 });
      log(
        `  ${side.name} round ${round}: ${fmt(rate)}/s, ${fmt(us, 1)} µs CPU per answer, ` +
          `server at ${fmt(run.cpu * 100)}% of its core, p99 ${fmt(run.p99, 1)} ms, ${run.failures} failed`,
      );
      const scavenges = side.scavenges?.take();
      if (scavenges !== undefined)
        log(`    ${describeScavenges(scavenges, rate * Number(values.duration), Number(values.duration))}`);
    }
  }
  const mean = (side: Side, pick: (run: Side['runs'][number]) => number) =>
    side.runs.reduce((sum, run) => sum + pick(run), 0) / side.runs.length;
  for (const side of sides) {
    const ratio = mean(side, (run) => run.rate) / mean(reference, (run) => run.rate);
    console.log(
      `${side.name}: ${fmt(mean(side, (run) => run.rate))}/s, ${fmt(
        mean(side, (run) => run.us),
        1,
      )} µs CPU ` + `per answer, ratio to the reference ${fmt(ratio, 2)}`,
    );
  }
} finally {
  for (const side of sides) await stop(side.server.child);
  rmSync(work, { recursive: true, force: true });
}
