// `npm run vendor:graphiql`: copies the pinned GraphiQL and React browser builds from node_modules
// into public/graphiql/vendor/<name>-<version>/ with their licences, and points index.html at them.
// A development tool: the server never runs it, and it never fetches anything from the network.

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MODULES = join(ROOT, 'node_modules');
const PAGE_DIR = join(ROOT, 'public', 'graphiql');
const VENDOR_DIR = join(PAGE_DIR, 'vendor');

interface Build {
  /** npm package name, and the folder prefix under vendor/. */
  name: string;
  /** Files inside the package copied as they are (same bytes, same base name). */
  files: string[];
}

// The order is the load order in index.html: GraphiQL's UMD build expects window.React and
// window.ReactDOM to exist. No source maps: they are 6 MB, and only a browser's dev tools ask for them.
const BUILDS: Build[] = [
  { name: 'react', files: ['umd/react.production.min.js'] },
  { name: 'react-dom', files: ['umd/react-dom.production.min.js'] },
  { name: 'graphiql', files: ['graphiql.min.js', 'graphiql.min.css'] },
];

interface PackageJson {
  version: string;
  license?: string;
}

/** Where npm put a package: at the top, or nested under the package that needed another version. */
function packageDir(name: string): string | null {
  const places = [
    MODULES,
    join(MODULES, 'graphiql', 'node_modules'),
    join(MODULES, '@graphiql', 'react', 'node_modules'),
  ];
  const found = places.map((place) => join(place, name)).find((dir) => existsSync(join(dir, 'package.json')));
  return found ?? null;
}

function readPackage(name: string): PackageJson | null {
  const dir = packageDir(name);
  return dir === null ? null : (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson);
}

function licenceFile(name: string): string | null {
  const dir = packageDir(name);
  if (dir === null) return null;
  const found = readdirSync(dir).find((file) => /^(licen[cs]e|copying)([-.][\w.-]*)?$/i.test(file));
  return found === undefined ? null : join(dir, found);
}

/** The npm packages webpack bundled into graphiql.min.js, read from the source map's paths. */
function bundledPackages(mapPath: string): string[] {
  const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[] };
  const names = new Set<string>();
  for (const source of map.sources) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
    if (match?.[1] !== undefined && match[1] !== 'react' && match[1] !== 'react-dom') names.add(match[1]);
  }
  return [...names].sort();
}

/**
 * graphiql.min.js carries about fifty npm packages (CodeMirror, graphql-js, markdown-it, ...), all
 * under permissive licences; their notices belong beside it. Versions are those npm installed
 * next to graphiql, which may differ slightly from the ones in the bundle.
 */
function thirdPartyNotice(graphiqlVersion: string): string {
  const mapPath = join(MODULES, 'graphiql', 'graphiql.min.js.map');
  const lines = [
    `Third-party packages bundled in graphiql ${graphiqlVersion}'s graphiql.min.js (from its source map).`,
    'Licence texts are those of the versions npm installed beside graphiql.',
    '',
  ];
  for (const name of bundledPackages(mapPath)) {
    const pkg = readPackage(name);
    const licence = licenceFile(name);
    lines.push(
      '='.repeat(78),
      pkg === null ? name : `${name} ${pkg.version}: ${pkg.license ?? 'no licence field'}`,
      '='.repeat(78),
    );
    if (licence !== null) lines.push(readFileSync(licence, 'utf8').trim(), '');
    else if (pkg !== null)
      lines.push(`(the package declares ${pkg.license ?? 'no licence'} and ships no licence file)`, '');
    else lines.push('(not installed beside graphiql; its licence is in the package on the npm registry)', '');
  }
  return `${lines.join('\n')}\n`;
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
}

function main(): void {
  const copied: string[] = [];
  const folders = new Map<string, string>();
  for (const build of BUILDS) {
    const pkg = readPackage(build.name);
    if (pkg === null) throw new Error(`${build.name} is not installed; run "npm install" first`);
    const folder = `${build.name}-${pkg.version}`;
    folders.set(build.name, folder);
    const target = join(VENDOR_DIR, folder);
    mkdirSync(target, { recursive: true });
    for (const file of build.files) {
      const to = join(target, file.split('/').at(-1) ?? file);
      copyFileSync(join(MODULES, build.name, file), to);
      copied.push(`${folder}/${file.split('/').at(-1)}  sha256:${sha256(to)}`);
    }
    const licence = licenceFile(build.name);
    if (licence === null) throw new Error(`${build.name} ships no LICENSE file`);
    copyFileSync(licence, join(target, 'LICENSE.txt'));
    copied.push(`${folder}/LICENSE.txt  (${pkg.license ?? 'licence'})`);
    if (build.name === 'graphiql') {
      writeFileSync(join(target, 'THIRD-PARTY-LICENSES.txt'), thirdPartyNotice(pkg.version));
      copied.push(`${folder}/THIRD-PARTY-LICENSES.txt`);
    }
  }

  // Older versions go, so only the pinned one is served and committed.
  const current = new Set(folders.values());
  for (const entry of readdirSync(VENDOR_DIR)) {
    if (!current.has(entry)) {
      rmSync(join(VENDOR_DIR, entry), { recursive: true, force: true });
      console.log(`removed   vendor/${entry}`);
    }
  }

  // The version is part of each asset's URL (so a long browser cache is safe); keep the page in step.
  const indexPath = join(PAGE_DIR, 'index.html');
  let html = readFileSync(indexPath, 'utf8');
  for (const [name, folder] of folders) {
    html = html.replace(new RegExp(`/vendor/${name}-\\d[^/]*/`, 'g'), `/vendor/${folder}/`);
  }
  writeFileSync(indexPath, html);

  for (const line of copied) console.log(`copied    vendor/${line}`);
  console.log(`updated   ${indexPath.slice(ROOT.length)} (${[...folders.values()].join(', ')})`);
  console.log(`into      ${VENDOR_DIR.slice(ROOT.length)}; commit it with "git add public/graphiql"`);
}

main();
