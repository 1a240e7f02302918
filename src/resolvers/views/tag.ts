// The Tag view: tagProperties and ownership of one tag URN; a shell when the tag is unknown. Also the
// GlobalTags view of the entities that carry tags, which hands out Tag views.

import type { AspectReader } from '../../store/catalogue.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { aspectObject, objects, str, urnId } from '../../aspects/read.ts';
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

/** A globalTags-shaped object (an aspect, or a field's globalTags) as GraphQL GlobalTags. */
export function globalTagsView(reader: AspectReader, tags: JsonObject | null, associatedUrn: string) {
  if (tags === null) return null;
  return {
    tags: objects(tags, 'tags').flatMap((association) => {
      const tagUrn = str(association, 'tag');
      return tagUrn === null ? [] : [{ tag: new TagView(reader, tagUrn), associatedUrn }];
    }),
  };
}
