// The one way a mutation is authorized: its check runs first inside the commit builder, so in log
// order against the state the write lands on. Never check on the catalogue before committing: a role,
// an ownership or a token changed by a commit queued just ahead would not be seen.

import { requirePrivileges, type Privilege } from '../auth/privileges.ts';
import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import type { ChangeBuilder, Store } from '../store/store.ts';
import { corpUserUrn } from '../urn.ts';
import { requireExisting } from './edits.ts';

/** Throws DataHub's 403 (or its 400 for a missing target) when the write may not land on `reader`'s state. */
export type Check = (reader: AspectReader) => void;

export interface Access {
  /** DataHub's rule: the actor holds every privilege of at least one group. */
  anyOf: Privilege[][];
  /** The entity the privileges are held on; null for platform privileges. */
  on: string | null;
  /**
   * Also refuse an entity `on` that does not exist. Checked after the privileges, as DataHub does, so a
   * denied caller learns nothing about the target.
   */
  existing?: boolean;
}

/** The check of an actor's privileges, and of the target's existence when asked. */
export function privileged(actor: string, { anyOf, on, existing = false }: Access): Check {
  return (reader) => {
    requirePrivileges(reader, actor, on, anyOf);
    if (existing && on !== null) requireExisting(reader, on);
  };
}

/**
 * Commits the changes of `build` as `actor` once `check` has passed, both in the commit builder: a
 * refused check writes nothing, and the checks of two mutations never interleave with their writes.
 * @example
 * await guardedCommit(store, 'addLink', actor, privileged(actor, { anyOf: [['EDIT_ENTITY']], on: urn, existing: true }), (reader) => [
 *   upsertLinks(reader, urn, [link]),
 * ]);
 */
export function guardedCommit(
  store: Store,
  op: string,
  actor: string,
  check: Check,
  build: ChangeBuilder,
): Promise<AspectChange[]> {
  return store.commit(op, corpUserUrn(actor), (reader) => {
    check(reader);
    return build(reader);
  });
}
