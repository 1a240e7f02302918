// The command line's failures as a user sees them: one line on stderr naming the input and the fix, exit 1
// (2 for usage), no stack unless --debug, and nothing created on disk by a mistyped --data. Also the refusal
// to replace a lost signing key that stored tokens depend on. Commands run in this process through the core,
// serve as a process; test/cli-process.test.ts holds the process itself to the same promises.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { assertOneLineFailure, ingestedSample, ME, post, runCli, spawnServe } from './fixtures/cli.ts';
import { SAMPLE, tempDataDir } from './fixtures/server.ts';

const start = suite('serve start-up failures');

start('a --data that is a file, or lies under a file, is named in one line and nothing is made', async () => {
  const dir = tempDataDir();
  const file = join(dir, 'catalogue-file');
  writeFileSync(file, 'not a directory\n');
  const [isFile, underFile] = await Promise.all([
    runCli(['serve', '--port', '0', '--data', file]),
    runCli(['serve', '--port', '0', '--data', join(file, 'sub', 'dir')]),
  ]);
  assertOneLineFailure(
    isFile,
    1,
    /^minihub: data directory ".*catalogue-file" is a file, not a directory; choose another with --data/,
  );
  assertOneLineFailure(
    underFile,
    1,
    /^minihub: data directory ".*catalogue-file\/sub\/dir" cannot be made: ".*catalogue-file" on its path is a file/,
  );
  assert.is(readFileSync(file, 'utf8'), 'not a directory\n', 'the file is left alone');
  assert.equal(readdirSync(dir), ['catalogue-file']);
});

start('a --data where no directory can be made fails at once, not in an endless loop', async () => {
  // Node 20's recursive mkdir spins forever when a parent answers ENOENT, as /proc does.
  if (!existsSync('/proc/self')) {
    console.log('skipped the /proc data directory: no /proc on this system');
    return;
  }
  const result = await runCli(['serve', '--port', '0', '--data', '/proc/minihub-test/data']);
  assertOneLineFailure(
    result,
    1,
    /^minihub: data directory "\/proc\/minihub-test\/data" cannot be made: its parent directory does not take new directories \(ENOENT\)/,
  );
});

start("a host that does not resolve or is not this machine's is named in one line", async () => {
  const [unknown, foreign] = await Promise.all([
    runCli(['serve', '--port', '0', '--memory', '--host', 'no.such.host.invalid']),
    // 192.0.2.1 is reserved for documentation (RFC 5737): no machine has it.
    runCli(['serve', '--port', '0', '--memory', '--host', '192.0.2.1']),
  ]);
  assertOneLineFailure(
    unknown,
    1,
    /^minihub: cannot listen on host "no\.such\.host\.invalid": no such host name \(\w+\); use 127\.0\.0\.1/,
  );
  assertOneLineFailure(
    foreign,
    1,
    /^minihub: cannot listen on 192\.0\.2\.1:0: "192\.0\.2\.1" is not an address of this machine; .*--host/,
  );
});

start('a full disk at start is one line naming the file and saying to free space', async () => {
  if (!existsSync('/dev/full')) {
    console.log('skipped the full-disk start: no /dev/full on this system');
    return;
  }
  // Every write to /dev/full fails with ENOSPC: the new signing key is written through this link.
  const dataDir = tempDataDir();
  writeFileSync(join(dataDir, 'catalogue.jsonl'), '');
  symlinkSync('/dev/full', join(dataDir, 'signing.key.new'));
  const result = await runCli(['serve', '--port', '0', '--data', dataDir]);
  assertOneLineFailure(
    result,
    1,
    /^minihub: cannot write a new signing key to .*signing\.key: the disk is full \(ENOSPC\); free some space and start again$/,
  );
  assert.not.ok(existsSync(join(dataDir, 'signing.key')));
});

start('--debug adds the stack after the one line, and is accepted anywhere on the line', async () => {
  const dir = tempDataDir();
  const file = join(dir, 'file');
  writeFileSync(file, '');
  const result = await runCli(['--debug', 'serve', '--port', '0', '--data', file]);
  assert.is(result.code, 1);
  const [first, ...rest] = result.stderr.trimEnd().split('\n');
  assert.match(first as string, /^minihub: data directory ".*file" is a file/);
  assert.ok(
    rest.some((line) => /^\s+at /.test(line)),
    result.stderr,
  );
  assert.ok(
    rest.some((line) => /EEXIST/.test(line)),
    'the cause is shown too',
  );
});

start('turns an unexpected error into one line, and names the fix for a system error', async () => {
  const { describeFailure } = await import('../src/cli/failure.ts');
  const unexpected = describeFailure(new RangeError('Invalid string length\n    at JSON.stringify'));
  assert.equal(unexpected, {
    line: 'unexpected error: Invalid string length at JSON.stringify (run again with --debug for the stack)',
    code: 1,
  });
  const full = describeFailure(
    Object.assign(new Error("ENOSPC: no space left on device, open 'data/x'"), { code: 'ENOSPC' }),
  );
  assert.equal(full, {
    line: "ENOSPC: no space left on device, open 'data/x'; the disk is full: free some space and try again",
    code: 1,
  });
  assert.is(describeFailure('x'.repeat(5000)).line.length < 500, true, 'a huge message is cut');
  // The lock is the first file a start writes, so on a full disk that is where it fails: named, with the fix.
  const { dataDirectoryError } = await import('../src/store/data-dir.ts');
  const lockFailed = dataDirectoryError(
    'data',
    Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    'cannot be used',
  );
  assert.is(
    describeFailure(lockFailed).line,
    'data directory "data" cannot be used: the disk is full (ENOSPC); free some space, or choose another with --data (dataDir in the library)',
  );
  const unknownError = new Error('EIO');
  assert.is(
    dataDirectoryError('data', unknownError, 'cannot be used'),
    unknownError,
    'an error without advice is passed on unchanged',
  );
});

start('a failed export is one line naming the --out it could not write', async () => {
  const dataDir = await ingestedSample();
  const file = join(dataDir, 'a-file');
  writeFileSync(file, '');
  const [directory, underFile] = await Promise.all([
    runCli(['export', '--data', dataDir, '--out', dataDir]),
    runCli(['export', '--data', dataDir, '--out', join(file, 'out.json')]),
  ]);
  assertOneLineFailure(directory, 1, /^minihub: cannot write .*: it is a directory/);
  assertOneLineFailure(underFile, 1, /^minihub: .*a-file\/\S*out\.json.*not a directory/);
});

start.run();

// ---

const data = suite('a data directory that does not exist or holds no catalogue');

data('token, user and compact refuse it, naming it, and create nothing', async () => {
  const parent = tempDataDir();
  const missing = join(parent, 'typo');
  // One check (with-store.ts) serves every command; one of each kind shows each is wired to it.
  const commands = [['token', 'list'], ['token', 'create', '--user', 'datahub'], ['user', 'add', 'dave'], ['compact']];
  const empty = tempDataDir();
  // All six at once: each directory is only read, and the two directories are apart.
  const [results, [list, users]] = await Promise.all([
    Promise.all(commands.map((args) => runCli([...args, '--data', missing]))),
    Promise.all([runCli(['token', 'list', '--data', empty]), runCli(['user', 'list', '--data', empty])]),
  ]);
  results.forEach((result, i) => {
    const offer = commands[i]?.[0] === 'compact' ? '' : ', or add --create';
    assertOneLineFailure(
      result,
      1,
      new RegExp(
        `^minihub: data directory ".*typo" does not exist; check --data \\(or MINIHUB_DATA\\); "minihub serve" or "minihub ingest" makes one${offer}$`,
      ),
    );
  });
  assert.equal(readdirSync(parent), [], 'nothing created');

  assertOneLineFailure(
    list,
    1,
    /^minihub: data directory ".*" holds no catalogue \(no catalogue\.jsonl\); check --data/,
  );
  assertOneLineFailure(users, 1, /holds no catalogue/);
  assert.equal(readdirSync(empty), [], 'no catalogue.jsonl or signing.key left behind');
});

data('a --data that is a file is named as one, with no offer to create it there', async () => {
  const file = join(tempDataDir(), 'a-file');
  writeFileSync(file, 'x');
  const result = await runCli(['token', 'list', '--data', file]);
  assertOneLineFailure(
    result,
    1,
    /^minihub: ".*a-file" is a file, not a data directory; check --data \(or MINIHUB_DATA\)$/,
  );
});

data(
  'a command on a directory with an unfinished seed goes on, but warns that its catalogue may be partial',
  async () => {
    const dataDir = await ingestedSample();
    writeFileSync(join(dataDir, 'seed-in-progress.json'), '{"seeds": []}\n');
    const listed = await runCli(['user', 'list', '--data', dataDir]);
    assert.is(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^alice\s/m);
    assert.match(
      listed.stderr,
      /^minihub: ".*" holds a seed that was never completed \(seed-in-progress\.json\): its catalogue may be partial; "minihub serve --seed" with the same files completes it\n$/,
    );
  },
);

data('--create makes one for token and user; ingest and serve make one by themselves', async () => {
  const parent = tempDataDir();
  const made = join(parent, 'new', 'dir');
  // Three directories apart from each other: the three commands that make them run at once.
  const [added, listed, ingested] = await Promise.all([
    runCli(['user', 'add', 'dave', '--role', 'Editor', '--data', made, '--create']),
    runCli(['token', 'list', '--data', join(parent, 'other'), '--create']),
    runCli(['ingest', SAMPLE, '--data', join(parent, 'ingested')]),
  ]);
  assert.is(added.code, 0, added.stderr);
  assert.ok(existsSync(join(made, 'catalogue.jsonl')));
  assert.is(listed.stdout, 'no access tokens\n', listed.stderr);
  assert.not.ok(existsSync(join(parent, 'other', 'signing.key')), 'listing tokens never makes a key');
  assert.is(ingested.code, 0, ingested.stderr);
  assert.match((await runCli(['user', 'list', '--data', join(parent, 'ingested')])).stdout, /^alice\s/m);
});

data.run();

// ---

const usage = suite('usage errors name what is missing or conflicting');

usage('a missing argument or a bad --expires says what is expected, in one line, exit 2', async () => {
  const dataDir = tempDataDir();
  const [revoke, revokeTwo, add, role, weeks, unknown, extra] = await Promise.all([
    runCli(['token', 'revoke', '--data', dataDir]),
    runCli(['token', 'revoke', 'a', 'b', '--data', dataDir]),
    runCli(['user', 'add', '--data', dataDir]),
    runCli(['user', 'role', 'dave', '--data', dataDir]),
    runCli(['token', 'create', '--user', 'datahub', '--expires', '3', 'weeks', '--data', dataDir]),
    runCli(['token', 'rotate', '--data', dataDir]),
    runCli(['token', 'create', 'weeks', '--user', 'datahub', '--data', dataDir]),
  ]);
  // The hint names the command's own help.
  const help = (command: string) => ` \\(run "minihub ${command} --help" for usage\\)$`;
  assertOneLineFailure(
    revoke,
    2,
    new RegExp(`^minihub: token revoke needs the ID of a token; "minihub token list" shows them${help('token')}`),
  );
  assertOneLineFailure(revokeTwo, 2, /^minihub: token revoke takes one ID, got 2: "a b"/);
  assertOneLineFailure(add, 2, new RegExp(`^minihub: user add needs NAME: user add NAME${help('user')}`));
  assertOneLineFailure(role, 2, /^minihub: user role needs ROLE: user role NAME ROLE/);
  assertOneLineFailure(
    weeks,
    2,
    /^minihub: --expires 3 is not a lifetime; --expires takes 90s, 15m, 1h, 30d \(a number with s, m, h or d\) or never/,
  );
  assertOneLineFailure(unknown, 2, /^minihub: unknown token command "rotate"; expected create, list or revoke ID/);
  assertOneLineFailure(extra, 2, /^minihub: token create takes no arguments, got "weeks"/);
  assert.equal(readdirSync(dataDir), [], 'usage errors touch nothing');
});

usage('conflicting flags are refused in one line, exit 2, and create nothing', async () => {
  const parent = tempDataDir();
  const dir = join(parent, 'x');
  const [memoryData, memoryKey, bodyTwice, limitTwice, listExpires, revokeUser, listRole] = await Promise.all([
    runCli(['serve', '--memory', '--data', dir, '--port', '0']),
    runCli(['serve', '--memory', '--new-signing-key', '--port', '0']),
    runCli(['serve', '--memory', '--max-body-bytes', '10', '--limit', 'maxBodyBytes=20', '--port', '0']),
    runCli(['serve', '--memory', '--limit', 'maxDepth=5', '--limit', 'maxDepth=50', '--port', '0']),
    runCli(['token', 'list', '--expires', '1h', '--data', dir]),
    runCli(['token', 'revoke', 'abc', '--user', 'bob', '--data', dir]),
    runCli(['user', 'list', '--role', 'Editor', '--data', dir]),
  ]);
  assertOneLineFailure(memoryData, 2, /^minihub: --memory and --data cannot be used together: /);
  assertOneLineFailure(memoryKey, 2, /^minihub: --memory and --new-signing-key cannot be used together/);
  assertOneLineFailure(
    bodyTwice,
    2,
    /^minihub: --max-body-bytes and --limit maxBodyBytes cannot be used together: they set the same limit/,
  );
  assertOneLineFailure(limitTwice, 2, /^minihub: --limit maxDepth is given twice/);
  assertOneLineFailure(
    listExpires,
    2,
    /^minihub: --expires does not apply to "token list"; it takes --user, --data, --create/,
  );
  assertOneLineFailure(revokeUser, 2, /^minihub: --user does not apply to "token revoke"/);
  assertOneLineFailure(listRole, 2, /^minihub: --role does not apply to "user list"/);
  assert.equal(readdirSync(parent), []);
});

usage.run();

// ---

const key = suite('a lost signing key');

key(
  'is refused while stored tokens depend on it, and replaced only when asked; a fresh directory gets one silently',
  async () => {
    const dataDir = await ingestedSample();
    assert.not.ok(existsSync(join(dataDir, 'signing.key')), 'ingest alone makes no key');
    const created = await runCli(['token', 'create', '--user', 'bob', '--data', dataDir]);
    assert.is(created.code, 0, created.stderr);
    assert.is(created.stderr, '', 'the first key is made silently');
    const token = created.stdout.trim();
    rmSync(join(dataDir, 'signing.key'));

    const [refused, createRefused] = await Promise.all([
      runCli(['serve', '--port', '0', '--data', dataDir]),
      runCli(['token', 'create', '--user', 'bob', '--data', dataDir]),
    ]);
    const why =
      /signing\.key is missing, and the catalogue holds 1 access token signed with it\. .*--new-signing-key .*stop working \(401\)/;
    assertOneLineFailure(refused, 1, why);
    assertOneLineFailure(createRefused, 1, why);
    assert.not.ok(existsSync(join(dataDir, 'signing.key')), 'no key made by a refused start');

    const server = await spawnServe(['--port', '0', '--data', dataDir, '--new-signing-key', '--quiet']);
    try {
      assert.ok(existsSync(join(dataDir, 'signing.key')));
      assert.is((await post(server.url, ME, token)).status, 401, 'the old token stopped working, as the message said');
    } finally {
      await server.stop();
    }
  },
);

key('is made silently by serve while no live token needs one (a catalogue made by ingest alone)', async () => {
  const dataDir = await ingestedSample();
  const server = await spawnServe(['--port', '0', '--data', dataDir, '--quiet']);
  await server.stop();
  assert.is(server.stderr().includes('signing'), false, server.stderr());
  assert.ok(existsSync(join(dataDir, 'signing.key')));
});

key.run();
