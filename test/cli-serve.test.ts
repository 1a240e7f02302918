// The command line as a separate process, part one: serve's banner and its curl command, the README's
// curl commands as printed, the lock between processes, users and their roles.
// (Part two, cli.test.ts, holds tokens, ingest, help and errors; the split lets them run side by side.)

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { assertOneLineFailure, ME, post, ROOT, runCli, spawnServe } from './fixtures/cli.ts';
import { SAMPLE, tempDataDir } from './fixtures/server.ts';

const shell = promisify(execFile);

/** The curl commands of the README's code blocks, continuation lines joined. */
function readmeCurlCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  return blocks.filter((block) => block.startsWith('curl ')).map((block) => block.replace(/\\\n\s*/g, ' ').trim());
}

const serve = suite('minihub serve');

serve('prints a stable first line with the bound port, a token and a curl command that works as printed', async () => {
  const dataDir = tempDataDir();
  const server = await spawnServe(['--port', '0', '--data', dataDir, '--seed', SAMPLE]);
  try {
    assert.match(server.banner.split('\n')[0] as string, /^minihub listening on http:\/\/127\.0\.0\.1:\d+$/);
    assert.not.match(server.url, /:0$/);
    const curl = /^ {2}try {5}(curl .*)$/m.exec(server.banner)?.[1];
    assert.ok(curl !== undefined, server.banner);
    const { stdout } = await shell('bash', ['-c', curl]);
    const reply = JSON.parse(stdout);
    assert.is(reply.errors, undefined);
    assert.match(reply.data.dataset.properties.description, /One row per order/);
  } finally {
    assert.is(await server.stop('SIGTERM'), 0, 'SIGTERM closes cleanly with exit code 0');
  }
  assert.not.ok(existsSync(join(dataDir, 'minihub.lock')), 'the lock is released');
});

serve('names a lasting-token command that works as printed once the server has stopped', async () => {
  const dataDir = tempDataDir();
  const server = await spawnServe(['--port', '0', '--data', dataDir, '--quiet']);
  await server.stop('SIGTERM');
  const hint =
    /Lasting tokens: stop the server, then run "(npx minihub|npx tsx src\/cli\.ts) (token create [^"]+)"\./.exec(
      server.banner,
    );
  assert.ok(hint !== null, server.banner);
  // A compiled CLI is what an installed package runs, through its bin; the sources run through tsx.
  assert.is(hint[1], process.env.MINIHUB_TEST_CLI === undefined ? 'npx tsx src/cli.ts' : 'npx minihub');
  assert.is(hint[2], `token create --user datahub --data ${dataDir}`);
  const created = await runCli((hint[2] as string).split(' '));
  assert.is(created.code, 0, created.stderr);
  const token = /eyJ\S+/.exec(created.stdout)?.[0] as string;
  const next = await spawnServe(['--port', '0', '--data', dataDir, '--quiet']);
  try {
    const reply = await post(next.url, ME, token);
    assert.is(reply.json.data?.me?.corpUser?.username, 'datahub');
  } finally {
    await next.stop();
  }
});

serve("runs the README's curl commands as printed against the sample", async () => {
  const commands = readmeCurlCommands();
  assert.ok(commands.length >= 5, `found ${commands.length} curl commands`);
  const server = await spawnServe(['--port', '0', '--memory', '--seed', SAMPLE, '--quiet']);
  const token = /^ {10}(eyJ\S+)$/m.exec(server.banner)?.[1] as string;
  try {
    for (const command of commands) {
      const { stdout } = await shell('bash', ['-c', command.replaceAll('http://127.0.0.1:8080', server.url)], {
        env: { ...process.env, TOKEN: token },
      });
      const reply = JSON.parse(stdout);
      assert.is(reply.errors, undefined, `${command}\n${stdout}`);
      assert.ok(reply.data !== null && typeof reply.data === 'object', command);
    }
    // The final read-back command shows what the earlier ones wrote.
    const last = JSON.parse(
      (
        await shell('bash', ['-c', (commands.at(-1) as string).replaceAll('http://127.0.0.1:8080', server.url)], {
          env: { ...process.env, TOKEN: token },
        })
      ).stdout,
    );
    assert.is(
      last.data.dataset.properties.description,
      '## Orders\nOne row per order.\n\n* paid orders only\n* amounts in EUR',
    );
    assert.is(last.data.dataset.schemaMetadata.fields[0].description, 'Order number, unique per shop.');
    assert.is(last.data.tag.properties.name, 'Deprecated');
  } finally {
    assert.is(await server.stop('SIGINT'), 0);
  }
});

serve(
  "runs the README's REST commands as printed: a proposal written, then read back by its full record name",
  async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```sh\n# DataHub's REST protocol\n([\s\S]*?)```/g)][0]?.[1];
    assert.ok(block !== undefined, "the README has a block of DataHub's REST protocol");
    const [write, read] = block
      .replace(/\\\n\s*/g, ' ')
      .trim()
      .split('\n');
    const server = await spawnServe(['--port', '0', '--memory', '--seed', SAMPLE, '--quiet']);
    const token = /^ {10}(eyJ\S+)$/m.exec(server.banner)?.[1] as string;
    const run = async (command: string) =>
      JSON.parse(
        (
          await shell('bash', ['-c', command.replaceAll('http://127.0.0.1:8080', server.url)], {
            env: { ...process.env, TOKEN: token },
          })
        ).stdout,
      );
    try {
      assert.equal(await run(write as string), { value: 'success' });
      const aspect = await run(read as string);
      assert.is(aspect.version, 0);
      assert.is(aspect.aspect['com.linkedin.dataset.DatasetProperties'].description, 'One row per refund.');
    } finally {
      assert.is(await server.stop('SIGINT'), 0);
    }
  },
);

serve(
  "runs the README's fixture-over-HTTP commands as printed: reset, snapshot to a file, restore from it",
  async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```sh\n# The fixture over HTTP\n([\s\S]*?)```/g)][0]?.[1];
    assert.ok(block !== undefined, 'the README has a block for the fixture over HTTP');
    const [reset, snapshot, restore] = block
      .replace(/\\\n\s*/g, ' ')
      .trim()
      .split('\n');
    const server = await spawnServe(['--port', '0', '--memory', '--seed', SAMPLE, '--quiet']);
    const token = /^ {10}(eyJ\S+)$/m.exec(server.banner)?.[1] as string;
    const cwd = tempDataDir();
    const run = async (command: string) =>
      (
        await shell('bash', ['-c', command.replaceAll('http://127.0.0.1:8080', server.url)], {
          cwd,
          env: { ...process.env, TOKEN: token },
        })
      ).stdout;
    try {
      assert.match(await run(reset as string), /"reset":true/);
      await run(snapshot as string);
      const written = JSON.parse(readFileSync(join(cwd, 'snapshot.json'), 'utf8')) as unknown[];
      assert.ok(written.length > 10, `the snapshot holds the sample's records (${written.length})`);
      assert.match(await run(restore as string), /"restored":true/);
    } finally {
      assert.is(await server.stop('SIGINT'), 0);
    }
  },
);

serve('says in the banner when auth is off and answers without a token', async () => {
  const server = await spawnServe(['--port', '0', '--memory', '--no-auth']);
  try {
    assert.match(server.banner, /auth {4}OFF/);
    const reply = await post(server.url, ME);
    assert.is(reply.json.data.me.corpUser.username, 'datahub');
  } finally {
    await server.stop();
  }
});

serve('refuses a second server on the same data directory, naming the owner pid', async () => {
  const dataDir = tempDataDir();
  const first = await spawnServe(['--port', '0', '--data', dataDir]);
  try {
    const second = await runCli(['serve', '--port', '0', '--data', dataDir]);
    assert.is(second.code, 1);
    const pid = readFileSync(join(dataDir, 'minihub.lock'), 'utf8').split('\n')[0];
    assert.match(second.stderr, new RegExp(`in use by minihub process ${pid}`));
  } finally {
    await first.stop();
  }
});

serve('refuses a port in use in one line naming the port and the fix, with no stack', async () => {
  // Any process may hold the port; a bare TCP listener stands in for it.
  const other = createNetServer();
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const { port } = other.address() as AddressInfo;
  try {
    const result = await runCli(['serve', '--port', String(port), '--memory']);
    assertOneLineFailure(
      result,
      1,
      new RegExp(
        `^minihub: port ${port} on 127\\.0\\.0\\.1 is already in use by another process; .*--port N.* or stop the other process$`,
      ),
    );
    assert.not.match(result.stderr, /DataHub/, 'the DataHub hint is for 8080 only');
  } finally {
    await new Promise((resolve) => other.close(resolve));
  }
  const { listenError } = await import('../src/http/listen-error.ts');
  const on8080 = listenError(
    Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }),
    8080,
    '127.0.0.1',
  ) as Error;
  assert.match(on8080.message, /port 8080 .*8080 is also DataHub's own port/);
});

serve.run();

// ---

const user = suite('minihub user');

user('adds users with a role, lists them, and changes or removes a role', async () => {
  const dataDir = tempDataDir();
  const added = await runCli(['user', 'add', 'dave', '--role', 'editor', '--data', dataDir, '--create']);
  assert.is(added.code, 0, added.stderr);
  assert.is(added.stdout, 'added user dave with role Editor\n');
  assert.match(
    (await runCli(['user', 'list', '--data', dataDir])).stdout,
    /^datahub\s+Admin\s*$[\s\S]*^dave\s+Editor\s+dave$/m,
  );
  assert.is((await runCli(['user', 'role', 'dave', 'none', '--data', dataDir])).stdout, 'user dave now has no role\n');
  assert.match((await runCli(['user', 'list', '--data', dataDir])).stdout, /^dave\s+-\s+dave$/m);
  // An unknown role is refused before the directory is opened, so it need not wait its turn.
  const [again, badRole] = await Promise.all([
    runCli(['user', 'add', 'dave', '--data', dataDir]),
    runCli(['user', 'add', 'erin', '--role', 'Owner', '--data', dataDir]),
  ]);
  assert.is(again.code, 1);
  assert.match(again.stderr, /user "dave" already exists/);
  assert.match(badRole.stderr, /unknown role "Owner"; expected Admin, Editor, Reader or none/);
  assert.match((await runCli(['user', 'role', 'datahub', 'Reader', '--data', dataDir])).stderr, /always Admin/);
});

user('gives a user added from the CLI the privileges of its role', async () => {
  const dataDir = tempDataDir();
  assert.is((await runCli(['user', 'add', 'erin', '--role', 'Reader', '--data', dataDir, '--create'])).code, 0);
  const token = (await runCli(['token', 'create', '--user', 'erin', '--data', dataDir])).stdout.trim();
  const server = await spawnServe(['--port', '0', '--data', dataDir, '--quiet']);
  try {
    const denied = await post(
      server.url,
      JSON.stringify({ query: 'mutation { createTag(input: {id: "x", name: "x"}) }' }),
      token,
    );
    assert.is(denied.json.errors[0].extensions.code, 403);
  } finally {
    await server.stop();
  }
  await runCli(['user', 'role', 'erin', 'Editor', '--data', dataDir]);
  const again = await spawnServe(['--port', '0', '--data', dataDir, '--quiet']);
  try {
    const allowed = await post(
      again.url,
      JSON.stringify({ query: 'mutation { createTag(input: {id: "x", name: "x"}) }' }),
      token,
    );
    assert.equal(allowed.json.data, { createTag: 'urn:li:tag:x' });
  } finally {
    await again.stop();
  }
});

user.run();
