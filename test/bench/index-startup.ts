// `npx tsx test/bench/index-startup.ts --data DIR [--root CHECKOUT]... [--rounds 2] [--cpu-prof DIR]`: the 100,000-dataset
// start-up figures of the search index alone, for checkouts side by side (A B A B): spawn → first answer,
// spawn → first search answered (the index complete), the server's CPU seconds by then (every thread),
// and RSS 3 s later (as the bench measures it) and 10 s later. Through tsx, on every core; the data directory is only read.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { bannerOf, cpuSeconds, fmt, memoryMb, ROOT, stop } from './harness.ts';
import { waitForIndex } from './search-bench.ts';

const { values: options } = parseArgs({
  options: {
    data: { type: 'string' },
    root: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '2' },
    'cpu-prof': { type: 'string' },
  },
});
if (options.data === undefined) throw new Error('--data DIR: a data directory of bench datasets');
const roots = (options.root ?? [ROOT]).map((root) => resolve(root));

async function once(root: string, dataDir: string): Promise<string> {
  const started = performance.now();
  const profile =
    options['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', resolve(options['cpu-prof'])];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--data', dataDir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    let out = '';
    const banner = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        const found = bannerOf((out += chunk.toString()));
        if (found !== null) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    while ((await fetch(`${banner.url}/health`).catch(() => null))?.status !== 200)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const ms = performance.now() - started;
    const cpuAtAnswer = cpuSeconds(child.pid!);
    await waitForIndex(banner);
    const indexMs = performance.now() - started;
    const cpu = cpuSeconds(child.pid!);
    const peak = memoryMb(child.pid!, 'VmHWM');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const settled = memoryMb(child.pid!, 'VmRSS');
    await new Promise((resolve) => setTimeout(resolve, 7000));
    const later = memoryMb(child.pid!, 'VmRSS');
    return (
      `first answer ${fmt(ms)} ms (${fmt(cpuAtAnswer, 1)} CPU-s), index complete ${fmt(indexMs)} ms ` +
      `(${fmt(cpu, 1)} CPU-s, ${fmt(cpu - cpuAtAnswer, 1)} after the first answer), peak RSS ${fmt(peak)} MB, settled ${fmt(settled)} MB (10 s after: ${fmt(later)} MB)`
    );
  } finally {
    await stop(child);
  }
}

for (let round = 0; round < Number(options.rounds); round++)
  for (const root of roots) console.log(`${root}: ${await once(root, resolve(options.data))}`);
