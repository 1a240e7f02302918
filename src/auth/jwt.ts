// HS256 JSON Web Tokens shaped like DataHub's personal access tokens: sign and verify, nothing else.
// It decides only whether a token is well formed, correctly signed and unexpired, not whom it is for.

import { createHmac, timingSafeEqual } from 'node:crypto';

import { AuthenticationError } from '../errors.ts';

/** DataHub's token claims (StatelessTokenService), `exp` absent for tokens that never expire. */
export interface TokenClaims {
  actorType: 'USER';
  actorId: string;
  type: 'PERSONAL' | 'SESSION';
  version: '2';
  jti: string;
  sub: string;
  iss: string;
  iat: number;
  exp?: number;
}

export const TOKEN_ISSUER = 'datahub-metadata-service';

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signJwt(claims: TokenClaims, key: Buffer): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${signature(body, key)}`;
}

/** Checks the header, signature and expiry; throws UNAUTHENTICATED saying which failed. */
export function verifyJwt(token: string, key: Buffer, now = Date.now()): TokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw malformed('expected three dot-separated parts');
  const [header, payload, signed] = parts as [string, string, string];
  const alg = decodeJson(header)?.alg;
  // Only HS256: accepting the header's choice would let "none" or a public-key algorithm through.
  if (alg !== 'HS256') throw malformed(`algorithm ${JSON.stringify(alg)} is not accepted; expected HS256`);
  const expected = Buffer.from(signature(`${header}.${payload}`, key));
  const actual = Buffer.from(signed);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    throw malformed('the signature does not match');
  const claims = decodeJson(payload);
  if (claims === null || typeof claims.actorId !== 'string' || claims.actorType !== 'USER') {
    throw malformed('the claims are not a DataHub access token');
  }
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) {
    throw new AuthenticationError('expired', 'the bearer token has expired');
  }
  return claims as unknown as TokenClaims;
}

function malformed(detail: string): AuthenticationError {
  return new AuthenticationError('malformed', `the bearer token is malformed or not signed by this minihub: ${detail}`);
}

function signature(body: string, key: Buffer): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    // Undecodable parts are reported by the caller as a malformed token.
    return null;
  }
}
