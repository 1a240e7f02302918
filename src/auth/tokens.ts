// Personal access tokens as DataHub keeps them: signed JWTs whose hash (never the token) is stored as
// a dataHubAccessToken entity, so they can be listed and revoked. Also the request's bearer check.

import { createHmac, randomUUID } from 'node:crypto';

import { MinihubError } from '../errors.ts';
import type { AspectChange } from '../store/catalogue.ts';
import { isJsonObject, type JsonObject } from '../store/json.ts';
import type { Store } from '../store/store.ts';
import { corpUserUrn } from '../urn.ts';
import { signJwt, verifyJwt, TOKEN_ISSUER, type TokenClaims } from './jwt.ts';

export const ROOT_USER = 'datahub';
export const TOKEN_INFO_ASPECT = 'dataHubAccessTokenInfo';

export function tokenUrn(id: string): string {
  return `urn:li:dataHubAccessToken:${id}`;
}

export interface IssuedToken {
  token: string;
  id: string;
  expiresAt: number | null;
}

export interface TokenRequest {
  username: string;
  name: string;
  description?: string;
  /** Lifetime in milliseconds; null never expires. */
  lifetimeMs: number | null;
  /** Who asks for it, as a corpuser URN (recorded in the log). */
  requestedBy: string;
}

/** Issues tokens and checks the bearer token of each request against the store. */
export class TokenService {
  readonly #key: Buffer;
  readonly #store: Store;
  // Session tokens live only as long as this process, so only their ids are kept, in memory.
  readonly #sessionIds = new Set<string>();

  constructor(key: Buffer, store: Store) {
    this.#key = key;
    this.#store = store;
  }

  /** A user exists when the catalogue has its corpuser entity; the root user always exists. */
  userExists(username: string): boolean {
    return username === ROOT_USER || this.#store.catalogue.exists(corpUserUrn(username));
  }

  /** Issues a stored personal access token for an existing user. */
  async createPersonalToken(request: TokenRequest): Promise<IssuedToken> {
    const { username, name, description, lifetimeMs, requestedBy } = request;
    if (!this.userExists(username)) {
      throw new MinihubError('BAD_REQUEST', `no user "${username}" in this catalogue; a token can only be made for an existing user`);
    }
    const issued = this.#sign(username, 'PERSONAL', lifetimeMs);
    const info: JsonObject = {
      name,
      actorUrn: corpUserUrn(username),
      ownerUrn: requestedBy,
      createdAt: Date.now(),
      ...(description === undefined ? {} : { description }),
      ...(issued.expiresAt === null ? {} : { expiresAt: issued.expiresAt }),
    };
    const change: AspectChange = { urn: tokenUrn(issued.id), aspect: TOKEN_INFO_ASPECT, value: info };
    await this.#store.commit('createAccessToken', requestedBy, () => [change]);
    return issued;
  }

  /** Issues a token that is valid until this process stops and is never written anywhere. */
  createSessionToken(username: string): string {
    const issued = this.#sign(username, 'SESSION', null);
    this.#sessionIds.add(issued.id);
    return issued.token;
  }

  /** Resolves the `Authorization` header to the acting username, or throws UNAUTHENTICATED saying why. */
  authenticate(header: string | undefined): string {
    if (header === undefined || header.trim() === '') {
      throw new MinihubError('UNAUTHENTICATED', 'the request has no Authorization header; expected "Authorization: Bearer <token>"');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (match === null) {
      throw new MinihubError('UNAUTHENTICATED', 'the Authorization header is malformed; expected "Bearer <token>"');
    }
    const token = match[1] as string;
    const claims = verifyJwt(token, this.#key);
    const id = this.#tokenId(token);
    if (this.#sessionIds.has(id)) return claims.actorId;
    const info = this.#store.catalogue.aspect(tokenUrn(id), TOKEN_INFO_ASPECT);
    if (!isJsonObject(info)) {
      throw new MinihubError('UNAUTHENTICATED', 'the bearer token has been revoked or was not issued by this minihub');
    }
    // A valid signature is not enough: the stored record must agree with the claims.
    if (info.actorUrn !== corpUserUrn(claims.actorId)) {
      throw new MinihubError('UNAUTHENTICATED', 'the bearer token does not match the token this minihub issued');
    }
    if (typeof info.expiresAt === 'number' && info.expiresAt <= Date.now()) {
      throw new MinihubError('UNAUTHENTICATED', 'the bearer token has expired');
    }
    return claims.actorId;
  }

  #sign(username: string, type: TokenClaims['type'], lifetimeMs: number | null): IssuedToken {
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
    return { token, id: this.#tokenId(token), expiresAt };
  }

  // DataHub stores base64(sha256(salt + token)); keyed with the signing key, the id reveals nothing.
  #tokenId(token: string): string {
    return createHmac('sha256', this.#key).update(token).digest('base64url');
  }
}
