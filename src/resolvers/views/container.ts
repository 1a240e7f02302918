// The Container view: containerProperties with the current description (description.ts), the edit
// layer alone, the parent containers and the entities inside; a shell with exists: false when unknown.

import type { AspectReader } from '../../store/catalogue.ts';
import { aspectObject, str, urnId } from '../../aspects/read.ts';
import { containerEntities, type ContainerEntitiesInput } from './contained.ts';
import { currentDescription } from './description.ts';
import { registerEntityView } from './entity-registry.ts';
import { deprecationView, domainView, glossaryTermsView, statusView } from './governance.ts';
import { DataPlatformView } from './platform.ts';
import { customProperties, institutionalMemoryView, ownershipView, subTypesView } from './shared.ts';
import { globalTagsView } from './tag.ts';

/** The container `urn`'s container aspect names, as a view; null when it has none. */
export function containerOf(reader: AspectReader, urn: string): ContainerView | null {
  const parent = str(aspectObject(reader, urn, 'container'), 'container');
  return parent === null ? null : new ContainerView(reader, parent);
}

/**
 * ParentContainersResult: the direct container first, then its container, and so on. Ingested data may
 * hold a cycle; the walk stops at the first container it has already seen.
 */
export function parentContainersOf(reader: AspectReader, urn: string) {
  const containers: ContainerView[] = [];
  const seen = new Set([urn]);
  for (let parent = containerOf(reader, urn); parent !== null && !seen.has(parent.urn);) {
    seen.add(parent.urn);
    containers.push(parent);
    parent = containerOf(reader, parent.urn);
  }
  return { count: containers.length, containers };
}

export class ContainerView {
  readonly __typename = 'Container';
  readonly type = 'CONTAINER';
  readonly urn: string;
  readonly #reader: AspectReader;

  constructor(reader: AspectReader, urn: string) {
    this.#reader = reader;
    this.urn = urn;
  }

  exists(): boolean {
    return this.#reader.exists(this.urn);
  }

  platform(): DataPlatformView {
    const instance = aspectObject(this.#reader, this.urn, 'dataPlatformInstance');
    return new DataPlatformView(this.#reader, str(instance, 'platform') ?? 'urn:li:dataPlatform:unknown');
  }

  properties() {
    const properties = aspectObject(this.#reader, this.urn, 'containerProperties');
    const edited = this.editableProperties()?.description;
    if (properties === null && edited == null) return null;
    return {
      name: str(properties, 'name') ?? urnId(this.urn),
      description: currentDescription(edited, properties),
      customProperties: customProperties(properties, this.urn),
      externalUrl: str(properties, 'externalUrl'),
      qualifiedName: str(properties, 'qualifiedName'),
    };
  }

  editableProperties() {
    const editable = aspectObject(this.#reader, this.urn, 'editableContainerProperties');
    return editable === null ? null : { description: str(editable, 'description') };
  }

  container(): ContainerView | null {
    return containerOf(this.#reader, this.urn);
  }

  parentContainers() {
    return parentContainersOf(this.#reader, this.urn);
  }

  entities({ input }: { input?: ContainerEntitiesInput | null }) {
    return containerEntities(this.#reader, this.urn, input ?? null);
  }

  status() {
    return statusView(this.#reader, this.urn);
  }

  deprecation() {
    return deprecationView(this.#reader, this.urn);
  }

  glossaryTerms() {
    return glossaryTermsView(this.#reader, this.urn);
  }

  domain() {
    return domainView(this.#reader, this.urn);
  }

  ownership() {
    return ownershipView(this.#reader, this.urn);
  }

  institutionalMemory() {
    return institutionalMemoryView(this.#reader, this.urn);
  }

  subTypes() {
    return subTypesView(this.#reader, this.urn);
  }

  tags() {
    return globalTagsView(this.#reader, aspectObject(this.#reader, this.urn, 'globalTags'), this.urn);
  }
}

registerEntityView('container', {
  view: (reader, urn) => new ContainerView(reader, urn),
  name: (reader, urn) => str(aspectObject(reader, urn, 'containerProperties'), 'name') ?? urnId(urn),
});
