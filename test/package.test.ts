// The npm package as a stranger gets it: `npm pack` (which builds dist/ through prepack), installed
// into a fresh project, then the CLI and the library used from there under plain node, no tsx.
// `npm test` packs once for the whole run and names the tarball in MINIHUB_TEST_PACKAGE.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from './fixtures/cli.ts';
import { tempDataDir } from './fixtures/server.ts';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const pack = suite<{ project: string }>('the packed package');

/** The tarball `npm test` packed (test/fixtures/parallel.mjs), else one packed here, or undefined. */
async function tarball(): Promise<string | undefined> {
  const packed = process.env.MINIHUB_TEST_PACKAGE;
  if (packed !== undefined) return existsSync(packed) ? packed : undefined;
  const out = tempDataDir();
  await run(NPM, ['pack', '--pack-destination', out, '--silent'], { cwd: ROOT });
  const file = readdirSync(out).find((name) => name.endsWith('.tgz'));
  return file === undefined ? undefined : join(out, file);
}

pack.before(async (context) => {
  const packed = await tarball();
  assert.ok(packed !== undefined, 'npm pack made a tarball');
  const project = tempDataDir();
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
  );
  // --prefer-offline: graphql comes from npm's cache when it is there, else from the registry.
  await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--silent', packed], { cwd: project });
  context.project = project;
});

pack('runs the minihub command under plain node: --version and --help', async ({ project }) => {
  const bin = join(project, 'node_modules', '.bin', 'minihub');
  const version = await run(bin, ['--version'], { cwd: project });
  const { version: expected } = (await import('../package.json', { with: { type: 'json' } })).default as {
    version: string;
  };
  assert.is(version.stdout, `${expected}\n`);
  const help = await run(bin, ['serve', '--help'], { cwd: project });
  assert.match(help.stdout, /Usage: minihub serve/);
});

pack('ships the license of graphql-js, whose code its build bundles', ({ project }) => {
  const license = readFileSync(join(project, 'node_modules', 'minihub', 'dist', 'LICENSE-graphql-js.txt'), 'utf8');
  assert.match(license, /^MIT License/);
  assert.match(license, /GraphQL Contributors/);
});

pack('serves from the installed package, GraphiQL assets included', async ({ project }) => {
  const child = spawn(
    join(project, 'node_modules', '.bin', 'minihub'),
    ['serve', '--port', '0', '--memory', '--seed', 'node_modules/minihub/data/sample-catalogue.json', '--quiet'],
    { cwd: project },
  );
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /^minihub listening on (\S+)$/m.exec(out);
        if (match !== null && /^ {2}try /m.test(out)) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    assert.is((await fetch(`${url}/health`)).status, 200);
    const page = await fetch(`${url}/api/graphiql`);
    assert.is(page.status, 200);
    assert.match(await page.text(), /graphiql/i);
    // A memory catalogue has no key of its own to sign a lasting token with, so the banner points elsewhere.
    assert.match(out, /Lasting tokens need a data directory: serve with --data DIR instead of --memory\./);
  } finally {
    child.kill('SIGTERM');
  }
});

pack('imports startServer from "minihub" with its type declarations, and answers a query', async ({ project }) => {
  writeFileSync(
    join(project, 'use.mjs'),
    `import { startServer } from 'minihub';
const hub = await startServer({ seed: ['node_modules/minihub/data/sample-catalogue.json'] });
const response = await fetch(hub.graphqlUrl, {
  method: 'POST',
  headers: { Authorization: 'Bearer ' + hub.token, 'Content-Type': 'application/json' },
  body: JSON.stringify({ query: '{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)") { properties { description } } }' }),
});
console.log(JSON.stringify(await response.json()));
await hub.close();
`,
  );
  const used = await run(process.execPath, ['use.mjs'], { cwd: project });
  assert.match(JSON.parse(used.stdout).data.dataset.properties.description, /One row per order/);
  // The declarations type-check a consumer's code against the package.
  writeFileSync(
    join(project, 'use.ts'),
    `import { startServer, type RunningServer } from 'minihub';\nconst hub: RunningServer = await startServer({ port: 0 });\nawait hub.close();\n`,
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['use.ts'],
    }),
  );
  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
    cwd: project,
  });
});

pack("runs the README's test example unchanged from the installed package", async ({ project }) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /^## Use it in your tests\n[\s\S]*?```ts\n([\s\S]*?)```/m.exec(readme)?.[1];
  assert.ok(example !== undefined, 'README has a "## Use it in your tests" section with a ts block');
  // The example is plain JavaScript apart from its file name; uvu comes from this checkout, as a
  // consumer's own devDependency would.
  writeFileSync(join(project, 'example.test.mjs'), example);
  symlinkSync(join(ROOT, 'node_modules', 'uvu'), join(project, 'node_modules', 'uvu'));
  const ran = await run(process.execPath, ['example.test.mjs'], {
    cwd: project,
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  assert.match(ran.stdout, /Passed:\s+1\b/);
  assert.match(ran.stdout, /Total:\s+1\b/);
});

pack.run();
