// The DataPlatform view: the platform named in a URN, with dataPlatformInfo when it was ingested.

import type { AspectReader } from '../../store/catalogue.ts';
import { aspectObject, str, urnId } from '../../aspects/read.ts';

const PLATFORM_TYPES = new Set([
  'FILE_SYSTEM',
  'KEY_VALUE_STORE',
  'MESSAGE_BROKER',
  'OBJECT_STORE',
  'OLAP_DATASTORE',
  'QUERY_ENGINE',
  'RELATIONAL_DB',
  'SEARCH_ENGINE',
  'OTHERS',
]);

export class DataPlatformView {
  readonly type = 'DATA_PLATFORM';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  get name(): string {
    return str(this.#info(), 'name') ?? urnId(this.urn);
  }

  properties() {
    const info = this.#info();
    if (info === null) return null;
    const type = str(info, 'type');
    return {
      type: type !== null && PLATFORM_TYPES.has(type) ? type : 'OTHERS',
      displayName: str(info, 'displayName'),
      datasetNameDelimiter: str(info, 'datasetNameDelimiter') ?? '.',
      logoUrl: str(info, 'logoUrl'),
    };
  }

  /** DataHub's deprecated `info`: the same dataPlatformInfo as `properties`. */
  info() {
    return this.properties();
  }

  displayName(): string | null {
    return str(this.#info(), 'displayName');
  }

  #info() {
    return aspectObject(this.#reader, this.urn, 'dataPlatformInfo');
  }
}
