// The Container view: containerProperties with the current description (description.ts),
// the edit layer alone, and the parent container; a shell with exists: false when unknown.

import type { AspectReader } from '../../store/catalogue.ts';
import { aspectObject, str, urnId } from '../../aspects/read.ts';
import { currentDescription } from './description.ts';
import { DataPlatformView } from './platform.ts';
import { customProperties, institutionalMemoryView, ownershipView, subTypesView } from './shared.ts';
import { globalTagsView } from './tag.ts';

export class ContainerView {
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
    const parent = str(aspectObject(this.#reader, this.urn, 'container'), 'container');
    return parent === null ? null : new ContainerView(this.#reader, parent);
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
