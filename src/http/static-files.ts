// GET /api/graphiql and /api/graphiql/<file>: serves the files found in public/graphiql when the
// server starts (an allow-list, so no listing and no path outside it), GET and HEAD only, no token.
// Pure of node:http: a request value in, the whole answer out; refusals are thrown as HttpError.

import { existsSync, readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

import { shown } from '../errors.ts';
import { graphiqlDirectory } from '../package-files.ts';
import { HttpError, type Headers, type HttpAnswer, type HttpRequest } from './exchange.ts';

export const GRAPHIQL_PATH = '/api/graphiql';

const INDEX = 'index.html';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Only this origin, for everything. GraphiQL 3 sets inline styles (CodeMirror, its resizable panes),
 * hence 'unsafe-inline' for styles only; its CSS embeds its fonts and icons as data: URLs. Scripts
 * need nothing more than 'self' because the page has no inline script. The last three directives
 * only forbid (plugins, <base>, being framed by another site); GraphiQL uses none of them.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** On every answer of these routes, errors included. */
const SECURITY_HEADERS: Headers = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
};

// Vendored builds sit under vendor/<package>-<version>/, so their URLs change with the version and
// a browser may keep them for a year. The page and its own code are revalidated on every load.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

interface StaticFile {
  path: string;
  contentType: string;
  cacheControl: string;
}

export type StaticFilesHandler = (request: HttpRequest, name: string) => Promise<HttpAnswer>;

/**
 * Lists `dir` once and serves exactly those files: `name` is the URL path below /api/graphiql/
 * ('' for the page itself), looked up verbatim, so `..`, encoded or not, matches nothing.
 */
export function createStaticFiles(dir: string = graphiqlDirectory): StaticFilesHandler {
  const files = listFiles(dir);
  return async (request, name) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported on ${GRAPHIQL_PATH}; use GET`, {
        ...SECURITY_HEADERS,
        Allow: 'GET, HEAD',
      });
    }
    const file = files.get(name === '' ? INDEX : name);
    if (file === undefined) throw notFound(name);
    let body: Buffer;
    let etag: string;
    try {
      const info = await stat(file.path);
      etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      body = await readFile(file.path);
    } catch (error) {
      // Removed since the server started: as if it had never been there.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(name);
      throw error;
    }
    const headers: Headers = { ...SECURITY_HEADERS, 'Cache-Control': file.cacheControl, ETag: etag };
    if (request.headers['if-none-match'] === etag) return { status: 304, headers, body: null };
    const full = { ...headers, 'Content-Type': file.contentType, 'Content-Length': String(body.length) };
    return { status: 200, headers: full, body: request.method === 'HEAD' ? null : body };
  };
}

function notFound(name: string): HttpError {
  return new HttpError(
    404,
    `no file "${shown(name)}" under ${GRAPHIQL_PATH}/; the page is ${GRAPHIQL_PATH}`,
    SECURITY_HEADERS,
  );
}

/** Regular files of a served type, by their path relative to `dir` with '/' separators. */
function listFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      // Dot files stay private; symbolic links are not followed.
      if (entry.name.startsWith('.')) continue;
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(name);
        continue;
      }
      const contentType = CONTENT_TYPES[extname(entry.name).toLowerCase()];
      if (!entry.isFile() || contentType === undefined) continue;
      const cacheControl = name.startsWith('vendor/') ? IMMUTABLE : REVALIDATE;
      files.set(name, { path: join(dir, name), contentType, cacheControl });
    }
  };
  // A copy of minihub without public/ still serves the API; the page is then a 404.
  if (existsSync(dir)) walk('');
  return files;
}
