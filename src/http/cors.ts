// CORS for /api/graphql, only for the origins given with --cors-origin (corsOrigins): the preflight
// answer and the Access-Control-Allow-Origin header. Without configured origins it does nothing.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a browser may reuse a preflight answer, in seconds (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = 600;

export interface Cors {
  /**
   * Adds the CORS headers for an allowed Origin to `res`; answers a preflight (OPTIONS) itself with
   * 204 and returns true. A request from any other origin gets no CORS headers and returns false.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  // Origins are compared as browsers serialise them: scheme://host[:port], lower case, no slash.
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  return {
    handle(req, res) {
      if (allowed.size === 0) return false;
      // The answer differs by Origin, so shared caches must key on it; said to refused origins too.
      res.setHeader('Vary', 'Origin');
      const origin = req.headers.origin;
      if (origin === undefined || !(any || allowed.has(origin.toLowerCase()))) return false;
      res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
      if (req.method !== 'OPTIONS') return false;
      res.writeHead(204, {
        // GET carries queries (GraphQL over HTTP); a browser's GET with an Authorization header is preflighted too.
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
      });
      res.end();
      return true;
    },
  };
}
