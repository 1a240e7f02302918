// The entity views search answers with: one per searched entity type, and the entities a facet value
// names (a platform, a tag, a container, an owner) with their display names. Reads only through a reader.

import type { AspectReader } from '../store/catalogue.ts';
import { aspectObject, str, urnId } from '../aspects/read.ts';
import { matchedFields, type MatchedField } from '../search/matched-fields.ts';
import type { Match } from '../search/ranked-matches.ts';
import { parseDatasetUrn, type DatasetKey } from '../urn.ts';
import { ContainerView } from './views/container.ts';
import { DatasetView } from './views/dataset.ts';
import { entityTypeOf, type EntityView } from './views/entity-registry.ts';
import { DataPlatformView } from './views/platform.ts';
import { CorpGroupView, CorpUserView } from './views/shared.ts';
import { TagView } from './views/tag.ts';

/** DataPlatform and Tag as Entity: graphql-js picks the interface's type by __typename. */
class PlatformEntity extends DataPlatformView {
  readonly __typename = 'DataPlatform';
}

class TagEntity extends TagView {
  readonly __typename = 'Tag';
}

/** The view of a searched entity, or of an entity a facet names; null for a type minihub has no view of. */
export function searchedEntity(reader: AspectReader, urn: string): EntityView | null {
  switch (entityTypeOf(urn)) {
    case 'dataset': {
      const key = datasetKeyOf(urn);
      return key === null ? null : new DatasetView(reader, urn, key);
    }
    case 'container':
      return new ContainerView(reader, urn);
    case 'tag':
      return new TagEntity(reader, urn);
    case 'corpuser':
      return new CorpUserView(reader, urn);
    case 'corpGroup':
      return new CorpGroupView(reader, urn);
    case 'dataPlatform':
      return new PlatformEntity(reader, urn);
    default:
      return null;
  }
}

// Parsing a dataset URN checks all of it, which costs more than remembering the answer: a page parses
// each of its results, and popular datasets come back search after search. Bounded: emptied when full.
const DATASET_KEYS = new Map<string, DatasetKey | null>();
const MAX_DATASET_KEYS = 16_384;

/** The key of a dataset URN, or null when it is not a valid one (no view is made of it). */
function datasetKeyOf(urn: string): DatasetKey | null {
  let key = DATASET_KEYS.get(urn);
  if (key === undefined) {
    try {
      // Frozen: every view of this URN, in every request, shares the one object.
      key = Object.freeze(parseDatasetUrn(urn));
    } catch {
      key = null;
    }
    if (DATASET_KEYS.size >= MAX_DATASET_KEYS) DATASET_KEYS.clear();
    DATASET_KEYS.set(urn, key);
  }
  return key;
}

/** The name a facet shows for `value`: the platform's, tag's, container's or owner's name; null for others. */
export function facetDisplayName(reader: AspectReader, field: string, value: string): string | null {
  const aspect = (name: string) => aspectObject(reader, value, name);
  switch (field) {
    case 'platform':
      return str(aspect('dataPlatformInfo'), 'displayName') ?? urnId(value);
    case 'tags':
      return str(aspect('tagProperties'), 'name') ?? urnId(value);
    case 'container':
      return str(aspect('containerProperties'), 'name') ?? urnId(value);
    case 'owners':
      return (
        str(aspect('corpUserEditableInfo'), 'displayName') ??
        str(aspect('corpUserInfo'), 'displayName') ??
        str(aspect('corpGroupInfo'), 'displayName') ??
        urnId(value)
      );
    default:
      return null;
  }
}

// The two below are classes, not objects of closures: a page makes one per result and per facet value, and a
// closure made per item costs more than a method on the prototype (graphql-js calls either the same way).

const NONE: readonly never[] = Object.freeze([]);

/** One of a page's results; its matched fields are worked out only when the document selects them. */
export class SearchResultView {
  // DataHub's insights and extraProperties, always empty here: one frozen array for every result.
  readonly insights = NONE;
  readonly extraProperties = NONE;
  readonly entity: EntityView;
  readonly #reader: AspectReader;
  readonly #match: Match;
  readonly #highlight: boolean;

  constructor(reader: AspectReader, match: Match, entity: EntityView, highlight: boolean) {
    this.entity = entity;
    this.#reader = reader;
    this.#match = match;
    this.#highlight = highlight;
  }

  /** DataHub finds matched fields by highlighting, which searchFlags.skipHighlighting turns off. */
  matchedFields(): MatchedField[] {
    return this.#highlight ? matchedFields(this.#reader, this.#match) : [];
  }
}

/** One value of a facet with its count; the entity it names and its display name only when selected. */
export class AggregationView {
  readonly value: string;
  readonly count: number;
  readonly #reader: AspectReader;
  readonly #field: string;

  constructor(reader: AspectReader, field: string, value: string, count: number) {
    this.value = value;
    this.count = count;
    this.#reader = reader;
    this.#field = field;
  }

  entity(): EntityView | null {
    return searchedEntity(this.#reader, this.value);
  }

  displayName(): string | null {
    return facetDisplayName(this.#reader, this.#field, this.value);
  }
}
