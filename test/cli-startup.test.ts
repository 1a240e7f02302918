// The command line loads only what the command it runs needs: help and --version load no command,
// no command but serve loads graphql-js or the HTTP layer, and serve only once its options are checked. Each CLI child runs under a module
// resolve hook that writes down every module it loads; the test reads that list.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Not fixtures/server.ts: it loads the whole server into this process, which needs none of it.
import { runCliProcess, type CliResult } from './fixtures/cli.ts';
import { TEST_TMP } from './fixtures/temp-root.ts';

const SAMPLE = fileURLToPath(new URL('../data/sample-catalogue.json', import.meta.url));

// Registered through NODE_OPTIONS, before tsx's hook, so it sees what tsx resolves too. The hook itself
// runs on the loader thread, which shares the environment.
const HOOK = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
  import { appendFileSync } from 'node:fs';
  export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    appendFileSync(process.env.MINIHUB_TEST_MODULE_LOG, resolved.url + '\\\\n');
    return resolved;
  }
\`));
`;

// graphql-js, the HTTP layer (src/http) and node:http. A file of the bundled build counts as the modules it
// holds, named as in the sources (bundledSources), so one pattern serves the sources and the build.
const SERVER_MODULES = /\/node_modules\/graphql\/|\/src\/http\/|^node:https?$/;
// A command's own module: src/cli/serve.ts or a src/cli/*-command.ts.
const COMMAND_MODULE = /\/src\/cli\/(serve|[a-z]+-command)\.ts$/;

const startup = suite('minihub startup');
let dir = '';
let hook = '';
let runs = 0;

startup.before(() => {
  dir = mkdtempSync(join(TEST_TMP, 'minihub-test-'));
  hook = join(dir, 'module-log-hook.mjs');
  writeFileSync(hook, HOOK);
});

startup.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI and returns what it printed and every module it loaded. */
async function runLogged(args: string[]): Promise<CliResult & { modules: string[] }> {
  const log = join(dir, `modules-${++runs}.log`);
  writeFileSync(log, '');
  const options = `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`.trim();
  const result = await runCliProcess(args, { NODE_OPTIONS: options, MINIHUB_TEST_MODULE_LOG: log });
  const loaded = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url !== '');
  return { ...result, modules: [...new Set(loaded.flatMap((url) => [url, ...bundledSources(url)]))] };
}

/**
 * The modules a file of the bundled build holds, as URLs beside dist/ (`file:///.../src/http/routes.ts`,
 * `file:///.../node_modules/graphql/language/parser.mjs`), read from the `// src/...` or `// node_modules/...`
 * line esbuild writes before each module's code: loading the file runs them.
 */
function bundledSources(url: string): string[] {
  const bundle = /^(file:\/\/.*\/)dist\/[^/]+\.js$/.exec(url);
  if (bundle === null) return [];
  let sources = bundleContents.get(url);
  if (sources === undefined) {
    const text = readFileSync(fileURLToPath(url), 'utf8');
    sources = [...text.matchAll(/^\/\/ ((?:src|node_modules)\/\S+\.m?[jt]s)$/gm)].map(
      (match) => `${bundle[1]}${match[1]}`,
    );
    bundleContents.set(url, sources);
  }
  return sources;
}

// Each bundled file read once: every run loads the same few.
const bundleContents = new Map<string, string[]>();

function assertNoneLoaded(run: { modules: string[] }, pattern: RegExp, what: string): void {
  const loaded = run.modules.filter((url) => pattern.test(url));
  assert.equal(loaded, [], `${what} loads none of these`);
}

startup('the log sees what serve loads: graphql-js and the HTTP layer', async () => {
  // Guards the checks below: a hook that saw nothing, or patterns that no longer match, would pass them.
  // A start that fails only once it tries to listen has loaded the whole server.
  const serve = await runLogged(['serve', '--port', '0', '--memory', '--host', 'no.such.host.invalid']);
  assert.is(serve.code, 1, serve.stderr);
  assert.match(serve.stderr, /cannot listen on host "no\.such\.host\.invalid"/);
  assert.ok(
    serve.modules.some((url) => /\/node_modules\/graphql\//.test(url)),
    'graphql-js is seen',
  );
  assert.ok(
    serve.modules.some((url) => /\/src\/http\//.test(url)),
    'the HTTP layer is seen',
  );
  assert.ok(
    serve.modules.some((url) => COMMAND_MODULE.test(url)),
    'serve.ts is seen',
  );
});

startup('--version and --help load no command module', async () => {
  const [version, help] = await Promise.all([runLogged(['--version']), runLogged(['--help'])]);
  assert.is(version.code, 0, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  // The log saw these runs too: an empty log would pass every check below.
  for (const run of [version, help])
    assert.ok(
      run.modules.some((url) => /\/cli\.(ts|js)$/.test(url)),
      'cli itself is in the log',
    );
  assertNoneLoaded(version, COMMAND_MODULE, '--version');
  assertNoneLoaded(version, SERVER_MODULES, '--version');
  assert.is(help.code, 0, help.stderr);
  assert.match(help.stdout, /^minihub: a local metadata catalogue/);
  assertNoneLoaded(help, COMMAND_MODULE, '--help');
  assertNoneLoaded(help, SERVER_MODULES, '--help');
});

startup('serve checks its options before loading the server: --help and a bad option load no graphql-js', async () => {
  const [help, badPort] = await Promise.all([runLogged(['serve', '--help']), runLogged(['serve', '--port', 'eighty'])]);
  assert.is(help.code, 0, help.stderr);
  assert.match(help.stdout, /Usage: minihub serve/);
  assertNoneLoaded(help, SERVER_MODULES, 'serve --help');
  assert.is(badPort.code, 2, badPort.stderr);
  assert.match(badPort.stderr, /eighty/);
  assertNoneLoaded(badPort, SERVER_MODULES, 'serve --port eighty');
});

startup('token, user, ingest, export and compact never load graphql-js or the HTTP layer', async () => {
  // Real runs, not --help: whatever a command loads on its way, the log sees.
  const dataDir = join(dir, 'data');
  const ingest = await runLogged(['ingest', SAMPLE, '--data', dataDir]);
  assert.is(ingest.code, 0, ingest.stderr);
  const [token, user, exported] = await Promise.all([
    runLogged(['token', 'list', '--data', dataDir]),
    runLogged(['user', 'list', '--data', dataDir]),
    runLogged(['export', '--data', dataDir, '--out', join(dir, 'export.json')]),
  ]);
  // After the others: compact needs the directory's lock, which they hold while they read.
  const compact = await runLogged(['compact', '--data', dataDir]);
  const byCommand = { ingest, token, user, export: exported, compact };
  for (const [command, run] of Object.entries(byCommand)) {
    assert.is(run.code, 0, `${command}: ${run.stderr}`);
    assert.ok(
      run.modules.some((url) => url.endsWith(`/src/cli/${command}-command.ts`)),
      `${command}'s own module is in the log`,
    );
    assertNoneLoaded(run, SERVER_MODULES, command);
  }
});

startup.run();
