// GET /api/graphiql without a browser: the page and every asset it names, their headers, the
// vendored builds against the pinned packages, and requests that must find nothing.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';

import { CONTENT_SECURITY_POLICY } from '../src/http/static-files.ts';
import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const VENDOR = `${ROOT}public/graphiql/vendor`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, RegExp> = {
  html: /^text\/html; charset=utf-8$/,
  js: /^text\/javascript; charset=utf-8$/,
  css: /^text\/css; charset=utf-8$/,
  svg: /^image\/svg\+xml$/,
  txt: /^text\/plain; charset=utf-8$/,
};

/** Sends `path` byte for byte: fetch() would resolve `..` before it left. */
function rawRequest(
  hub: TestServer,
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(hub.url);
    const req = httpRequest({ host: url.hostname, port: url.port, method, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every same-origin URL the page loads through src= or href=. */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const page = suite<{ hub: TestServer; html: string }>('GET /api/graphiql');

page.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
page.after(async ({ hub }) => hub?.close());

page('serves the page without a token, as HTML with the CSP, nosniff and no-cache', async (context) => {
  const reply = await context.hub.request('/api/graphiql');
  assert.is(reply.status, 200);
  assert.match(reply.headers.get('content-type') ?? '', TYPES.html ?? /./);
  assert.is(reply.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  assert.is(reply.headers.get('x-content-type-options'), 'nosniff');
  assert.is(reply.headers.get('cache-control'), 'no-cache');
  assert.match(reply.text, '<div id="graphiql">');
  context.html = reply.text;
});

page('allows only its own origin, with inline styles and data: fonts and images as the one exception', () => {
  assert.is(
    CONTENT_SECURITY_POLICY,
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  );
});

page('has no inline script and names no other origin', ({ html }) => {
  for (const script of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    assert.match(script[1] ?? '', /src="\/api\/graphiql\//, 'every script is a file of the page');
    assert.is((script[2] ?? '').trim(), '', 'no script body');
  }
  assert.not.match(html, /\son\w+=/i, 'no event handler attributes');
  assert.not.match(html, /(https?:)?\/\/[a-z0-9]/i, 'no absolute URL');
  for (const asset of assetsOf(html)) assert.match(asset, /^\/api\/graphiql\//);
});

page('serves every asset the page names, without a token, with its type and cache policy', async ({ hub, html }) => {
  const assets = assetsOf(html);
  assert.ok(assets.length >= 6, `the page names its assets: ${assets.join(', ')}`);
  for (const asset of assets) {
    const reply = await hub.request(asset);
    assert.is(reply.status, 200, asset);
    const extension = asset.split('.').at(-1) ?? '';
    assert.match(reply.headers.get('content-type') ?? '', TYPES[extension] ?? /^$/, asset);
    assert.is(reply.headers.get('cache-control'), asset.includes('/vendor/') ? IMMUTABLE : 'no-cache', asset);
    assert.is(reply.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY, asset);
    assert.is(reply.headers.get('x-content-type-options'), 'nosniff', asset);
    assert.ok(reply.text.length > 0, asset);
  }
});

page('puts the pinned version of each vendored build in its URL', ({ html }) => {
  const pins = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies;
  for (const name of ['graphiql', 'react', 'react-dom']) {
    assert.match(html, `/api/graphiql/vendor/${name}-${pins[name]}/`, name);
  }
  assert.equal(
    readdirSync(VENDOR).sort(),
    ['graphiql', 'react', 'react-dom'].map((name) => `${name}-${pins[name]}`).sort(),
  );
});

page('vendors the installed packages byte for byte, each with its licence beside it', async ({ hub }) => {
  const copies: [string, string][] = [
    ['react', 'umd/react.production.min.js'],
    ['react-dom', 'umd/react-dom.production.min.js'],
    ['graphiql', 'graphiql.min.js'],
    ['graphiql', 'graphiql.min.css'],
  ];
  for (const [name, file] of copies) {
    const installed = `${ROOT}node_modules/${name}/${file}`;
    const { version } = JSON.parse(readFileSync(`${ROOT}node_modules/${name}/package.json`, 'utf8')) as {
      version: string;
    };
    const vendored = `${VENDOR}/${name}-${version}/${file.split('/').at(-1)}`;
    assert.ok(existsSync(vendored), `${vendored} exists; run "npm run vendor:graphiql"`);
    assert.is(sha256(readFileSync(vendored)), sha256(readFileSync(installed)), `${vendored} is ${installed}`);
    const licence = await hub.request(`/api/graphiql/vendor/${name}-${version}/LICENSE.txt`);
    assert.is(licence.status, 200);
    assert.match(licence.headers.get('content-type') ?? '', TYPES.txt ?? /./);
    assert.match(licence.text, /MIT License/);
  }
  const notice = await hub.request(
    `/api/graphiql/vendor/${readdirSync(VENDOR).find((dir) => dir.startsWith('graphiql-'))}/THIRD-PARTY-LICENSES.txt`,
  );
  assert.is(notice.status, 200);
  assert.match(notice.text, /codemirror [\d.]+: MIT/);
});

page('serves the page at /api/graphiql/ too, and answers HEAD with headers only', async ({ hub }) => {
  assert.match((await hub.request('/api/graphiql/')).text, '<div id="graphiql">');
  const head = await rawRequest(hub, 'HEAD', '/api/graphiql/boot.js');
  assert.is(head.status, 200);
  assert.ok(Number(head.headers['content-length']) > 1000);
  assert.is(head.body, '');
});

page('answers a matching If-None-Match with 304 and no body', async ({ hub }) => {
  const first = await hub.request('/api/graphiql/boot.js');
  const etag = first.headers.get('etag') ?? '';
  assert.match(etag, /^W\/"/);
  const again = await hub.request('/api/graphiql/boot.js', { headers: { 'If-None-Match': etag } });
  assert.is(again.status, 304);
  assert.is(again.text, '');
});

for (const path of ['/api/graphiql', '/api/graphiql/boot.js']) {
  page(`answers POST ${path} with 405 and Allow: GET, HEAD`, async ({ hub }) => {
    const reply = await hub.request(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${hub.token}` },
      body: '{}',
    });
    assert.is(reply.status, 405);
    assert.is(reply.headers.get('allow'), 'GET, HEAD');
    assert.is(reply.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
    assert.match(reply.json.errors[0].message, /GET/);
  });
}

page('answers an unknown asset with a JSON 404 carrying the same security headers', async ({ hub }) => {
  const reply = await hub.request('/api/graphiql/nope.js');
  assert.is(reply.status, 404);
  assert.match(reply.json.errors[0].message, /no file "nope\.js"/);
  assert.is(reply.headers.get('x-content-type-options'), 'nosniff');
  assert.is(reply.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
});

const escapes = [
  '/api/graphiql/../package.json',
  '/api/graphiql/../../package.json',
  '/api/graphiql/vendor/../../../package.json',
  '/api/graphiql/%2e%2e/%2e%2e/package.json',
  '/api/graphiql/..%2f..%2fpackage.json',
  '/api/graphiql/..\\..\\package.json',
  '/api/graphiql//etc/passwd',
  '/api/graphiql/%2fetc%2fpasswd',
  '/api/graphiql/vendor',
  '/api/graphiql/vendor/',
  '/api/graphiql/../../src/http/static-files.ts',
];
for (const path of escapes) {
  page(`finds nothing at ${path} (no path outside the page, no listing)`, async ({ hub }) => {
    const reply = await rawRequest(hub, 'GET', path);
    assert.is(reply.status, 404);
    assert.not.match(reply.body, /"name": "minihub"|root:|<a href/);
  });
}

page('lists GET /api/graphiql among the endpoints of a 404', async ({ hub }) => {
  const reply = await hub.request('/nope');
  assert.is(reply.status, 404);
  assert.ok(reply.json.errors[0].extensions.endpoints.includes('GET /api/graphiql'));
});

page.run();
