// What resolvers receive as graphql-js's contextValue. A query gets a read-only reader and no store, so
// a query resolver cannot read around what the response cache records; only mutations get the store.

import type { TokenService } from '../auth/tokens.ts';
import type { Limits } from '../limits.ts';
import type { HistoryReader } from '../history/history-index.ts';
import type { SearchSource } from '../search/search-index.ts';
import type { AspectReader } from '../store/catalogue.ts';
import type { Store } from '../store/store.ts';

interface BaseContext {
  limits: Limits;
  tokens: TokenService;
  /** The username the request acts as (the token's owner, or `datahub` without auth). */
  actor: string;
}

/** A query's context: every read goes through `reader`, the catalogue or a recorder of what the answer depends on. */
export interface QueryContext extends BaseContext {
  reader: AspectReader;
  /** The change history (getTimeline), read only. */
  history: HistoryReader;
  /** The search index, current as of the last write once built. */
  search: SearchSource;
}

/** A mutation's context: the store, whose commit() is the only way a change lands. */
export interface MutationContext extends BaseContext {
  store: Store;
}
