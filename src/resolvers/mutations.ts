// Mutation root fields. Each validates its input, then commits one change built against the current
// state inside the store's commit queue, so checks and writes happen in log order with nothing between.

import { randomUUID } from 'node:crypto';

import { requirePrivileges, type Privilege } from '../auth/privileges.ts';
import { badRequest } from '../errors.ts';
import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import type { JsonObject } from '../store/json.ts';
import { corpUserUrn, parseDatasetUrn, parseUrn } from '../urn.ts';
import type { RequestContext } from './context.ts';
import { editFieldDescription, upsertLinks, removeLinkChange, type NewLink } from './edits.ts';
import { checkTextSizes } from './text-limit.ts';
import { DatasetView } from './views/dataset.ts';

interface DatasetUpdateInput {
  editableProperties?: { description: string; name?: string | null } | null;
  institutionalMemory?: { elements: { url: string; description?: string | null; author: string; createdAt?: number | null }[] } | null;
}

interface DescriptionUpdateInput {
  description: string;
  resourceUrn: string;
  subResourceType?: 'DATASET_FIELD' | null;
  subResource?: string | null;
}

interface CreateTagInput {
  id?: string | null;
  name: string;
  description?: string | null;
}

const LINK_ENTITY_TYPES = ['dataset', 'container'];
const EDIT_DOCS: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_ENTITY_DOCS']];
const EDIT_LINKS: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_ENTITY_DOC_LINKS']];

export const mutations = {
  async updateDataset({ urn, input }: { urn: string; input: DatasetUpdateInput }, { store, actor, limits }: RequestContext) {
    const key = parseDatasetUrn(urn);
    checkTextSizes(limits, { 'editableProperties.description': input.editableProperties?.description, 'editableProperties.name': input.editableProperties?.name });
    for (const element of input.institutionalMemory?.elements ?? []) {
      checkTextSizes(limits, { 'institutionalMemory url': element.url, 'institutionalMemory description': element.description });
    }
    // EDIT_ENTITY, or every section's own privilege (none for an empty input), as DataHub checks it.
    const specific: Privilege[] = [];
    if (input.editableProperties != null) specific.push('EDIT_ENTITY_DOCS');
    if (input.institutionalMemory != null) specific.push('EDIT_ENTITY_DOC_LINKS');
    requirePrivileges(store.catalogue, actor, urn, [['EDIT_ENTITY'], specific]);
    const actorUrn = corpUserUrn(actor);
    const links = (input.institutionalMemory?.elements ?? []).map((element): NewLink => {
      if (element.description == null) {
        throw badRequest(`institutionalMemory element for "${element.url}" has no description; every link needs one`);
      }
      return { url: element.url, description: element.description, author: element.author, time: element.createdAt ?? Date.now() };
    });
    await store.commit('updateDataset', actorUrn, (reader) => {
      requireExisting(reader, urn);
      const changes: AspectChange[] = [];
      if (input.editableProperties != null) {
        changes.push(editablePropertiesChange(reader, urn, input.editableProperties, actorUrn));
      }
      if (input.institutionalMemory != null) changes.push(upsertLinks(reader, urn, links));
      return changes;
    });
    return new DatasetView(store.catalogue, urn, key);
  },

  async updateDescription({ input }: { input: DescriptionUpdateInput }, { store, actor, limits }: RequestContext): Promise<boolean> {
    const { description, resourceUrn, subResourceType, subResource } = input;
    checkTextSizes(limits, { description, subResource });
    const entityType = parseUrn(resourceUrn).entityType;
    const actorUrn = corpUserUrn(actor);
    let build: (reader: AspectReader) => AspectChange[];
    if (entityType === 'dataset') {
      parseDatasetUrn(resourceUrn);
      requirePrivileges(store.catalogue, actor, resourceUrn, [['EDIT_ENTITY'], ['EDIT_DATASET_COL_DESCRIPTION']]);
      if (subResourceType == null) throw badRequest('Update description without subresource is not currently supported');
      build = (reader) => [editFieldDescription(reader, resourceUrn, subResource ?? 'null', description)];
    } else if (entityType === 'container') {
      requirePrivileges(store.catalogue, actor, resourceUrn, EDIT_DOCS);
      build = (reader) => {
        requireExisting(reader, resourceUrn);
        const editable = reader.aspect(resourceUrn, 'editableContainerProperties');
        return [{ urn: resourceUrn, aspect: 'editableContainerProperties', value: { ...asObject(editable), description } }];
      };
    } else if (entityType === 'tag') {
      requirePrivileges(store.catalogue, actor, resourceUrn, EDIT_DOCS);
      build = (reader) => {
        requireExisting(reader, resourceUrn);
        const properties = reader.aspect(resourceUrn, 'tagProperties');
        if (properties === undefined) throw badRequest('Properties for this Tag do not yet exist!');
        return [{ urn: resourceUrn, aspect: 'tagProperties', value: { ...asObject(properties), description } }];
      };
    } else {
      throw badRequest(
        `Failed to update description. Unsupported resource type ${resourceUrn} provided. ` +
          'minihub supports dataset fields (subResourceType: DATASET_FIELD), containers and tags',
      );
    }
    await store.commit('updateDescription', actorUrn, build);
    return true;
  },

  async createTag({ input }: { input: CreateTagInput }, { store, actor, limits }: RequestContext): Promise<string> {
    checkTextSizes(limits, { name: input.name, description: input.description });
    requirePrivileges(store.catalogue, actor, null, [['CREATE_TAGS'], ['MANAGE_TAGS']]);
    if (input.id != null && (input.id === '' || input.id.trim() !== input.id)) {
      throw badRequest(`tag id ${JSON.stringify(input.id)} is not usable: expected a non-empty id without leading or trailing whitespace`);
    }
    const urn = `urn:li:tag:${input.id ?? randomUUID()}`;
    parseUrn(urn);
    const actorUrn = corpUserUrn(actor);
    const stamp = { time: Date.now(), actor: actorUrn };
    const properties: JsonObject = { name: input.name, ...(input.description == null ? {} : { description: input.description }) };
    await store.commit('createTag', actorUrn, (reader) => {
      if (reader.exists(urn)) throw badRequest('This Tag already exists!');
      return [
        { urn, aspect: 'tagProperties', value: properties },
        // DataHub makes the creator an owner of the new tag.
        { urn, aspect: 'ownership', value: { owners: [{ owner: actorUrn, type: 'TECHNICAL_OWNER' }], lastModified: stamp } },
      ];
    });
    return urn;
  },

  async addLink({ input }: { input: { linkUrl: string; label: string; resourceUrn: string } }, { store, actor, limits }: RequestContext) {
    const { linkUrl, label, resourceUrn } = input;
    checkTextSizes(limits, { linkUrl, label });
    expectLinkTarget(resourceUrn);
    requirePrivileges(store.catalogue, actor, resourceUrn, EDIT_LINKS);
    const actorUrn = corpUserUrn(actor);
    const link: NewLink = { url: linkUrl, description: label, author: actorUrn, time: Date.now() };
    await store.commit('addLink', actorUrn, (reader) => {
      requireExisting(reader, resourceUrn);
      return [upsertLinks(reader, resourceUrn, [link])];
    });
    return true;
  },

  async removeLink({ input }: { input: { linkUrl: string; resourceUrn: string } }, { store, actor }: RequestContext) {
    const { linkUrl, resourceUrn } = input;
    expectLinkTarget(resourceUrn);
    requirePrivileges(store.catalogue, actor, resourceUrn, EDIT_LINKS);
    await store.commit('removeLink', corpUserUrn(actor), (reader) => {
      requireExisting(reader, resourceUrn);
      return removeLinkChange(reader, resourceUrn, linkUrl);
    });
    return true;
  },
};

function requireExisting(reader: AspectReader, urn: string): void {
  if (!reader.exists(urn)) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
}

function expectLinkTarget(urn: string): void {
  const entityType = parseUrn(urn).entityType;
  if (entityType === 'dataset') parseDatasetUrn(urn);
  if (!LINK_ENTITY_TYPES.includes(entityType)) {
    throw badRequest(`Failed to change links of ${urn}: minihub keeps links on ${LINK_ENTITY_TYPES.join(' and ')} entities, not ${entityType}`);
  }
}

function editablePropertiesChange(
  reader: AspectReader,
  urn: string,
  update: { description: string; name?: string | null },
  actorUrn: string,
): AspectChange {
  const stamp = { time: Date.now(), actor: actorUrn };
  const previous = asObject(reader.aspect(urn, 'editableDatasetProperties'));
  // DataHub rebuilds the whole aspect: an editable name not given again is dropped.
  const value: JsonObject = {
    created: previous.created ?? stamp,
    lastModified: stamp,
    description: update.description,
    ...(update.name == null ? {} : { name: update.name }),
  };
  return { urn, aspect: 'editableDatasetProperties', value };
}

function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

