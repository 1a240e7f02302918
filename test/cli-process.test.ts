// The minihub process keeps the promises test/cli-failures.test.ts checks through the command line's core:
// exit 2 for usage and 1 for a failure, one line on stderr and no stack unless --debug, and everything
// written to a pipe before it exits. Each command here runs as a process of its own.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { assertOneLineFailure, ingestedSample, runCli, runCliProcess } from './fixtures/cli.ts';
import { tempDataDir } from './fixtures/server.ts';

const asProcess = suite("the minihub process keeps the core's promises");

asProcess(
  'exits 2 on a usage error and 1 on a failure, each one line with no stack; --debug adds the stack',
  async () => {
    const empty = tempDataDir();
    const dataDir = await ingestedSample();
    // The export's failure has a cause with a stack of its own (a MinihubError for a user's mistake has none).
    const [usage, failure, debug] = await Promise.all([
      runCliProcess(['token', 'revoke', '--data', empty]),
      runCliProcess(['export', '--data', dataDir, '--out', empty]),
      runCliProcess(['export', '--data', dataDir, '--out', empty, '--debug']),
    ]);
    assertOneLineFailure(
      usage,
      2,
      /^minihub: token revoke needs the ID of a token; .* \(run "minihub token --help" for usage\)$/,
    );
    assertOneLineFailure(failure, 1, /^minihub: cannot write .*: it is a directory$/);
    assert.is(debug.code, 1);
    const [first, ...rest] = debug.stderr.trimEnd().split('\n');
    assert.is(first, failure.stderr.trimEnd(), 'the same one line comes first');
    assert.ok(
      rest.some((line) => /^\s+at /.test(line)),
      debug.stderr,
    );
    assert.ok(
      rest.some((line) => /EISDIR/.test(line)),
      'the cause is shown too',
    );
    assert.equal(readdirSync(empty), [], 'nothing written');
  },
);

asProcess('writes an export larger than a pipe holds whole to stdout before it exits', async () => {
  const dataDir = tempDataDir();
  const file = join(dataDir, 'tags.json');
  // 400 tags of ~600 bytes each: several times what a pipe buffers. On Linux node writes to a pipe
  // synchronously, so this guards that the whole export arrives, not how the process ends (an early
  // process.exit would pass here too; src/cli.ts sets exitCode for the platforms where pipes are async).
  const tags = Array.from({ length: 400 }, (_, i) => ({
    entityType: 'tag',
    entityUrn: `urn:li:tag:t${i}`,
    changeType: 'UPSERT',
    aspectName: 'tagProperties',
    aspect: { json: { name: `t${i}`, description: `tag ${i} `.repeat(60) } },
  }));
  writeFileSync(file, JSON.stringify(tags));
  const ingested = await runCli(['ingest', file, '--data', dataDir]);
  assert.is(ingested.code, 0, ingested.stderr);
  const exported = await runCliProcess(['export', '--data', dataDir]);
  assert.is(exported.code, 0, exported.stderr);
  assert.ok(exported.stdout.length > 256 * 1024, `${exported.stdout.length} bytes`);
  assert.is((JSON.parse(exported.stdout) as unknown[]).length, 400);
  assert.match(exported.stderr, /^exported 400 aspects of 400 entities to stdout \(tag 400\)\n$/);
});

asProcess.run();
