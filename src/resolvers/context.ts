// What every resolver receives as graphql-js's contextValue: the store and the acting user.

import type { TokenService } from '../auth/tokens.ts';
import type { Limits } from '../limits.ts';
import type { Store } from '../store/store.ts';

export interface RequestContext {
  store: Store;
  limits: Limits;
  tokens: TokenService;
  /** The username the request acts as (the token's owner, or `datahub` without auth). */
  actor: string;
}
