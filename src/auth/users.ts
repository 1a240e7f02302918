// Users as minihub knows them: corpuser entities (ingested or added from the CLI) plus the root user
// `datahub`, and their roles. Builds the changes that add users or set roles; never writes itself.

import { badRequest } from '../errors.ts';
import type { AspectChange, AspectReader, Catalogue } from '../store/catalogue.ts';
import { aspectObject, bool, str, urnId } from '../aspects/read.ts';
import { corpUserUrn } from '../urn.ts';
import { ROLE_ASPECT, ROOT_USER, roleOf, roleUrn, ROLES, type Role } from './privileges.ts';

export { ROOT_USER };

/** DataHub's soft delete: `{ removed: true }` hides an entity without deleting its aspects. */
const STATUS_ASPECT = 'status';

export interface UserSummary {
  username: string;
  role: Role | null;
  displayName: string | null;
}

/** A user exists when the catalogue has its corpuser entity; the root user always exists. */
export function userExists(reader: AspectReader, username: string): boolean {
  return username === ROOT_USER || reader.exists(corpUserUrn(username));
}

/**
 * True when the user is gone from the catalogue: its corpuser entity no longer exists, or DataHub's soft
 * delete marks it (a `status` aspect with `removed: true`, as `datahub delete` writes). Never the root user.
 * `userUrn` is corpUserUrn(username), which a caller on a hot path has at hand.
 */
export function userRemoved(reader: AspectReader, username: string, userUrn = corpUserUrn(username)): boolean {
  if (username === ROOT_USER) return false;
  return !reader.exists(userUrn) || bool(aspectObject(reader, userUrn, STATUS_ASPECT), 'removed') === true;
}

export function listUsers(catalogue: Catalogue): UserSummary[] {
  const names = new Set([ROOT_USER]);
  for (const urn of catalogue.urnsOfType('corpuser')) names.add(urnId(urn));
  return [...names].sort().map((username) => {
    const displayName = str(aspectObject(catalogue, corpUserUrn(username), 'corpUserInfo'), 'displayName');
    return { username, role: roleOf(catalogue, username), displayName };
  });
}

/** `Admin`, `admin`, `none` … → a role or null; anything else is a usage error naming the choices. */
export function parseRole(text: string): Role | null {
  if (text.toLowerCase() === 'none') return null;
  const role = ROLES.find((candidate) => candidate.toLowerCase() === text.toLowerCase());
  if (role === undefined) throw badRequest(`unknown role "${text}"; expected ${ROLES.join(', ')} or none`);
  return role;
}

/** A new native user with an optional role; refused when the user exists, unless it was removed (then it is back). */
export function addUserChanges(reader: AspectReader, username: string, role: Role | null): AspectChange[] {
  const urn = corpUserUrn(username);
  if (userExists(reader, username)) {
    // A removed user keeps its aspects; adding it again lifts the removal, with the role given.
    if (userRemoved(reader, username, urn))
      return [
        { urn, aspect: STATUS_ASPECT, value: { removed: false } },
        ...(role === null ? [] : [roleChange(username, role)]),
      ];
    throw badRequest(`user "${username}" already exists; use "user role ${username} ROLE" to change its role`);
  }
  return [
    { urn, aspect: 'corpUserInfo', value: { active: true, displayName: username } },
    ...(role === null ? [] : [roleChange(username, role)]),
  ];
}

/** Sets (or with null, removes) the user's role; the root user's role is fixed. */
export function setRoleChanges(reader: AspectReader, username: string, role: Role | null): AspectChange[] {
  if (username === ROOT_USER) throw badRequest(`the root user "${ROOT_USER}" is always Admin`);
  if (!userExists(reader, username))
    throw badRequest(`no user "${username}"; add it with "user add ${username} --role ROLE"`);
  return [roleChange(username, role)];
}

function roleChange(username: string, role: Role | null): AspectChange {
  // DataHub keeps role assignments in the corpuser's roleMembership aspect.
  return { urn: corpUserUrn(username), aspect: ROLE_ASPECT, value: role === null ? null : { roles: [roleUrn(role)] } };
}
