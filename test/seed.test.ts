// Seeding is completed or refused, never left half done: a seed that stopped midway (a failed write, or
// `serve --seed` killed at a random moment) is completed by the next start with the same seeds, and
// refused, with nothing written, by a start with other seeds or none.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startServer, type ServerOptions } from '../src/index.ts';
import type { JsonValue } from '../src/aspects/json.ts';
import { Store } from '../src/store/store.ts';
import { SEED_MARKER_FILE } from '../src/seeding.ts';
import { datasetUrn, writeCatalogueFiles } from './bench/catalogue.ts';
import { CLI, ROOT, spawnServe } from './fixtures/cli.ts';
import { FaultyFileSystem, type Operation } from './fixtures/faulty-fs.ts';
import { SAMPLE, tempDataDir } from './fixtures/server.ts';

const LOG = 'catalogue.jsonl';

/** `count` tags as DataHub records: with 2,000 aspects per log record, 5,000 make three records. */
function tagRecords(count: number, description = 'seeded'): JsonValue {
  return Array.from({ length: count }, (_, index) => ({
    entityType: 'tag',
    entityUrn: `urn:li:tag:seed-${index}`,
    changeType: 'UPSERT',
    aspectName: 'tagProperties',
    aspect: { json: { name: `seed ${index}`, description } },
  }));
}

/** Fails the `nth` sync of the log with EIO, as a disk might midway through a seed. */
class FailsAtSync extends FaultyFileSystem {
  readonly #nth: number;
  #syncs = 0;
  constructor(nth: number) {
    super();
    this.#nth = nth;
  }
  override check(operation: Operation, path: string) {
    if (operation === 'sync' && ++this.#syncs === this.#nth) this.fail({ operation: 'sync', code: 'EIO' });
    return super.check(operation, path);
  }
}

async function tagsIn(dataDir: string): Promise<number> {
  const store = await Store.open({ dataDir });
  try {
    return [...store.catalogue.urnsOfType('tag')].length;
  } finally {
    await store.close();
  }
}

async function refusedStart(options: ServerOptions): Promise<string> {
  try {
    const hub = await startServer(options);
    await hub.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the start should have been refused');
}

/** A data directory whose first seed of `seed` failed at its second record. */
async function interruptedSeed(seed: JsonValue): Promise<string> {
  const dataDir = tempDataDir();
  const message = await refusedStart({ dataDir, seed: [seed], fileSystem: new FailsAtSync(2) });
  assert.match(message, /EIO/);
  return dataDir;
}

const library = suite('an interrupted seed, through the library');

library('is completed by the next start with the same seeds, as if it had never stopped', async () => {
  const seed = tagRecords(5000);
  const dataDir = await interruptedSeed(seed);
  assert.ok(existsSync(join(dataDir, SEED_MARKER_FILE)), 'the marker stays while the seed is unfinished');
  assert.is(await tagsIn(dataDir), 2000, 'the first record of the seed was durable, the second not');

  const hub = await startServer({ dataDir, seed: [seed] });
  try {
    assert.is(hub.seedResumed, true);
    assert.is(hub.seeded[0]?.written, 3000);
    assert.is(hub.seeded[0]?.unchanged, 2000);
    assert.not.ok(existsSync(join(dataDir, SEED_MARKER_FILE)), 'a completed seed removes the marker');
    const whole = await startServer({ seed: [seed] });
    // The export is the whole catalogue: nothing of the marker shows in it, and nothing is missing.
    assert.equal(hub.store.export(), whole.store.export());
    await whole.close();
  } finally {
    await hub.close();
  }
  const again = await startServer({ dataDir, seed: [seed] });
  assert.is(again.seedResumed, false);
  assert.equal(again.seeded, [], 'a completed seed is skipped from then on');
  await again.close();
});

library('is refused, with nothing written, when the next start has no seeds, other seeds or changed ones', async () => {
  const seed = tagRecords(5000);
  const dataDir = await interruptedSeed(seed);
  const logBefore = readFileSync(join(dataDir, LOG));
  const marker = join(dataDir, SEED_MARKER_FILE);

  const none = await refusedStart({ dataDir });
  assert.match(
    none,
    new RegExp(
      `data directory ${dataDir} holds an unfinished seed of \\(records\\): an earlier start stopped before seeding was done, and this start was given no seed\\.`,
    ),
  );
  assert.ok(
    none.endsWith(
      `Start again with those seeds, unchanged and in that order, to complete it; or delete ${marker} to keep the catalogue as it is`,
    ),
    none,
  );
  assert.match(await refusedStart({ dataDir, seed: [SAMPLE] }), new RegExp(`this start was given ${SAMPLE}\\.`));
  assert.match(
    await refusedStart({ dataDir, seed: [seed, SAMPLE] }),
    /this start was given \(records\), .*sample-catalogue\.json\./,
  );
  assert.match(
    await refusedStart({ dataDir, seed: [tagRecords(5000, 'edited since')] }),
    /\(records\): an earlier start stopped before seeding was done, and their content has changed since\./,
  );
  assert.equal(readFileSync(join(dataDir, LOG)), logBefore, 'a refused start writes nothing');

  // Deleting the marker keeps the catalogue as it is: the seed is then skipped like any other.
  writeFileSync(marker, ''); // not valid JSON: refused, naming the file
  assert.match(await refusedStart({ dataDir, seed: [seed] }), new RegExp(`${marker}: expected \\{"seeds"`));
  rmSync(marker);
  const kept = await startServer({ dataDir, seed: [seed] });
  assert.equal(kept.seeded, []);
  assert.is([...kept.store.catalogue.urnsOfType('tag')].length, 2000);
  await kept.close();
});

library('a seed that completes leaves no marker behind', async () => {
  const dataDir = tempDataDir();
  const hub = await startServer({ dataDir, seed: [SAMPLE] });
  assert.is(hub.seedResumed, false);
  assert.is(hub.seeded.length, 1);
  assert.not.ok(existsSync(join(dataDir, SEED_MARKER_FILE)));
  await hub.close();
});

library.run();

// ---

const killed = suite('serve --seed killed with SIGKILL at a random moment');

const DATASETS = 3000;

killed('the next start with the same seed completes it; one without it refuses in one line', async () => {
  const dataDir = tempDataDir();
  const [seed] = await writeCatalogueFiles(tempDataDir(), DATASETS, 10, DATASETS);
  if (seed === undefined) throw new Error('no seed file written');
  // The log ends up about as big as the seed file; kill once it holds a random share of the first 60%.
  const killAtBytes = Math.floor(Math.random() * 0.6 * statSync(seed).size);
  const marker = join(dataDir, SEED_MARKER_FILE);
  const log = join(dataDir, LOG);
  const child = spawn(
    process.execPath,
    [...CLI, 'serve', '--port', '0', '--data', dataDir, '--seed', seed, '--quiet'],
    { cwd: ROOT, stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('close', resolve));
  let bytesAtKill = 0;
  try {
    for (const started = Date.now(); ;) {
      bytesAtKill = existsSync(log) ? statSync(log).size : 0;
      if (existsSync(marker) && bytesAtKill >= killAtBytes) break;
      if (Date.now() - started > 20_000) throw new Error('the seed never began');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  assert.ok(existsSync(marker), 'killed while seeding');
  const before = await wholeDatasets(dataDir);
  assert.ok(before < DATASETS, `killed before the seed was complete (${before} of ${DATASETS} datasets)`);

  const refused = await serveExpectingRefusal(['--port', '0', '--data', dataDir]);
  assert.is(refused.code, 1);
  assert.match(
    refused.stderr,
    /^minihub: data directory .* holds an unfinished seed of .*catalogue-0\.json: an earlier start stopped before seeding was done, and this start was given no seed\. Start again with those seeds/,
  );
  assert.is(refused.stderr.trim().split('\n').length, 1, refused.stderr);

  const server = await spawnServe(['--port', '0', '--data', dataDir, '--seed', seed, '--quiet']);
  try {
    assert.match(
      server.banner,
      /^ {2}seed {4}resumed: an earlier start stopped while seeding; this one completed the seed$/m,
    );
    assert.match(
      server.banner,
      new RegExp(
        `^ {2}seeded {2}.*catalogue-0\\.json: ${DATASETS * 3} records, \\d+ aspects? written, \\d+ unchanged, 0 rejected \\(dataset ${DATASETS}\\)$`,
        'm',
      ),
    );
    assert.not.match(server.banner, /seed {4}skipped/);
  } finally {
    assert.is(await server.stop(), 0);
  }
  assert.not.ok(existsSync(marker), 'the completed seed removed its marker');
  assert.is(await wholeDatasets(dataDir), DATASETS);
  console.log(
    `seed kill test: killed at ${bytesAtKill} log bytes with ${before} of ${DATASETS} datasets stored; the next start completed the seed`,
  );
});

killed.run();

/** Runs `serve ARGS`, expected to refuse; one that starts after all is stopped, so the test fails instead of hanging. */
function serveExpectingRefusal(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('minihub listening')) child.kill('SIGKILL');
    });
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/** Datasets stored whole: the last aspect each gets (ownership) is there. */
async function wholeDatasets(dataDir: string): Promise<number> {
  const store = await Store.open({ dataDir });
  try {
    let whole = 0;
    for (let index = 0; index < DATASETS; index++)
      if (store.catalogue.aspect(datasetUrn(index), 'ownership') !== undefined) whole++;
    return whole;
  } finally {
    await store.close();
  }
}
