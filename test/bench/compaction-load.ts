// A compaction of a large log of column edits under the bench's mixed load, for `npm run bench` and
// `compaction.ts mixed`: the log is made once (prepareEditLog), each measure runs on a copy of it. The
// server (compaction-server.ts) is pinned to core 0, the load to core 1. Measures only; asserts nothing.

import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { editFieldDescription } from '../../src/resolvers/edits.ts';
import { Store } from '../../src/store/store.ts';
import { COLUMNS, mixedBody } from './bodies.ts';
import { columnPath } from './catalogue-words.ts';
import { datasetUrn, writeCatalogueFiles } from './catalogue.ts';
import { load, NODE_FLAGS, pin, ROOT, runSampled, type Measured, type Served } from './harness.ts';
import { waitForIndex } from './search-bench.ts';
import { RUNNERS } from './startup.ts';

export const LOG = 'catalogue.jsonl';

/** One column edit of a random bench dataset, as `updateDescription` commits it (without GraphQL). */
export function randomEdit(store: Store, datasets: number, count: number): Promise<unknown> {
  const index = Math.floor(Math.random() * datasets);
  const urn = datasetUrn(index);
  const path = columnPath(index, Math.floor(Math.random() * COLUMNS));
  return store.commit('updateDescription', 'urn:li:corpuser:datahub', (reader) => [
    editFieldDescription(reader, urn, path, `edited ${count} ${'x'.repeat(count % 40)}`),
  ]);
}

/** Ingests `datasets` bench datasets x 20 columns into `dir`/data, then column edits until its log holds `mib` MiB. */
export async function prepareEditLog(
  dir: string,
  datasets: number,
  mib: number,
): Promise<{ mib: number; edits: number }> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = await writeCatalogueFiles(dir, datasets, COLUMNS);
  await runSampled([...RUNNERS.tsx, 'ingest', ...files, '--data', join(dir, 'data')]);
  for (const file of files) rmSync(file);
  const store = await Store.open({ dataDir: join(dir, 'data'), autoCompact: false });
  const target = mib * 1024 * 1024;
  let edits = 0;
  const writer = async () => {
    while (store.logBytes < target) await randomEdit(store, datasets, ++edits);
  };
  await Promise.all(Array.from({ length: 32 }, writer));
  await store.close();
  return { mib: statSync(join(dir, 'data', LOG)).size / 2 ** 20, edits };
}

/** A copy of the prepared data directory's log in a fresh directory, to measure on. */
export function copyOfLog(dir: string): string {
  const target = mkdtempSync(join(tmpdir(), 'minihub-compaction-run-'));
  copyFileSync(join(dir, 'data', LOG), join(target, LOG));
  return target;
}

export interface CompactionLoadOptions {
  datasets: number;
  seconds: number;
  /** Only watch the event loop for as long, compacting nothing. */
  baseline?: boolean;
  /** Where the server's --trace-gc lines go. */
  gcLog?: string;
  nodeFlags?: string[];
  /** Told each step, for a progress line. */
  onStep?: (step: string) => void;
}

export interface CompactionLoadReport extends Measured {
  indexMs: number;
  /** What compaction-server.ts reported: the compaction's time, sizes, event-loop delay and commits meanwhile. */
  server: Record<string, number | string>;
}

/**
 * Serves a copy of `dir`'s log, waits for its search index, then drives the mixed load for `seconds` and
 * compacts from its first second. The copy is removed afterwards.
 */
export async function compactionUnderLoad(dir: string, options: CompactionLoadOptions): Promise<CompactionLoadReport> {
  const dataDir = copyOfLog(dir);
  const { gcLog } = options;
  const child = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      ...(gcLog === undefined ? [] : ['--trace-gc']),
      ...(options.nodeFlags ?? []),
      '--import',
      'tsx',
      'test/bench/compaction-server.ts',
      dataDir,
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  pin(child.pid as number, 0);
  pin(process.pid, 1);
  let reported: Promise<Record<string, number | string>> | undefined;
  try {
    // The server's own lines; V8's --trace-gc lines (`[pid:isolate] ms: ...`) go to the gc log instead.
    const lines = (async function* () {
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        if (gcLog !== undefined && /^\[\d+:0x/.test(line)) appendFileSync(gcLog, `${line}\n`);
        else yield line;
      }
    })();
    const url = /^listening (\S+)$/.exec(String((await lines.next()).value))?.[1];
    if (url === undefined) throw new Error('the compaction server did not start (see its output above)');
    const served: Served = { url, token: '', child };
    // A server just started builds its search index meanwhile (in slices of its own): measure compaction alone.
    options.onStep?.('waiting for the search index');
    const indexMs = await waitForIndex(served);
    options.onStep?.('warming up');
    await load(served, () => mixedBody(options.datasets), { connections: 32, duration: 3 });
    reported = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (child.stdin?.writable !== true) throw new Error('the compaction server stopped before the compaction');
      child.stdin.write(options.baseline === true ? `watch ${options.seconds * 1000 - 1000}\n` : 'compact\n');
      return JSON.parse(String((await lines.next()).value)) as Record<string, number | string>;
    })();
    // Awaited below; a load that fails first must not leave it rejected unhandled.
    reported.catch(() => {});
    options.onStep?.(options.baseline === true ? 'measuring, no compaction' : 'measuring, compacting');
    const measured = await load(served, () => mixedBody(options.datasets), {
      connections: 32,
      duration: options.seconds,
    });
    return { ...measured, indexMs, server: await reported };
  } finally {
    // The server exits once its input ends; one that has not within 10 s is stopped.
    const exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(null);
      else child.once('exit', resolve);
    });
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGTERM'), 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
