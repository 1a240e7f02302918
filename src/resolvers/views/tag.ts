// The Tag view: tagProperties and ownership of one tag URN; a shell when the tag is unknown.

import type { AspectReader } from '../../store/catalogue.ts';
import { aspectObject, str, urnId } from '../../store/read.ts';
import { ownershipView } from './shared.ts';

export class TagView {
  readonly type = 'TAG';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  /** DataHub's deprecated Tag.name is the id from the URN, not properties.name. */
  get name(): string {
    return urnId(this.urn);
  }

  properties() {
    const properties = aspectObject(this.#reader, this.urn, 'tagProperties');
    if (properties === null) return null;
    return {
      name: str(properties, 'name') ?? this.name,
      description: str(properties, 'description'),
      colorHex: str(properties, 'colorHex'),
    };
  }

  description(): string | null {
    return this.properties()?.description ?? null;
  }

  ownership() {
    return ownershipView(this.#reader, this.urn);
  }
}
