// Access-token operations over GraphQL (DataHub's auth.graphql): create, list, revoke. Who may do
// what is asked of privileges.ts: yourself always, anyone else only with MANAGE_ACCESS_TOKENS; the
// mutations ask it inside the commit builder, through guardedCommit, like every other mutation.

import { platformPrivileges, requirePrivileges, UNAUTHORIZED_MESSAGE } from '../auth/privileges.ts';
import type { TokenMetadata, TokenService } from '../auth/tokens.ts';
import { badRequest, MinihubError, shown } from '../errors.ts';
import { urnId } from '../aspects/read.ts';
import type { AspectReader } from '../store/catalogue.ts';
import { corpUserUrn, parseUrn } from '../urn.ts';
import type { MutationContext, QueryContext } from './context.ts';
import { guardedCommit, privileged, type Check } from './guarded-commit.ts';
import { checkTextSizes } from './text-limit.ts';
import { tokenFilter, type FacetFilterInput } from './token-filters.ts';
import { CorpUserView } from './views/shared.ts';

const DAY = 86_400_000;
// ONE_WEEK is in DataHub's enum but unmapped there (it errors); minihub gives it its plain meaning.
const DURATIONS: Record<string, number | null> = {
  ONE_HOUR: 3_600_000,
  ONE_DAY: DAY,
  ONE_WEEK: 7 * DAY,
  ONE_MONTH: 30 * DAY,
  THREE_MONTHS: 90 * DAY,
  SIX_MONTHS: 180 * DAY,
  ONE_YEAR: 365 * DAY,
  NO_EXPIRY: null,
};

interface CreateAccessTokenInput {
  type: 'PERSONAL';
  actorUrn: string;
  duration: string;
  name: string;
  description?: string | null;
}

interface ListAccessTokenInput {
  start?: number | null;
  count?: number | null;
  filters?: FacetFilterInput[] | null;
}

interface GetAccessTokenInput {
  type: 'PERSONAL';
  actorUrn: string;
  duration: string;
}

// A token's id is the key of its URN, which holds at most 512 bytes: a longer id names no token.
const MAX_TOKEN_ID_CHARS = 512;

export const accessTokenQueries = {
  listAccessTokens({ input }: { input: ListAccessTokenInput }, { reader, tokens, actor }: QueryContext) {
    const me = corpUserUrn(actor);
    const filters = (input.filters ?? []).map(tokenFilter);
    // DataHub lets a user list tokens only through a filter on itself, unless it manages all tokens.
    const viewingSelf = filters.some(({ urns }) => urns !== null && urns.size === 1 && urns.has(me));
    if (!viewingSelf) requirePrivileges(reader, actor, null, [['MANAGE_ACCESS_TOKENS']]);
    const matching = tokens.list().filter((token) => filters.every((filter) => filter.matches(token)));
    const start = Math.max(0, input.start ?? 0);
    const page = matching.slice(start, start + Math.max(0, input.count ?? 20));
    return {
      start,
      count: page.length,
      total: matching.length,
      tokens: page.map((token) => metadataView(token, reader)),
    };
  },

  /**
   * DataHub's deprecated getAccessToken: a token for yourself only, never stored (DataHub's is stateless),
   * so it is not listed and cannot be revoked; minihub's lasts until the server stops or the duration ends.
   * Not in the response cache's list of cacheable fields, so each call issues a new token.
   */
  getAccessToken({ input }: { input: GetAccessTokenInput }, { reader, tokens, actor }: QueryContext) {
    const lifetimeMs = DURATIONS[input.duration];
    if (lifetimeMs === undefined) throw badRequest(`unknown duration ${shown(input.duration)}`);
    if (input.actorUrn !== corpUserUrn(actor)) throw new MinihubError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
    requirePrivileges(reader, actor, null, [['GENERATE_PERSONAL_ACCESS_TOKENS']]);
    return { accessToken: tokens.createSessionToken(actor, lifetimeMs), metadata: null };
  },

  /** DataHub's getAccessTokenMetadata: the stored record of a raw token, for a token manager only. */
  getAccessTokenMetadata({ token }: { token: string }, { reader, tokens, actor, limits }: QueryContext) {
    checkTextSizes(limits, { token });
    requirePrivileges(reader, actor, null, [['MANAGE_ACCESS_TOKENS']]);
    const metadata = tokens.lookup(tokens.idOf(token), reader);
    if (metadata === null) {
      throw new MinihubError(
        'NOT_FOUND',
        'no stored access token matches this token: it was revoked, never issued here, or is a session token',
      );
    }
    return metadataView(metadata, reader);
  },
};

export const accessTokenMutations = {
  async createAccessToken(
    { input }: { input: CreateAccessTokenInput },
    { store, tokens, actor, limits }: MutationContext,
  ) {
    checkTextSizes(limits, { name: input.name, description: input.description });
    const target = parseUrn(input.actorUrn);
    if (target.entityType !== 'corpuser')
      throw badRequest(`actorUrn "${shown(input.actorUrn)}" is not a user urn; expected urn:li:corpuser:<name>`);
    const username = urnId(input.actorUrn);
    // Unreachable through the schema's enum, so checking it before the privileges reveals nothing.
    const lifetimeMs = DURATIONS[input.duration];
    if (lifetimeMs === undefined) throw badRequest(`unknown duration ${shown(input.duration)}`);
    const { issued, build } = tokens.preparePersonalToken({
      username,
      name: input.name,
      description: input.description,
      lifetimeMs,
      requestedBy: corpUserUrn(actor),
    });
    const privilege = username === actor ? 'GENERATE_PERSONAL_ACCESS_TOKENS' : 'MANAGE_ACCESS_TOKENS';
    await guardedCommit(
      store,
      'createAccessToken',
      actor,
      privileged(actor, { anyOf: [[privilege]], on: null }),
      build,
    );
    return { accessToken: issued.token, metadata: metadataView(issued.metadata, store.catalogue) };
  },

  async revokeAccessToken(
    { tokenId }: { tokenId: string },
    { store, tokens, actor }: MutationContext,
  ): Promise<boolean> {
    if (tokenId.length > MAX_TOKEN_ID_CHARS) {
      throw badRequest(
        `no access token with id "${shown(tokenId)}": it is ${tokenId.length} characters long, and ids are at most ${MAX_TOKEN_ID_CHARS}`,
      );
    }
    await guardedCommit(
      store,
      'revokeAccessToken',
      actor,
      mayRevoke(tokens, actor, tokenId),
      tokens.revocation(tokenId),
    );
    return true;
  },
};

/**
 * A token manager may revoke any token (a missing one is a 400 naming the id); anyone else only a token
 * it is the actor or owner of. Ownership is checked before existence, so an id that is not yours
 * reveals nothing about whether it exists.
 */
function mayRevoke(tokens: TokenService, actor: string, tokenId: string): Check {
  const me = corpUserUrn(actor);
  return (reader: AspectReader) => {
    if (platformPrivileges(reader, actor).has('MANAGE_ACCESS_TOKENS')) {
      tokens.find(tokenId, reader);
      return;
    }
    const token = tokens.lookup(tokenId, reader);
    if (token === null || (token.actorUrn !== me && token.ownerUrn !== me))
      throw new MinihubError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
  };
}

/** AccessTokenMetadata, with its owner (the user who created the token) resolved as a CorpUser. */
function metadataView(metadata: TokenMetadata, reader: AspectReader) {
  return { ...metadata, type: 'ACCESS_TOKEN', owner: () => new CorpUserView(reader, metadata.ownerUrn) };
}
