// What every resolver receives as graphql-js's contextValue: the store and the acting user.

import type { TokenService } from '../auth/tokens.ts';
import type { Limits } from '../limits.ts';
import type { AspectReader } from '../store/catalogue.ts';
import type { Store } from '../store/store.ts';

export interface RequestContext {
  store: Store;
  /** What read-only resolvers read through: the catalogue, or a recorder of what the answer depends on. */
  reader: AspectReader;
  limits: Limits;
  tokens: TokenService;
  /** The username the request acts as (the token's owner, or `datahub` without auth). */
  actor: string;
}
