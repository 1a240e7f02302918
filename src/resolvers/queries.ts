// Query root fields. Root-value resolvers follow graphql-js's default field resolver: each is called
// as (args, context, info), and nested fields resolve through the view objects they return.

import { platformFlags } from '../auth/privileges.ts';
import { badRequest, shown } from '../errors.ts';
import { corpUserUrn, parseDatasetUrn, parseUrn } from '../urn.ts';
import type { QueryContext } from './context.ts';
import { ContainerView } from './views/container.ts';
import { DatasetView } from './views/dataset.ts';
import { CorpGroupView, CorpUserView } from './views/shared.ts';
import { TagView } from './views/tag.ts';

export const queries = {
  dataset({ urn }: { urn: string }, { reader }: QueryContext): DatasetView {
    return new DatasetView(reader, urn, parseDatasetUrn(urn));
  },

  container({ urn }: { urn: string }, { reader }: QueryContext): ContainerView {
    expectEntityType(urn, 'container');
    return new ContainerView(reader, urn);
  },

  tag({ urn }: { urn: string }, { reader }: QueryContext): TagView {
    expectEntityType(urn, 'tag');
    return new TagView(reader, urn);
  },

  corpUser({ urn }: { urn: string }, { reader }: QueryContext): CorpUserView {
    expectEntityType(urn, 'corpuser');
    return new CorpUserView(reader, urn);
  },

  corpGroup({ urn }: { urn: string }, { reader }: QueryContext): CorpGroupView {
    expectEntityType(urn, 'corpGroup');
    return new CorpGroupView(reader, urn);
  },

  me(_args: unknown, { reader, actor }: QueryContext) {
    return {
      corpUser: new CorpUserView(reader, corpUserUrn(actor)),
      platformPrivileges: platformFlags(reader, actor),
    };
  },
};

/** Parses `urn` and checks that it names an entity of `entityType`. */
export function expectEntityType(urn: string, entityType: string): void {
  const parsed = parseUrn(urn);
  if (parsed.entityType !== entityType) {
    throw badRequest(
      `Invalid urn "${shown(urn)}": expected a ${entityType} urn (urn:li:${entityType}:<id>), got a ${parsed.entityType} urn`,
    );
  }
}
