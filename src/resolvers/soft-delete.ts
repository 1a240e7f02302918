// batchUpdateSoftDeleted, with DataHub's input, privileges and errors: sets the `status` aspect's `removed`
// on every URN in one commit, or refuses the whole batch. It never deletes an aspect (that is the REST delete).

import { requirePrivileges, type Privilege } from '../auth/privileges.ts';
import { badRequest } from '../errors.ts';
import { aspectObject, bool } from '../aspects/read.ts';
import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import { checkedEntityType } from '../urn.ts';
import type { MutationContext } from './context.ts';
import { guardedCommit } from './guarded-commit.ts';

interface BatchUpdateSoftDeletedInput {
  urns: string[];
  deleted: boolean;
}

/** URNs one call may name: a bound on one commit's size, far above a page of search results. */
export const MAX_SOFT_DELETE_URNS = 10_000;

// DataHub asks EDIT_ENTITY or DELETE_ENTITY on each URN; no minihub role holds DELETE_ENTITY alone.
const ON_ENTITY: Privilege[][] = [['EDIT_ENTITY']];
// A removed user can no longer sign in (auth/users.ts), so removing one stays with whoever manages users,
// a platform privilege, not every editor's: otherwise an Editor could lock out the Admins (README, Differences).
const ON_USER: Privilege[][] = [['MANAGE_USERS_AND_GROUPS']];

export const softDeleteMutations = {
  async batchUpdateSoftDeleted(
    { input }: { input: BatchUpdateSoftDeletedInput },
    { store, actor }: MutationContext,
  ): Promise<boolean> {
    if (input.urns.length > MAX_SOFT_DELETE_URNS) {
      throw badRequest(`batchUpdateSoftDeleted names ${input.urns.length} urns; the limit is ${MAX_SOFT_DELETE_URNS}`);
    }
    // Every URN is checked for size and form (parseUrn's) before anything is looked up.
    const targets = [...new Map(input.urns.map((urn) => [urn, checkedEntityType(urn)]))];
    await guardedCommit(
      store,
      'batchUpdateSoftDeleted',
      actor,
      (reader) => {
        // DataHub's order, per URN: the privilege, then the entity's existence (soft-deleted ones exist).
        for (const [urn, entityType] of targets) {
          if (entityType === 'corpuser') requirePrivileges(reader, actor, null, ON_USER);
          else requirePrivileges(reader, actor, urn, ON_ENTITY);
          if (!reader.exists(urn)) {
            throw badRequest(`Failed to soft delete entity with urn ${urn}. Entity does not exist.`);
          }
        }
      },
      (reader) => targets.flatMap(([urn]) => statusChange(reader, urn, input.deleted)),
    );
    return true;
  },
};

/** The status aspect with `removed` set, kept as it is otherwise; none when it already says so. */
function statusChange(reader: AspectReader, urn: string, removed: boolean): AspectChange[] {
  const status = aspectObject(reader, urn, 'status');
  // No status aspect reads as not removed, as DataHub's default Status does.
  if ((bool(status, 'removed') ?? false) === removed) return [];
  return [{ urn, aspect: 'status', value: { ...status, removed } }];
}
