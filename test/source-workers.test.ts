// The worker threads as `npm start` starts them, from the TypeScript sources through tsx (src/tsx-worker.mjs,
// then each one's module): npm test runs its suites from a compiled copy, whose workers are compiled too,
// so this is where the sources' entry is tried. One child process, run by test/fixtures/source-workers.ts.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';

import { ROOT } from './fixtures/cli.ts';
import { tempDataDir } from './fixtures/server.ts';

function runThroughTsx(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('compaction, the two-thread replay and the search build each run on a worker started from the sources', async () => {
  const { code, stdout, stderr } = await runThroughTsx(['test/fixtures/source-workers.ts', tempDataDir()]);
  assert.is(code, 0, stderr);
  assert.equal(JSON.parse(stdout.trim().split('\n').pop() as string), {
    fromSources: true,
    compactedEntities: 20,
    replayedInWorker: true,
    names: ['edited', 't19 2'],
    searchFound: ['doc:1'],
  });
});

test.run();
