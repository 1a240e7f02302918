// The command line, part two: tokens, ingest, compaction, help and usage errors. Commands run in this
// process through the core; serve, and what only a process shows, run as processes.
// (Part one, cli-serve.test.ts, holds serve, the README's curl commands and users.)

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseRole, ROOT_USER, setRoleChanges } from '../src/auth/users.ts';
import { Store } from '../src/store/store.ts';
import { corpUserUrn } from '../src/urn.ts';
import {
  assertOneLineFailure,
  ingestedSample,
  ME,
  post,
  ROOT,
  runCli,
  runCliProcess,
  spawnServe,
  type CliResult,
} from './fixtures/cli.ts';
import { BOOTSTRAP, bootstrapAvailable, SAMPLE, tempDataDir } from './fixtures/server.ts';

const token = suite('minihub token create');

token('prints only a token that a later server accepts, and stores only its hash', async () => {
  const dataDir = await ingestedSample();
  const created = await runCli([
    'token',
    'create',
    '--user',
    'alice',
    '--name',
    'ci',
    '--expires',
    '1h',
    '--data',
    dataDir,
  ]);
  assert.is(created.code, 0, created.stderr);
  assert.match(created.stdout, /^eyJ[\w-]+\.[\w-]+\.[\w-]+\n$/);
  const issued = created.stdout.trim();
  assert.not.ok(readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8').includes(issued));
  const server = await spawnServe(['--port', '0', '--data', dataDir]);
  try {
    const reply = await post(server.url, ME, issued);
    assert.is(reply.json.data.me.corpUser.username, 'alice');
    assert.not.ok(server.banner.includes(issued) || server.stderr().includes(issued));
  } finally {
    await server.stop();
  }
});

token('refuses a user that does not exist, and bad arguments', async () => {
  const dataDir = tempDataDir();
  // The two usage errors are refused before the data directory is opened, so the three may run at once.
  const [unknown, noUser, badExpiry] = await Promise.all([
    runCli(['token', 'create', '--user', 'nobody', '--data', dataDir, '--create']),
    runCli(['token', 'create', '--data', dataDir]),
    runCli(['token', 'create', '--user', 'datahub', '--expires', 'soon', '--data', dataDir]),
  ]);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /no user "nobody"/);
  assert.is(unknown.stdout, '');
  assert.is(noUser.code, 2);
  assert.match(noUser.stderr, /needs --user/);
  assert.is(badExpiry.code, 2);
  assert.match(badExpiry.stderr, /--expires soon is not a lifetime/);
});

token('sets the lifetime --expires asks for (the expiry itself is tested through the library)', async () => {
  const dataDir = tempDataDir();
  const created = await runCli([
    'token',
    'create',
    '--user',
    'datahub',
    '--name',
    'short',
    '--expires',
    '90s',
    '--data',
    dataDir,
    '--create',
  ]);
  assert.is(created.code, 0, created.stderr);
  // Stored to the millisecond: the expiry is counted from the creation time itself, not a moment later.
  const stored = readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8');
  const info = /"createdAt":(\d+),"expiresAt":(\d+)/.exec(stored);
  assert.ok(info !== null, stored);
  assert.is(Number(info[2]) - Number(info[1]), 90_000);
  await runCli(['token', 'create', '--user', 'datahub', '--name', 'forever', '--expires', 'never', '--data', dataDir]);
  const listed = (await runCli(['token', 'list', '--data', dataDir])).stdout;
  const short = /^\S+\s+datahub\s+short\s+(\S+)\s+(\S+)$/m.exec(listed);
  assert.ok(short !== null, listed);
  assert.is(Date.parse(short[2] as string) - Date.parse(short[1] as string), 90_000);
  assert.match(listed, /^\S+\s+datahub\s+forever\s+\S+\s+never$/m);
});

token('lists and revokes tokens; a revoked token answers 401; no token is ever written in the clear', async () => {
  const dataDir = await ingestedSample();
  const cliToken = (
    await runCli(['token', 'create', '--user', 'bob', '--name', 'bob cli', '--data', dataDir])
  ).stdout.trim();
  const listed = await runCli(['token', 'list', '--user', 'bob', '--data', dataDir]);
  assert.is(listed.code, 0, listed.stderr);
  const row = listed.stdout.split('\n')[1] as string;
  assert.match(row, /^\S+\s+bob\s+bob cli\s+\d{4}-/);
  const id = row.split(/\s+/)[0] as string;
  assert.not.ok(listed.stdout.includes(cliToken));

  // A server with request logging on: tokens are used, and one is made over GraphQL.
  const first = await spawnServe(['--port', '0', '--data', dataDir]);
  const root = /^ {10}(eyJ\S+)$/m.exec(first.banner)?.[1] as string;
  assert.is((await post(first.url, ME, cliToken)).json.data.me.corpUser.username, 'bob');
  const made = await post(
    first.url,
    JSON.stringify({
      query:
        'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:carol", duration: ONE_DAY, name: "gql"}) { accessToken } }',
    }),
    root,
  );
  const gqlToken = made.json.data.createAccessToken.accessToken as string;
  assert.is((await post(first.url, ME, gqlToken)).json.data.me.corpUser.username, 'carol');
  await first.stop();
  const firstOutput = first.stdout() + first.stderr();

  const revoked = await runCli(['token', 'revoke', id, '--data', dataDir]);
  assert.is(revoked.code, 0, revoked.stderr);
  assert.is(revoked.stdout, `revoked ${id}\n`);
  assert.is((await runCli(['token', 'revoke', id, '--data', dataDir])).code, 1, 'a second revoke names the unknown id');

  const second = await spawnServe(['--port', '0', '--data', dataDir]);
  try {
    const refused = await post(second.url, ME, cliToken);
    assert.is(refused.status, 401);
    assert.is(refused.json.errors[0].extensions.reason, 'revoked');
    assert.is((await post(second.url, ME, gqlToken)).status, 200);
  } finally {
    await second.stop();
  }
  const output = firstOutput + second.stdout() + second.stderr();
  assert.match(output, /POST \/api\/graphql 200/, 'request lines were logged');
  const { readdirSync } = await import('node:fs');
  for (const secret of [cliToken, gqlToken]) {
    assert.not.ok(output.includes(secret), 'no token in the server output');
    for (const file of readdirSync(dataDir))
      assert.not.ok(readFileSync(join(dataDir, file), 'utf8').includes(secret), `no token in ${file}`);
  }
});

token.run();

// ---

const ingest = suite('minihub ingest');

ingest('reports counts per file and writes nothing the second time', async () => {
  const dataDir = tempDataDir();
  const first = await runCli(['ingest', SAMPLE, '--data', dataDir]);
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /46 records, 54 aspects written, 0 unchanged, 0 rejected \(.*dataset 5/);
  assert.is(first.stderr, '', 'no progress lines for a small file');
  const second = await runCli(['ingest', SAMPLE, '--data', dataDir]);
  assert.match(second.stdout, /0 aspects written, 54 unchanged/);
  assert.is(readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8').trim().split('\n').length, 1);
});

// Registered only with DataHub's file beside the project, so npm test counts it as skipped, not passed.
if (bootstrapAvailable('ingest of bootstrap_mce.json')) {
  ingest('ingests bootstrap_mce.json with no record rejected', async () => {
    const result = await runCli(['ingest', BOOTSTRAP, '--data', tempDataDir()]);
    assert.is(result.code, 0, result.stderr);
    assert.match(result.stdout, /103 records, \d+ aspects written, 0 unchanged, 0 rejected/);
  });
}

ingest('names rejected records, keeps the good ones and exits 1', async () => {
  const dataDir = tempDataDir();
  const file = join(dataDir, 'mixed.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    file,
    [
      JSON.stringify({
        entityType: 'tag',
        entityUrn: 'urn:li:tag:good',
        changeType: 'UPSERT',
        aspectName: 'tagProperties',
        aspect: { json: { name: 'good' } },
      }),
      JSON.stringify({
        entityType: 'tag',
        entityUrn: 'not a urn',
        changeType: 'UPSERT',
        aspectName: 'tagProperties',
        aspect: { json: { name: 'bad' } },
      }),
    ].join('\n'),
  );
  const result = await runCli(['ingest', file, '--data', dataDir]);
  assert.is(result.code, 1);
  assert.match(result.stdout, /2 records, 1 aspect written, 0 unchanged, 1 rejected/);
  assert.match(result.stderr, /record 2: .*not a urn/);
  assert.match(result.stderr, /^minihub: 1 record was rejected; the others were ingested$/m);
});

ingest('fails clearly on a missing file', async () => {
  const result = await runCli(['ingest', 'no/such/file.json', '--data', tempDataDir()]);
  assert.is(result.code, 1);
  assert.match(result.stderr, /cannot read no\/such\/file\.json: no such file/);
});

ingest('compacts a data directory from the command line, keeping its state', async () => {
  const dataDir = await ingestedSample();
  // Four records to compact away, committed as `minihub user role bob ROLE` commits them.
  const store = await Store.open({ dataDir });
  try {
    for (const role of ['Reader', 'Editor', 'Reader', 'Editor']) {
      await store.commit('setRole', corpUserUrn(ROOT_USER), (reader) => setRoleChanges(reader, 'bob', parseRole(role)));
    }
  } finally {
    await store.close();
  }
  const before = readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8').trim().split('\n').length;
  assert.is(before, 5);
  const result = await runCli(['compact', '--data', dataDir]);
  assert.is(result.code, 0, result.stderr);
  // The sample's ingest record carries tags and links, so it is kept as the one record of change history.
  assert.match(result.stdout, /^compacted: \d+ → \d+ bytes, 18 entities in 1 record, plus 1 of change history\n$/);
  assert.match((await runCli(['user', 'list', '--data', dataDir])).stdout, /^bob\s+Editor/m);
});

ingest.run();

// ---

const usage = suite('help and usage errors');

usage("prints help for --help and each command's --help, in no colour even when colour is forced", async () => {
  const commands = [
    ['--help'],
    ['serve', '--help'],
    ['ingest', '--help'],
    ['export', '--help'],
    ['token', '--help'],
    ['user', '--help'],
    ['compact', '--help'],
    ['serve', '-h'],
    ['token', 'create', '--help'],
  ];
  // FORCE_COLOR=1 would make node's own inspection colour its output; minihub must print plain text anyway.
  const results = await Promise.all(
    [...commands, ['serv'], ['ingest', 'no/such/file.json', '--data', tempDataDir()]].map((args) =>
      runCli(args, { FORCE_COLOR: '1' }),
    ),
  );
  results.slice(0, commands.length).forEach((result, i) => {
    assert.is(result.code, 0, commands[i]?.join(' '));
    assert.match(result.stdout, /Usage/);
  });
  // Node colours what it prints itself only in a process that starts with FORCE_COLOR: help, a usage error
  // and a failure, as processes.
  const processes = await Promise.all(
    [['--help'], ['serv'], ['ingest', 'no/such/file.json', '--data', tempDataDir()]].map((args) =>
      runCliProcess(args, { FORCE_COLOR: '1' }),
    ),
  );
  assert.equal(
    processes.map((result) => result.code),
    [0, 2, 1],
  );
  assert.is(processes[0]?.stdout, results[0]?.stdout, 'the process prints the same help');
  for (const result of [...results, ...processes])
    assert.not.match(result.stdout + result.stderr, /\x1b\[/, 'no ANSI escape codes');
  const main = results[0]?.stdout ?? '';
  assert.match(main, /^Exit codes: 0 success, 1 failure .*, 2 usage error\.$/m);
  assert.match(main, /MINIHUB_PORT, MINIHUB_HOST, MINIHUB_DATA/);
});

usage(
  'takes the port and host from MINIHUB_PORT and MINIHUB_HOST over PORT and HOST, and names a bad one',
  async () => {
    const [badOwn, badPlain, server] = await Promise.all([
      runCli(['serve', '--memory'], { MINIHUB_PORT: 'eighty', PORT: '0' }),
      runCli(['serve', '--memory'], { PORT: '99999' }),
      // PORT and HOST would fail to bind: the server starting at all shows MINIHUB_* won.
      spawnServe(['--memory', '--quiet'], {
        MINIHUB_PORT: '0',
        PORT: 'not-a-port',
        MINIHUB_HOST: '127.0.0.1',
        HOST: 'no.such.host.invalid',
      }),
    ]);
    try {
      assert.is(badOwn.code, 2);
      assert.match(
        badOwn.stderr,
        /^minihub: MINIHUB_PORT=eighty is not a port; expected 0 to 65535 \(run "minihub serve --help" for usage\)$/m,
      );
      assert.is(badPlain.code, 2);
      assert.match(badPlain.stderr, /PORT=99999 is not a port/);
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    } finally {
      assert.is(await server.stop(), 0);
    }
    const { hostOf, parsePort } = await import('../src/cli/options.ts');
    assert.is(parsePort('7000', { MINIHUB_PORT: '7001', PORT: '7002' }), 7000, 'the flag wins');
    assert.is(parsePort(undefined, { PORT: '7002' }), 7002, 'PORT still works alone');
    assert.is(hostOf(undefined, { HOST: '0.0.0.0' }), '0.0.0.0', 'HOST still works alone');
    assert.is(hostOf(undefined, {}), '127.0.0.1');
  },
);

usage("reports a long ingest's progress at most once a second, and never at the end", async () => {
  const { ingestProgress } = await import('../src/cli/progress.ts');
  let clock = 10_000;
  const lines: string[] = [];
  const report = ingestProgress(
    'big.json',
    8 * 1024 * 1024,
    (line) => lines.push(line),
    () => clock,
  );
  report({ records: 5000, aspectsDone: 0, aspectsTotal: 8000 });
  clock += 999;
  report({ records: 5000, aspectsDone: 2000, aspectsTotal: 8000 });
  assert.equal(lines, [], 'nothing in the first second');
  clock += 1;
  report({ records: 5000, aspectsDone: 4000, aspectsTotal: 8000 });
  assert.equal(lines, ['  big.json: 4000 of 8000 aspects (50%) from 5000 records, 4.0 MB/s\n']);
  clock += 500;
  report({ records: 5000, aspectsDone: 6000, aspectsTotal: 8000 });
  clock += 5000;
  report({ records: 5000, aspectsDone: 8000, aspectsTotal: 8000 });
  assert.is(lines.length, 1, 'none within a second of the last, none once done: the summary follows');
});

usage('says when a slow parse is done, rather than reporting 0 MB/s', async () => {
  const { ingestProgress } = await import('../src/cli/progress.ts');
  let clock = 10_000;
  const lines: string[] = [];
  const report = ingestProgress(
    'big.json',
    8 * 1024 * 1024,
    (line) => lines.push(line),
    () => clock,
  );
  clock += 2500;
  report({ records: 5000, aspectsDone: 0, aspectsTotal: 8000 });
  assert.equal(lines, ['  big.json: read 5000 records in 2.5 s; writing 8000 aspects\n']);
});

usage('prints the version from package.json', async () => {
  const result = await runCli(['--version']);
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.is(result.stdout, `${version}\n`);
});

usage('exits 2 with one line naming an unknown command or option', async () => {
  const [command, option] = await Promise.all([runCli(['serv']), runCli(['serve', '--prot', '1'])]);
  assert.is(command.code, 2);
  assert.match(command.stderr, /unknown command "serv"/);
  assert.is(option.code, 2);
  assert.match(option.stderr, /Unknown option '--prot'/);
});

usage('a name every object has (toString, __proto__) is an unknown command too, not a crash', async () => {
  const results = await Promise.all(['toString', '__proto__'].map((name) => runCli([name])));
  for (const [index, name] of ['toString', '__proto__'].entries()) {
    assertOneLineFailure(results[index] as CliResult, 2, new RegExp(`^minihub: unknown command "${name}"`));
  }
});

usage.run();
