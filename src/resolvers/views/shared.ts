// Views of aspects several entity types share: ownership, tags, links, audit stamps, custom properties,
// and the users and groups they point at. Plain objects for graphql-js's default field resolver.

import { userExists } from '../../auth/users.ts';
import type { AspectReader } from '../../store/catalogue.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { aspectObject, bool, num, obj, objects, str, strings, urnId } from '../../aspects/read.ts';

export interface AuditStampView {
  time: number;
  actor: string | null;
}

export function auditStamp(stamp: JsonObject | null): AuditStampView {
  return { time: num(stamp, 'time') ?? 0, actor: str(stamp, 'actor') };
}

export function customProperties(properties: JsonObject | null, urn: string) {
  const map = obj(properties, 'customProperties');
  if (map === null) return null;
  return Object.entries(map).map(([key, value]) => ({
    key,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    associatedUrn: urn,
  }));
}

export class CorpUserView {
  readonly __typename = 'CorpUser';
  readonly type = 'CORP_USER';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  get username(): string {
    return urnId(this.urn);
  }

  exists(): boolean {
    return userExists(this.#reader, this.username);
  }

  properties() {
    const info = aspectObject(this.#reader, this.urn, 'corpUserInfo');
    if (info === null) return null;
    return {
      active: bool(info, 'active') ?? true,
      displayName: str(info, 'displayName'),
      email: str(info, 'email'),
      title: str(info, 'title'),
      firstName: str(info, 'firstName'),
      lastName: str(info, 'lastName'),
      fullName: str(info, 'fullName'),
    };
  }

  info() {
    return this.properties();
  }
}

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
    return urnId(this.urn);
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
}

/** A user or group URN as the ResolvedActor / OwnerType union member it names. */
export function actorView(reader: AspectReader, urn: string): CorpUserView | CorpGroupView {
  return urn.startsWith('urn:li:corpGroup:') ? new CorpGroupView(reader, urn) : new CorpUserView(reader, urn);
}

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

export function ownershipView(reader: AspectReader, urn: string) {
  const ownership = aspectObject(reader, urn, 'ownership');
  if (ownership === null) return null;
  return {
    owners: objects(ownership, 'owners').flatMap((owner) => {
      const ownerUrn = str(owner, 'owner');
      if (ownerUrn === null) return [];
      const type = str(owner, 'type');
      return [
        {
          owner: actorView(reader, ownerUrn),
          type: type !== null && OWNERSHIP_TYPES.has(type) ? type : null,
          associatedUrn: urn,
        },
      ];
    }),
    lastModified: auditStamp(obj(ownership, 'lastModified')),
  };
}

export function institutionalMemoryView(reader: AspectReader, urn: string) {
  const memory = aspectObject(reader, urn, 'institutionalMemory');
  if (memory === null) return null;
  return {
    elements: objects(memory, 'elements').map((element) => {
      const created = auditStamp(obj(element, 'createStamp'));
      const actorUrn = created.actor ?? 'urn:li:corpuser:unknown';
      const label = str(element, 'description') ?? '';
      return {
        url: str(element, 'url') ?? '',
        label,
        description: label,
        author: new CorpUserView(reader, actorUrn),
        actor: actorView(reader, actorUrn),
        created,
        associatedUrn: urn,
      };
    }),
  };
}

export function subTypesView(reader: AspectReader, urn: string) {
  const subTypes = aspectObject(reader, urn, 'subTypes');
  return subTypes === null ? null : { typeNames: strings(subTypes, 'typeNames') };
}
