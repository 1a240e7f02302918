// CORS for /api/graphql, only for the origins given with --cors-origin (corsOrigins): the preflight
// answer and the Access-Control-Allow-Origin header. Without configured origins it does nothing.
// Pure: it reads the method and Origin and returns headers; it writes nothing.

import type { Headers } from './exchange.ts';

/** How long a browser may reuse a preflight answer, in seconds (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = 600;

export interface CorsOutcome {
  /** To put on the answer: Vary: Origin whenever origins are configured, and the allow header for an allowed one. */
  headers: Headers;
  /** A preflight (OPTIONS) from an allowed origin is answered 204 with these headers and nothing else. */
  preflight: boolean;
}

export type Cors = (method: string, origin: string | undefined) => CorsOutcome;

export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  // Origins are compared as browsers serialise them: scheme://host[:port], lower case, no slash.
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  return (method, origin) => {
    if (allowed.size === 0) return { headers: {}, preflight: false };
    // The answer differs by Origin, so shared caches must key on it; said to refused origins too.
    const headers: Headers = { Vary: 'Origin' };
    if (origin === undefined || !(any || allowed.has(origin.toLowerCase()))) return { headers, preflight: false };
    headers['Access-Control-Allow-Origin'] = any ? '*' : origin;
    if (method !== 'OPTIONS') return { headers, preflight: false };
    return {
      headers: {
        ...headers,
        // GET carries queries (GraphQL over HTTP); a browser's GET with an Authorization header is preflighted too.
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
      },
      preflight: true,
    };
  };
}
