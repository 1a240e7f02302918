// CorpUser as DataHub answers it, from the user's aspects: corpUserInfo (properties, info),
// corpUserEditableInfo (editableProperties, editableInfo), corpUserStatus, corpUserCredentials.
// Reads only; what a user may do is privileges.ts's business.

import { userExists, userRemoved } from '../../auth/users.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { aspectObject, bool, num, str, strings, urnId } from '../../aspects/read.ts';
import type { AspectReader } from '../../store/catalogue.ts';
import { customProperties } from './common.ts';

// DataHub's CorpUserStatus enum: a stored status outside it answers null.
const USER_STATUSES = new Set(['ACTIVE']);

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
    return str(aspectObject(this.#reader, this.urn, 'corpUserKey'), 'username') ?? urnId(this.urn);
  }

  exists(): boolean {
    return userExists(this.#reader, urnId(this.urn));
  }

  /** corpUserInfo as DataHub's CorpUserProperties; null when the user has none. */
  properties() {
    return userInfoView(this.#reader, this.urn, aspectObject(this.#reader, this.urn, 'corpUserInfo'));
  }

  /** DataHub's deprecated twin of properties, answered from the same aspect. */
  info() {
    return this.properties();
  }

  /** What the user edited about itself (corpUserEditableInfo); null when never edited. */
  editableProperties() {
    const info = aspectObject(this.#reader, this.urn, 'corpUserEditableInfo');
    if (info === null) return null;
    return {
      ...editableInfoView(info),
      slack: str(info, 'slack'),
      phone: str(info, 'phone'),
      email: str(info, 'email'),
    };
  }

  /** DataHub's deprecated twin of editableProperties, with the fields its older type has. */
  editableInfo() {
    const info = aspectObject(this.#reader, this.urn, 'corpUserEditableInfo');
    return info === null ? null : editableInfoView(info);
  }

  status(): string | null {
    const status = str(aspectObject(this.#reader, this.urn, 'corpUserStatus'), 'status');
    return status !== null && USER_STATUSES.has(status) ? status : null;
  }

  /**
   * True for a user minihub's own user store holds (the root user, and every user in the catalogue that
   * is not removed): those are the users minihub signs in. Otherwise DataHub's rule: true when stored
   * credentials hold a salt and a hashed password, null when there are none.
   */
  isNativeUser(): boolean | null {
    const username = urnId(this.urn);
    if (userExists(this.#reader, username) && !userRemoved(this.#reader, username, this.urn)) return true;
    const credentials = aspectObject(this.#reader, this.urn, 'corpUserCredentials');
    if (credentials === null) return null;
    return str(credentials, 'salt') !== null && str(credentials, 'hashedPassword') !== null;
  }
}

function userInfoView(reader: AspectReader, urn: string, info: JsonObject | null) {
  if (info === null) return null;
  const managerUrn = str(info, 'managerUrn');
  return {
    active: bool(info, 'active') ?? true,
    displayName: str(info, 'displayName'),
    email: str(info, 'email'),
    title: str(info, 'title'),
    manager: managerUrn === null ? null : new CorpUserView(reader, managerUrn),
    departmentId: num(info, 'departmentId'),
    departmentName: str(info, 'departmentName'),
    firstName: str(info, 'firstName'),
    lastName: str(info, 'lastName'),
    fullName: str(info, 'fullName'),
    countryCode: str(info, 'countryCode'),
    customProperties: customProperties(info, urn),
  };
}

function editableInfoView(info: JsonObject) {
  return {
    displayName: str(info, 'displayName'),
    title: str(info, 'title'),
    aboutMe: str(info, 'aboutMe'),
    teams: strings(info, 'teams'),
    skills: strings(info, 'skills'),
    pictureLink: str(info, 'pictureLink'),
  };
}
