// The one place that decides what an actor may do: roles and ownership mapped to DataHub's privilege
// names, as DataHub's default policies grant them. Resolvers ask it; it reads the catalogue, never writes.

import { MinihubError } from '../errors.ts';
import type { AspectReader } from '../store/catalogue.ts';
import { aspectObject, objects, strings } from '../aspects/read.ts';
import { corpUserUrn } from '../urn.ts';

export type Privilege =
  | 'EDIT_ENTITY'
  | 'EDIT_ENTITY_DOCS'
  | 'EDIT_ENTITY_DOC_LINKS'
  | 'EDIT_DATASET_COL_DESCRIPTION'
  | 'EDIT_ENTITY_TAGS'
  | 'EDIT_DATASET_COL_TAGS'
  | 'EDIT_TAG_COLOR'
  | 'CREATE_TAGS'
  | 'MANAGE_TAGS'
  | 'GENERATE_PERSONAL_ACCESS_TOKENS'
  | 'MANAGE_ACCESS_TOKENS';

export const ROLES = ['Admin', 'Editor', 'Reader'] as const;
export type Role = (typeof ROLES)[number];

export const ROOT_USER = 'datahub';
export const ROLE_ASPECT = 'roleMembership';

const EDIT_PRIVILEGES: Privilege[] = [
  'EDIT_ENTITY',
  'EDIT_ENTITY_DOCS',
  'EDIT_ENTITY_DOC_LINKS',
  'EDIT_DATASET_COL_DESCRIPTION',
  'EDIT_ENTITY_TAGS',
  'EDIT_DATASET_COL_TAGS',
  'EDIT_TAG_COLOR',
];

// Platform privileges: DataHub's "all users" policy gives everyone token generation (dataHubPolicy:7).
const EVERYONE: Privilege[] = ['GENERATE_PERSONAL_ACCESS_TOKENS'];
const PLATFORM: Record<Role, Privilege[]> = {
  Admin: ['CREATE_TAGS', 'MANAGE_TAGS', 'MANAGE_ACCESS_TOKENS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
  Editor: ['MANAGE_TAGS'],
  Reader: [],
};
// Privileges on every entity, by role; owners get theirs on what they own ("asset owners" policy).
const ON_EVERY_ENTITY: Record<Role, Privilege[]> = { Admin: EDIT_PRIVILEGES, Editor: EDIT_PRIVILEGES, Reader: [] };
// Asset owners may edit what they own in every way but EDIT_ENTITY, as DataHub's default policy grants.
const ON_OWNED_ENTITY: Privilege[] = EDIT_PRIVILEGES.filter((privilege) => privilege !== 'EDIT_ENTITY');

export const UNAUTHORIZED_MESSAGE = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

/** `urn:li:dataHubRole:Editor` → `Editor`, for the roles minihub knows. */
export function roleOfUrn(urn: string): Role | undefined {
  const name = urn.slice('urn:li:dataHubRole:'.length);
  return urn.startsWith('urn:li:dataHubRole:') ? ROLES.find((role) => role === name) : undefined;
}

export function roleUrn(role: Role): string {
  return `urn:li:dataHubRole:${role}`;
}

/** The user's role from its roleMembership aspect; the root user is always Admin. */
export function roleOf(reader: AspectReader, username: string): Role | null {
  if (username === ROOT_USER) return 'Admin';
  for (const urn of strings(aspectObject(reader, corpUserUrn(username), ROLE_ASPECT), 'roles') ?? []) {
    const role = roleOfUrn(urn);
    if (role !== undefined) return role;
  }
  return null;
}

export function platformPrivileges(reader: AspectReader, username: string): ReadonlySet<Privilege> {
  return PLATFORM_PRIVILEGES.get(roleOf(reader, username)) as ReadonlySet<Privilege>;
}

/** Privileges the user holds on one entity: its role's, plus the owners' when it owns the entity. */
export function entityPrivileges(reader: AspectReader, username: string, urn: string): ReadonlySet<Privilege> {
  const sets = ENTITY_PRIVILEGES.get(roleOf(reader, username)) as {
    owner: ReadonlySet<Privilege>;
    other: ReadonlySet<Privilege>;
  };
  // Where owning adds nothing (Admin, Editor), the owners need not be read: one aspect read less per edit.
  return sets.owner !== sets.other && isOwner(reader, username, urn) ? sets.owner : sets.other;
}

// Each role's privileges, and on entities each (role, owner or not) combination's, worked out once
// rather than on every request.
const PLATFORM_PRIVILEGES = new Map(
  [...ROLES, null].map(
    (role) => [role, new Set<Privilege>([...EVERYONE, ...(role === null ? [] : PLATFORM[role])])] as const,
  ),
);
const ENTITY_PRIVILEGES = new Map(
  [...ROLES, null].map((role) => {
    const base = role === null ? [] : ON_EVERY_ENTITY[role];
    const other = new Set<Privilege>(base);
    // One set for both when owning adds nothing, which entityPrivileges tells by identity.
    const owner = ON_OWNED_ENTITY.every((privilege) => other.has(privilege))
      ? other
      : new Set<Privilege>([...base, ...ON_OWNED_ENTITY]);
    return [role, { owner, other }] as const;
  }),
);

export function isOwner(reader: AspectReader, username: string, urn: string): boolean {
  const me = corpUserUrn(username);
  return objects(aspectObject(reader, urn, 'ownership'), 'owners').some((owner) => owner.owner === me);
}

/**
 * DataHub's check: passes when the user holds every privilege of at least one group, on `urn` (or on
 * the platform when `urn` is null); otherwise throws DataHub's 403.
 */
export function requirePrivileges(
  reader: AspectReader,
  username: string,
  urn: string | null,
  anyOf: Privilege[][],
): void {
  const held = urn === null ? platformPrivileges(reader, username) : entityPrivileges(reader, username, urn);
  if (anyOf.some((group) => group.every((privilege) => held.has(privilege)))) return;
  throw new MinihubError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
}
