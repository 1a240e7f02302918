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
  | PlatformPrivilege;

/** DataHub's platform privileges (not scoped to an entity) that its PlatformPrivileges flags stand for. */
export type PlatformPrivilege =
  | 'VIEW_ANALYTICS'
  | 'MANAGE_POLICIES'
  | 'MANAGE_USERS_AND_GROUPS'
  | 'GENERATE_PERSONAL_ACCESS_TOKENS'
  | 'CREATE_DOMAINS'
  | 'MANAGE_DOMAINS'
  | 'MANAGE_INGESTION'
  | 'MANAGE_SECRETS'
  | 'MANAGE_ACCESS_TOKENS'
  | 'VIEW_TESTS'
  | 'MANAGE_TESTS'
  | 'MANAGE_GLOSSARIES'
  | 'MANAGE_USER_CREDENTIALS'
  | 'CREATE_TAGS'
  | 'MANAGE_TAGS'
  | 'MANAGE_GLOBAL_VIEWS'
  | 'MANAGE_GLOBAL_OWNERSHIP_TYPES'
  | 'MANAGE_GLOBAL_ANNOUNCEMENTS'
  | 'CREATE_BUSINESS_ATTRIBUTE'
  | 'MANAGE_BUSINESS_ATTRIBUTE'
  | 'MANAGE_STRUCTURED_PROPERTIES'
  | 'VIEW_STRUCTURED_PROPERTIES_PAGE';

/**
 * Each of DataHub's PlatformPrivileges flags (`me { platformPrivileges }`) and the privileges that set
 * it: any one of them, as DataHub's MeResolver and AuthorizationUtils decide (createTags is CREATE_TAGS
 * or MANAGE_TAGS, and so on).
 */
export const PLATFORM_FLAGS = {
  viewAnalytics: ['VIEW_ANALYTICS'],
  managePolicies: ['MANAGE_POLICIES'],
  manageIdentities: ['MANAGE_USERS_AND_GROUPS'],
  generatePersonalAccessTokens: ['GENERATE_PERSONAL_ACCESS_TOKENS'],
  createDomains: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'],
  manageDomains: ['MANAGE_DOMAINS'],
  manageIngestion: ['MANAGE_INGESTION'],
  manageSecrets: ['MANAGE_SECRETS'],
  manageTokens: ['MANAGE_ACCESS_TOKENS'],
  viewTests: ['VIEW_TESTS', 'MANAGE_TESTS'],
  manageTests: ['MANAGE_TESTS'],
  manageGlossaries: ['MANAGE_GLOSSARIES'],
  manageUserCredentials: ['MANAGE_USER_CREDENTIALS'],
  createTags: ['CREATE_TAGS', 'MANAGE_TAGS'],
  manageTags: ['MANAGE_TAGS'],
  manageGlobalViews: ['MANAGE_GLOBAL_VIEWS'],
  manageOwnershipTypes: ['MANAGE_GLOBAL_OWNERSHIP_TYPES'],
  manageGlobalAnnouncements: ['MANAGE_GLOBAL_ANNOUNCEMENTS'],
  createBusinessAttributes: ['CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'],
  manageBusinessAttributes: ['MANAGE_BUSINESS_ATTRIBUTE'],
  manageStructuredProperties: ['MANAGE_STRUCTURED_PROPERTIES'],
  viewStructuredPropertiesPage: ['VIEW_STRUCTURED_PROPERTIES_PAGE', 'MANAGE_STRUCTURED_PROPERTIES'],
} as const satisfies Record<string, readonly PlatformPrivilege[]>;

export type PlatformFlag = keyof typeof PLATFORM_FLAGS;

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

// Platform privileges, as DataHub's default policies grant them: everyone analytics and token
// generation (dataHubPolicy:7); Admin every platform privilege; Editor the editors' platform policy's;
// Reader nothing more.
const EVERYONE: Privilege[] = ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'];
const ALL_PLATFORM = [...new Set(Object.values(PLATFORM_FLAGS).flat())];
const PLATFORM: Record<Role, Privilege[]> = {
  Admin: ALL_PLATFORM,
  Editor: ['MANAGE_DOMAINS', 'MANAGE_GLOBAL_ANNOUNCEMENTS', 'MANAGE_GLOSSARIES', 'MANAGE_TAGS'],
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

/** Every PlatformPrivileges flag, true when the user holds any privilege PLATFORM_FLAGS lists for it. */
export function platformFlags(reader: AspectReader, username: string): Record<PlatformFlag, boolean> {
  const held = platformPrivileges(reader, username);
  const entries = Object.entries(PLATFORM_FLAGS).map(
    ([flag, privileges]) => [flag, privileges.some((privilege) => held.has(privilege))] as const,
  );
  return Object.fromEntries(entries) as Record<PlatformFlag, boolean>;
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
 * Whether the user may write metadata over DataHub's REST protocol (ingestProposal, entities ingest and
 * delete): Admins only. DataHub asks for EDIT_ENTITY (DELETE_ENTITY for deletes) on each URN, which its
 * default policies give Editors too; minihub does not, because a proposal may write any aspect, roleMembership
 * and ownership included, so an Editor could make itself an Admin or the owner of anything.
 */
export function mayIngest(reader: AspectReader, username: string): boolean {
  return roleOf(reader, username) === 'Admin';
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
