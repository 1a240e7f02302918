// The root value handed to graphql-js execute: every Query and Mutation field's resolver in one object.

import { accessTokenMutations, accessTokenQueries } from './access-tokens.ts';
import { mutations } from './mutations.ts';
import { queries } from './queries.ts';
import { searchQueries } from './search.ts';
import { softDeleteMutations } from './soft-delete.ts';
import { tagManageMutations } from './tag-manage.ts';
import { tagMutations } from './tag-mutations.ts';
import { timelineQueries } from './timeline.ts';

// Typed loosely on purpose: graphql-js calls these by field name; each resolver types its own arguments.
export const rootValue: Record<string, unknown> = {
  ...queries,
  ...accessTokenQueries,
  ...timelineQueries,
  ...searchQueries,
  ...mutations,
  ...tagMutations,
  ...tagManageMutations,
  ...softDeleteMutations,
  ...accessTokenMutations,
};
