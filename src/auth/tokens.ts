// Personal access tokens as DataHub keeps them: signed JWTs whose keyed hash (never the token) is
// stored as a dataHubAccessToken entity, so they can be listed and revoked; and the bearer check.
// Who may issue, list or revoke is decided by the callers, through privileges.ts.

import { createHmac, randomUUID } from 'node:crypto';

import { AuthenticationError, badRequest, shown } from '../errors.ts';
import type { AspectReader, Catalogue } from '../store/catalogue.ts';
import { isJsonObject, type JsonObject } from '../aspects/json.ts';
import { num, str } from '../aspects/read.ts';
import type { ChangeBuilder, Store } from '../store/store.ts';
import { corpUserUrn } from '../urn.ts';
import { signJwt, verifyJwt, TOKEN_ISSUER, type TokenClaims } from './jwt.ts';
import { userExists, userRemoved } from './users.ts';

export const TOKEN_INFO_ASPECT = 'dataHubAccessTokenInfo';
const TOKEN_URN_PREFIX = 'urn:li:dataHubAccessToken:';
const VERIFIED_TOKENS = 10_000;
// "Bearer " or "bearer ": the one spacing remembered (see #verify).
const CANONICAL_SCHEME = 'Bearer ';
const SESSION_SWEEP_MIN = 1024;
// Session tokens are kept in memory only; past this many live ones (after expired ones are swept),
// getAccessToken refuses, so a client calling it in a loop cannot grow the process without bound.
export const MAX_SESSION_TOKENS = 100_000;

export function tokenUrn(id: string): string {
  return `${TOKEN_URN_PREFIX}${id}`;
}

/** DataHub's AccessTokenMetadata. */
export interface TokenMetadata {
  urn: string;
  id: string;
  name: string;
  description: string | null;
  actorUrn: string;
  ownerUrn: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface IssuedToken {
  token: string;
  metadata: TokenMetadata;
}

export interface TokenRequest {
  username: string;
  name: string;
  description?: string | null;
  /** Lifetime in milliseconds; null never expires. */
  lifetimeMs: number | null;
  /** Who asks for it, as a corpuser URN: the token's owner. */
  requestedBy: string;
}

/** What a verified token's text stands for; the actor's URN is kept so each request need not build it. */
interface VerifiedToken {
  claims: TokenClaims;
  id: string;
  userUrn: string;
}

/** Issues tokens, lists and revokes them, and checks the bearer token of each request. */
export class TokenService {
  readonly #key: Buffer;
  readonly #store: Store;
  // Session tokens live only as long as this process, so only their ids are kept, in memory.
  // Each with its expiry (null: never), so expired ones can be swept: getAccessToken issues one per call.
  readonly #sessionIds = new Map<string, number | null>();
  #sweepSessionsAt = SESSION_SWEEP_MIN;
  // Authorization headers whose token's signature and shape were verified: each request then costs a
  // Map lookup, not a pattern and two HMACs. Expiry and the stored record are still checked every time,
  // so revocation is immediate.
  readonly #verified = new Map<string, VerifiedToken>();

  readonly #maxSessionTokens: number;

  /** `maxSessionTokens` (default MAX_SESSION_TOKENS) bounds the live unstored tokens; tests lower it. */
  constructor(key: Buffer, store: Store, { maxSessionTokens = MAX_SESSION_TOKENS } = {}) {
    this.#key = key;
    this.#store = store;
    this.#maxSessionTokens = maxSessionTokens;
  }

  /** Issues a stored personal access token for an existing user. */
  async createPersonalToken(request: TokenRequest): Promise<IssuedToken> {
    const { issued, build } = this.preparePersonalToken(request);
    await this.#store.commit('createAccessToken', request.requestedBy, build);
    return issued;
  }

  /**
   * Signs a personal access token and returns it with the builder of its stored record, for a caller
   * that commits it behind its own checks. The builder refuses a user missing or removed in the state
   * the record lands on; the token works once the record is committed.
   */
  preparePersonalToken(request: TokenRequest): { issued: IssuedToken; build: ChangeBuilder } {
    const { username, name, description, lifetimeMs, requestedBy } = request;
    const { token, id, expiresAt, issuedAt } = this.#sign(username, 'PERSONAL', lifetimeMs);
    const info: JsonObject = {
      name,
      actorUrn: corpUserUrn(username),
      ownerUrn: requestedBy,
      // The instant the expiry was counted from, so expiresAt - createdAt is exactly the lifetime asked for.
      createdAt: issuedAt,
      ...(description == null ? {} : { description }),
      ...(expiresAt === null ? {} : { expiresAt }),
    };
    const build = (reader: AspectReader) => {
      if (!userExists(reader, username)) {
        throw badRequest(
          `no user "${shown(username)}" in this catalogue; a token can only be made for an existing user`,
        );
      }
      if (userRemoved(reader, username)) {
        throw badRequest(
          `user "${shown(username)}" has been removed from this catalogue (status removed: true); a token can only be made for an existing user`,
        );
      }
      return [{ urn: tokenUrn(id), aspect: TOKEN_INFO_ASPECT, value: info }];
    };
    return { issued: { token, metadata: toMetadata(tokenUrn(id), info) as TokenMetadata }, build };
  }

  /**
   * Issues a token that is never written anywhere: valid until this process stops, or until
   * `lifetimeMs` has passed when given.
   */
  createSessionToken(username: string, lifetimeMs: number | null = null): string {
    if (this.#sessionIds.size >= Math.min(this.#sweepSessionsAt, this.#maxSessionTokens)) this.#sweepExpiredSessions();
    if (this.#sessionIds.size >= this.#maxSessionTokens) {
      throw badRequest(
        `${this.#maxSessionTokens} unstored session tokens are live in this process; ask for a shorter duration, ` +
          'or create a stored token with createAccessToken, which can be listed and revoked',
      );
    }
    const { token, id, expiresAt } = this.#sign(username, 'SESSION', lifetimeMs);
    this.#sessionIds.set(id, expiresAt);
    return token;
  }

  /** The id a token is stored under (its keyed hash), whether or not such a token was issued. */
  idOf(token: string): string {
    return this.#tokenId(token);
  }

  /** Every stored token, oldest first. */
  list(): TokenMetadata[] {
    return listTokens(this.#store.catalogue);
  }

  /** The stored token with `id` (in `reader`'s state, by default the catalogue's), or null. */
  lookup(id: string, reader: AspectReader = this.#store.catalogue): TokenMetadata | null {
    return toMetadata(tokenUrn(id), reader.aspect(tokenUrn(id), TOKEN_INFO_ASPECT));
  }

  /** The stored token with `id`; a 400 naming the id when there is none. */
  find(id: string, reader: AspectReader = this.#store.catalogue): TokenMetadata {
    const metadata = this.lookup(id, reader);
    if (metadata === null)
      throw badRequest(`no access token with id "${shown(id)}"; list them with listAccessTokens or "token list"`);
    return metadata;
  }

  /** Deletes the token's record, so the token is refused from now on. */
  async revoke(id: string, requestedBy: string): Promise<void> {
    await this.#store.commit('revokeAccessToken', requestedBy, this.revocation(id));
  }

  /** The builder that deletes the token's record, for a caller that commits it behind its own checks. */
  revocation(id: string): ChangeBuilder {
    return (reader) => {
      if (reader.aspect(tokenUrn(id), TOKEN_INFO_ASPECT) === undefined)
        throw badRequest(`no access token with id "${shown(id)}"`);
      return [{ urn: tokenUrn(id), aspect: TOKEN_INFO_ASPECT, value: null }];
    };
  }

  /** Resolves the `Authorization` header to the acting username, or throws saying why it cannot. */
  authenticate(header: string | undefined): string {
    if (header === undefined || header.trim() === '') {
      throw new AuthenticationError(
        'missing',
        'the request has no Authorization header; expected "Authorization: Bearer <token>"',
      );
    }
    const { claims, id, userUrn } = this.#verify(header);
    const catalogue = this.#store.catalogue;
    if (!this.#sessionIds.has(id)) {
      const info = catalogue.aspect(tokenUrn(id), TOKEN_INFO_ASPECT);
      if (!isJsonObject(info))
        throw new AuthenticationError('revoked', 'the bearer token has been revoked or was not issued by this minihub');
      // A valid signature is not enough: the stored record must agree with the claims.
      if (info.actorUrn !== userUrn)
        throw new AuthenticationError('malformed', 'the bearer token does not match the token this minihub issued');
      if (typeof info.expiresAt === 'number' && info.expiresAt <= Date.now())
        throw new AuthenticationError('expired', 'the bearer token has expired');
    }
    // Read from the live catalogue on every request (two map lookups), never remembered: a removal counts at once.
    if (userRemoved(catalogue, claims.actorId, userUrn)) {
      throw new AuthenticationError(
        'user_removed',
        `the bearer token's user "${shown(claims.actorId)}" has been removed from this catalogue; its tokens no longer work`,
      );
    }
    return claims.actorId;
  }

  // Sweeps when the count doubles, so the cost per token issued stays constant; unexpired ones stay.
  #sweepExpiredSessions(): void {
    const now = Date.now();
    for (const [id, expiresAt] of this.#sessionIds)
      if (expiresAt !== null && expiresAt <= now) this.#sessionIds.delete(id);
    this.#sweepSessionsAt = Math.max(SESSION_SWEEP_MIN, this.#sessionIds.size * 2);
  }

  // Remembered by the whole header: whether it is well formed depends on it alone, so a header seen
  // before needs neither the pattern nor the signature checked again.
  #verify(header: string): VerifiedToken {
    const known = this.#verified.get(header);
    if (known !== undefined) {
      if (known.claims.exp !== undefined && known.claims.exp * 1000 <= Date.now())
        throw new AuthenticationError('expired', 'the bearer token has expired');
      return known;
    }
    // DataHub accepts the scheme as "Bearer" or "bearer" only.
    const match = /^[Bb]earer +(\S+)\s*$/.exec(header);
    if (match === null)
      throw new AuthenticationError('malformed', 'the Authorization header is malformed; expected "Bearer <token>"');
    const token = match[1] as string;
    const claims = verifyJwt(token, this.#key);
    const verified = { claims, id: this.#tokenId(token), userUrn: corpUserUrn(claims.actorId) };
    // Only "Bearer <token>" as clients send it: other spacings of one token, up to the header size limit,
    // would otherwise each take a place and their length in memory.
    if (header.length === token.length + CANONICAL_SCHEME.length) {
      if (this.#verified.size >= VERIFIED_TOKENS) this.#verified.clear();
      this.#verified.set(header, verified);
    }
    return verified;
  }

  #sign(
    username: string,
    type: TokenClaims['type'],
    lifetimeMs: number | null,
  ): { token: string; id: string; expiresAt: number | null; issuedAt: number } {
    const now = Date.now();
    const expiresAt = lifetimeMs === null ? null : now + lifetimeMs;
    const claims: TokenClaims = {
      actorType: 'USER',
      actorId: username,
      type,
      version: '2',
      jti: randomUUID(),
      sub: username,
      iss: TOKEN_ISSUER,
      iat: Math.floor(now / 1000),
      ...(expiresAt === null ? {} : { exp: Math.ceil(expiresAt / 1000) }),
    };
    const token = signJwt(claims, this.#key);
    return { token, id: this.#tokenId(token), expiresAt, issuedAt: now };
  }

  // DataHub stores base64(sha256(salt + token)); keyed with the signing key, the id reveals nothing.
  // Hex, not base64: an id starting with "-" would read as an option on the command line.
  #tokenId(token: string): string {
    return createHmac('sha256', this.#key).update(token).digest('hex');
  }
}

export function listTokens(catalogue: Catalogue): TokenMetadata[] {
  const tokens: TokenMetadata[] = [];
  for (const urn of catalogue.urnsOfType('dataHubAccessToken')) {
    const metadata = toMetadata(urn, catalogue.aspect(urn, TOKEN_INFO_ASPECT));
    if (metadata !== null) tokens.push(metadata);
  }
  return tokens.sort((a, b) => a.createdAt - b.createdAt);
}

function toMetadata(urn: string, info: unknown): TokenMetadata | null {
  if (!isJsonObject(info)) return null;
  return {
    urn,
    id: urn.slice(TOKEN_URN_PREFIX.length),
    name: str(info, 'name') ?? '',
    description: str(info, 'description'),
    actorUrn: str(info, 'actorUrn') ?? '',
    ownerUrn: str(info, 'ownerUrn') ?? '',
    createdAt: num(info, 'createdAt') ?? 0,
    expiresAt: num(info, 'expiresAt'),
  };
}
