// The root value handed to graphql-js execute: every Query and Mutation field's resolver in one object.

import { accessTokenMutations, accessTokenQueries } from './access-tokens.ts';
import { mutations } from './mutations.ts';
import { queries } from './queries.ts';

export const rootValue = { ...queries, ...accessTokenQueries, ...mutations, ...accessTokenMutations };
