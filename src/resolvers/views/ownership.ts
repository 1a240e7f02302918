// Ownership as DataHub answers it: each owner resolved to a CorpUser or CorpGroup by its URN's entity
// type, its ownership type as an OwnershipTypeEntity (the stored typeUrn, else DataHub's system type for
// the legacy `type`), and the groups themselves (corpGroupKey, corpGroupInfo, corpGroupEditableInfo).

import type { JsonObject } from '../../aspects/json.ts';
import { aspectObject, bool, obj, objects, str, strings, urnId } from '../../aspects/read.ts';
import type { AspectReader } from '../../store/catalogue.ts';
import { auditStamp, optionalAuditStamp } from './common.ts';
import { CorpUserView } from './corp-user.ts';

export class CorpGroupView {
  readonly __typename = 'CorpGroup';
  readonly type = 'CORP_GROUP';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  get name(): string {
    return str(aspectObject(this.#reader, this.urn, 'corpGroupKey'), 'name') ?? urnId(this.urn);
  }

  exists(): boolean {
    return this.#reader.exists(this.urn);
  }

  /** corpGroupInfo as DataHub's CorpGroupProperties; null when the group has none. */
  properties() {
    const info = this.#info();
    if (info === null) return null;
    return {
      displayName: str(info, 'displayName'),
      description: str(info, 'description'),
      email: str(info, 'email'),
      slack: str(info, 'slack'),
    };
  }

  /** DataHub's deprecated CorpGroupInfo, still asked by the web app's fragments: members as users. */
  info() {
    const info = this.#info();
    if (info === null) return null;
    const users = (key: string) => strings(info, key)?.map((urn) => new CorpUserView(this.#reader, urn)) ?? null;
    return {
      displayName: str(info, 'displayName'),
      description: str(info, 'description'),
      email: str(info, 'email'),
      admins: users('admins'),
      members: users('members'),
      groups: strings(info, 'groups'),
    };
  }

  /** The group's edit layer (corpGroupEditableInfo), as DataHub answers it; null when never edited. */
  editableProperties() {
    const info = aspectObject(this.#reader, this.urn, 'corpGroupEditableInfo');
    if (info === null) return null;
    return {
      description: str(info, 'description'),
      slack: str(info, 'slack'),
      email: str(info, 'email'),
      pictureLink: str(info, 'pictureLink'),
    };
  }

  ownership() {
    return ownershipView(this.#reader, this.urn);
  }

  #info(): JsonObject | null {
    return aspectObject(this.#reader, this.urn, 'corpGroupInfo');
  }
}

/** A user or group URN as the ResolvedActor / OwnerType union member it names. */
export function actorView(reader: AspectReader, urn: string): CorpUserView | CorpGroupView {
  return urn.startsWith('urn:li:corpGroup:') ? new CorpGroupView(reader, urn) : new CorpUserView(reader, urn);
}

// DataHub's OwnershipType enum; a stored type outside it answers CUSTOM, as DataHub's mapper does.
const OWNERSHIP_TYPES = new Set([
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'CUSTOM',
  'DATAOWNER',
  'DEVELOPER',
  'DELEGATE',
  'PRODUCER',
  'CONSUMER',
  'STAKEHOLDER',
]);
const OWNERSHIP_SOURCE_TYPES = new Set([
  'AUDIT',
  'DATABASE',
  'FILE_SYSTEM',
  'ISSUE_TRACKING_SYSTEM',
  'MANUAL',
  'SERVICE',
  'SOURCE_CONTROL',
  'OTHER',
]);
const SYSTEM_TYPE_PREFIX = 'urn:li:ownershipType:__system__';
// The ownership types DataHub creates at boot, by their system id; other system ids have no info.
const SYSTEM_TYPE_INFO = new Map([
  ['technical_owner', { name: 'Technical Owner', description: 'Builds, runs or maintains the asset.' }],
  ['business_owner', { name: 'Business Owner', description: 'Answers for what the asset means to the business.' }],
  ['data_steward', { name: 'Data Steward', description: 'Looks after the governance of the asset.' }],
  ['none', { name: 'None', description: 'No ownership type given.' }],
]);
// Ownership's lastModified when the aspect has none: the default DataHub's model gives it.
const UNKNOWN_STAMP = { time: 0, actor: 'urn:li:corpuser:unknown' };

export function ownershipView(reader: AspectReader, urn: string) {
  const ownership = aspectObject(reader, urn, 'ownership');
  if (ownership === null) return null;
  const lastModified = obj(ownership, 'lastModified');
  return {
    owners: objects(ownership, 'owners').flatMap((owner) => {
      const ownerUrn = str(owner, 'owner');
      return ownerUrn === null ? [] : [ownerView(reader, owner, ownerUrn, urn)];
    }),
    lastModified: lastModified === null ? UNKNOWN_STAMP : auditStamp(lastModified),
  };
}

function ownerView(reader: AspectReader, owner: JsonObject, ownerUrn: string, associatedUrn: string) {
  const stored = str(owner, 'type');
  // DataHub's model gives a missing type NONE; a type only a newer DataHub knows reads as CUSTOM.
  const type = stored === null ? 'NONE' : OWNERSHIP_TYPES.has(stored) ? stored : 'CUSTOM';
  const typeUrn = str(owner, 'typeUrn') ?? `${SYSTEM_TYPE_PREFIX}${type.toLowerCase()}`;
  return {
    owner: actorView(reader, ownerUrn),
    type,
    ownershipType: new OwnershipTypeView(reader, typeUrn),
    source: ownershipSource(obj(owner, 'source')),
    associatedUrn,
  };
}

function ownershipSource(source: JsonObject | null) {
  const type = str(source, 'type');
  if (type === null || !OWNERSHIP_SOURCE_TYPES.has(type)) return null;
  return { type, url: str(source, 'url') };
}

/** DataHub's OwnershipTypeEntity: an ownership type's stored info, else DataHub's system type's. */
export class OwnershipTypeView {
  readonly __typename = 'OwnershipTypeEntity';
  readonly type = 'CUSTOM_OWNERSHIP_TYPE';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  info() {
    const stored = aspectObject(this.#reader, this.urn, 'ownershipTypeInfo');
    if (stored !== null) {
      return {
        name: str(stored, 'name') ?? urnId(this.urn),
        description: str(stored, 'description'),
        created: optionalAuditStamp(obj(stored, 'created')),
        lastModified: optionalAuditStamp(obj(stored, 'lastModified')),
      };
    }
    const system = this.urn.startsWith(SYSTEM_TYPE_PREFIX)
      ? SYSTEM_TYPE_INFO.get(this.urn.slice(SYSTEM_TYPE_PREFIX.length))
      : undefined;
    return system === undefined ? null : { ...system, created: null, lastModified: null };
  }

  status() {
    const status = aspectObject(this.#reader, this.urn, 'status');
    return status === null ? null : { removed: bool(status, 'removed') ?? false };
  }
}
