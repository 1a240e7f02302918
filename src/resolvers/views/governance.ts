// Views of the governance aspects ingest brings and minihub keeps as they came: status, deprecation,
// glossaryTerms and domains, with the glossary terms and domains they point at. Read-only: nothing edits them.

import type { AspectReader } from '../../store/catalogue.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { aspectObject, bool, num, objects, str, strings, urnId } from '../../aspects/read.ts';
import { actorView, CorpUserView, customProperties, ownershipView } from './shared.ts';

/** Status {removed}, or null when the entity has no status aspect. */
export function statusView(reader: AspectReader, urn: string) {
  const status = aspectObject(reader, urn, 'status');
  return status === null ? null : { removed: bool(status, 'removed') ?? false };
}

/** Deprecation from the deprecation aspect, or null without one. */
export function deprecationView(reader: AspectReader, urn: string) {
  const deprecation = aspectObject(reader, urn, 'deprecation');
  if (deprecation === null) return null;
  const actor = str(deprecation, 'actor');
  return {
    deprecated: bool(deprecation, 'deprecated') ?? false,
    decommissionTime: num(deprecation, 'decommissionTime'),
    note: str(deprecation, 'note'),
    actor,
    actorEntity: actor === null ? null : actorView(reader, actor),
  };
}

/** GlossaryTerms from the entity's glossaryTerms aspect, or null without one. */
export function glossaryTermsView(reader: AspectReader, urn: string) {
  return glossaryTermsOf(reader, aspectObject(reader, urn, 'glossaryTerms'), urn);
}

/** A glossaryTerms-shaped object (the aspect, or a column's glossaryTerms) as GraphQL GlossaryTerms. */
export function glossaryTermsOf(reader: AspectReader, terms: JsonObject | null, urn: string) {
  if (terms === null) return null;
  return {
    terms: objects(terms, 'terms').flatMap((association) => {
      const termUrn = str(association, 'urn');
      if (termUrn === null) return [];
      const actor = str(association, 'actor');
      return [
        {
          term: new GlossaryTermView(reader, termUrn),
          actor: actor === null ? null : new CorpUserView(reader, actor),
          associatedUrn: urn,
        },
      ];
    }),
  };
}

/** DomainAssociation for the first domain of the domains aspect, as DataHub shows one; null without one. */
export function domainView(reader: AspectReader, urn: string) {
  const domain = strings(aspectObject(reader, urn, 'domains'), 'domains')?.[0];
  return domain === undefined ? null : { domain: new DomainView(reader, domain), associatedUrn: urn };
}

/** A glossary term; a term with no aspects is answered by its URN alone, properties null. */
export class GlossaryTermView {
  readonly __typename = 'GlossaryTerm';
  readonly type = 'GLOSSARY_TERM';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  /** The URN's id, e.g. `Classification.Sensitive`. */
  get hierarchicalName(): string {
    return urnId(this.urn);
  }

  /** DataHub's deprecated name: the last part of the hierarchical name. */
  get name(): string {
    const id = this.hierarchicalName;
    return id.slice(id.lastIndexOf('.') + 1);
  }

  exists(): boolean {
    return this.#reader.exists(this.urn);
  }

  properties() {
    const info = aspectObject(this.#reader, this.urn, 'glossaryTermInfo');
    if (info === null) return null;
    const definition = str(info, 'definition') ?? '';
    return {
      name: str(info, 'name') ?? this.name,
      description: definition,
      definition,
      termSource: str(info, 'termSource') ?? '',
      sourceRef: str(info, 'sourceRef'),
      sourceUrl: str(info, 'sourceUrl'),
      customProperties: customProperties(info, this.urn),
      rawSchema: str(info, 'rawSchema'),
    };
  }

  ownership() {
    return ownershipView(this.#reader, this.urn);
  }
}

/** A domain; one with no aspects is answered by its URN alone, properties null. */
export class DomainView {
  readonly __typename = 'Domain';
  readonly type = 'DOMAIN';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  get id(): string {
    return urnId(this.urn);
  }

  properties() {
    const properties = aspectObject(this.#reader, this.urn, 'domainProperties');
    if (properties === null) return null;
    return { name: str(properties, 'name') ?? this.id, description: str(properties, 'description') };
  }

  ownership() {
    return ownershipView(this.#reader, this.urn);
  }
}
