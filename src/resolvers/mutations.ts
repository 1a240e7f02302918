// Mutation root fields. Each checks the shape of its input, then commits one change through
// guardedCommit: privileges first (DataHub checks them before existence), then existence and the
// current state, then the change, all inside the commit builder, on the state the write lands on.

import { randomUUID } from 'node:crypto';

import type { Privilege } from '../auth/privileges.ts';
import { badRequest, shown } from '../errors.ts';
import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import { isJsonObject, type JsonObject } from '../aspects/json.ts';
import { aspectObject } from '../aspects/read.ts';
import { checkedEntityType, corpUserUrn, givenTagUrn, parseDatasetUrn } from '../urn.ts';
import type { MutationContext } from './context.ts';
import { editFieldDescription, removeLinkChange, updateLinkChange, upsertLinks, type NewLink } from './edits.ts';
import { guardedCommit, privileged, type Access } from './guarded-commit.ts';
import { checkTextSize, checkTextSizes } from './text-limit.ts';
import { DatasetView } from './views/dataset.ts';

interface DatasetUpdateInput {
  editableProperties?: { description: string; name?: string | null } | null;
  institutionalMemory?: {
    elements: { url: string; description?: string | null; author: string; createdAt?: number | null }[];
  } | null;
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

// DataHub's input; settings (whether the link shows in previews) is accepted and not kept.
interface UpdateLinkInput {
  currentUrl: string;
  currentLabel: string;
  linkUrl: string;
  label: string;
  resourceUrn: string;
}

const LINK_ENTITY_TYPES = ['dataset', 'container'];
const EDIT_DOCS: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_ENTITY_DOCS']];
const EDIT_LINKS: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_ENTITY_DOC_LINKS']];
const EDIT_COLUMN_DOCS: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_DATASET_COL_DESCRIPTION']];
const CREATE_TAGS: Privilege[][] = [['CREATE_TAGS'], ['MANAGE_TAGS']];

export const mutations = {
  async updateDataset(
    { urn, input }: { urn: string; input: DatasetUpdateInput },
    { store, actor, limits }: MutationContext,
  ) {
    const key = parseDatasetUrn(urn);
    const { editableProperties, institutionalMemory } = input;
    checkTextSizes(limits, {
      'editableProperties.description': editableProperties?.description,
      'editableProperties.name': editableProperties?.name,
    });
    const links = (institutionalMemory?.elements ?? []).map((element): NewLink => {
      checkTextSizes(limits, {
        'institutionalMemory url': element.url,
        'institutionalMemory description': element.description,
      });
      if (element.description == null)
        throw badRequest(
          `institutionalMemory element for "${shown(element.url)}" has no description; every link needs one`,
        );
      return {
        url: element.url,
        description: element.description,
        author: element.author,
        time: element.createdAt ?? Date.now(),
      };
    });
    // EDIT_ENTITY, or every section's own privilege (none for an empty input), as DataHub checks it.
    const sections: Privilege[] = [];
    if (editableProperties != null) sections.push('EDIT_ENTITY_DOCS');
    if (institutionalMemory != null) sections.push('EDIT_ENTITY_DOC_LINKS');
    const actorUrn = corpUserUrn(actor);
    const check = privileged(actor, { anyOf: [['EDIT_ENTITY'], sections], on: urn, existing: true });
    await guardedCommit(store, 'updateDataset', actor, check, (reader) => {
      const changes: AspectChange[] = [];
      if (editableProperties != null) changes.push(editablePropertiesChange(reader, urn, editableProperties, actorUrn));
      if (institutionalMemory != null) changes.push(upsertLinks(reader, urn, links));
      return changes;
    });
    return new DatasetView(store.catalogue, urn, key);
  },

  updateDescription(
    { input }: { input: DescriptionUpdateInput },
    { store, actor, limits }: MutationContext,
  ): Promise<boolean> {
    const { description, resourceUrn, subResourceType, subResource } = input;
    // Field by field, and each builder passed straight to the commit: on the path every column edit takes,
    // an object of texts and a closure held in a variable were allocations and defineProperty calls a write.
    checkTextSize(limits, 'description', description);
    checkTextSize(limits, 'subResource', subResource);
    const entityType = checkedEntityType(resourceUrn);
    if (entityType === 'dataset' && subResourceType == null && subResource == null) {
      // minihub's extension of the specification's rule 4, as DataHub now does: the dataset's own edit.
      return commitDescription(store, actor, { anyOf: EDIT_DOCS, on: resourceUrn, existing: true }, (reader) => [
        datasetDescriptionChange(reader, resourceUrn, description, corpUserUrn(actor)),
      ]);
    }
    if (entityType === 'dataset') {
      // Not `existing`: DataHub refuses a missing subResourceType before it looks the dataset up.
      return commitDescription(store, actor, { anyOf: EDIT_COLUMN_DOCS, on: resourceUrn }, (reader) => {
        if (subResourceType == null)
          throw badRequest('Update description without subresource is not currently supported');
        return [editFieldDescription(reader, resourceUrn, subResource ?? null, description)];
      });
    }
    if (entityType === 'container') {
      return commitDescription(store, actor, { anyOf: EDIT_DOCS, on: resourceUrn, existing: true }, (reader) => {
        const editable = aspectObject(reader, resourceUrn, 'editableContainerProperties') ?? {};
        return [{ urn: resourceUrn, aspect: 'editableContainerProperties', value: { ...editable, description } }];
      });
    }
    if (entityType === 'tag') {
      return commitDescription(store, actor, { anyOf: EDIT_DOCS, on: resourceUrn, existing: true }, (reader) => {
        const properties = reader.aspect(resourceUrn, 'tagProperties');
        if (!isJsonObject(properties)) throw badRequest('Properties for this Tag do not yet exist!');
        return [{ urn: resourceUrn, aspect: 'tagProperties', value: { ...properties, description } }];
      });
    }
    if (entityType === 'corpGroup') {
      // Where DataHub keeps a group's edited description.
      return commitDescription(store, actor, { anyOf: EDIT_DOCS, on: resourceUrn, existing: true }, (reader) => {
        const editable = aspectObject(reader, resourceUrn, 'corpGroupEditableInfo') ?? {};
        return [{ urn: resourceUrn, aspect: 'corpGroupEditableInfo', value: { ...editable, description } }];
      });
    }
    throw badRequest(
      `Failed to update description. Unsupported resource type ${shown(resourceUrn)} provided. ` +
        'minihub supports datasets, dataset fields (subResourceType: DATASET_FIELD), containers, tags and groups',
    );
  },

  async createTag({ input }: { input: CreateTagInput }, { store, actor, limits }: MutationContext): Promise<string> {
    checkTextSizes(limits, { name: input.name, description: input.description });
    // DataHub puts the id into the URN as given (its SDK would percent-encode; its resolver does not).
    const urn = givenTagUrn(input.id ?? randomUUID());
    const actorUrn = corpUserUrn(actor);
    const stamp = { time: Date.now(), actor: actorUrn };
    const properties: JsonObject = {
      name: input.name,
      ...(input.description == null ? {} : { description: input.description }),
    };
    await guardedCommit(store, 'createTag', actor, privileged(actor, { anyOf: CREATE_TAGS, on: null }), (reader) => {
      if (reader.exists(urn)) throw badRequest('This Tag already exists!');
      return [
        { urn, aspect: 'tagProperties', value: properties },
        // DataHub makes the creator an owner of the new tag.
        {
          urn,
          aspect: 'ownership',
          value: { owners: [{ owner: actorUrn, type: 'TECHNICAL_OWNER' }], lastModified: stamp },
        },
      ];
    });
    return urn;
  },

  async addLink(
    { input }: { input: { linkUrl: string; label: string; resourceUrn: string } },
    { store, actor, limits }: MutationContext,
  ) {
    const { linkUrl, label, resourceUrn } = input;
    checkTextSizes(limits, { linkUrl, label });
    expectLinkTarget(resourceUrn);
    const actorUrn = corpUserUrn(actor);
    const link: NewLink = { url: linkUrl, description: label, author: actorUrn, time: Date.now() };
    const check = privileged(actor, { anyOf: EDIT_LINKS, on: resourceUrn, existing: true });
    await guardedCommit(store, 'addLink', actor, check, (reader) => [upsertLinks(reader, resourceUrn, [link])]);
    return true;
  },

  async updateLink({ input }: { input: UpdateLinkInput }, { store, actor, limits }: MutationContext) {
    const { currentUrl, currentLabel, linkUrl, label, resourceUrn } = input;
    checkTextSizes(limits, { currentUrl, currentLabel, linkUrl, label });
    expectLinkTarget(resourceUrn);
    const link: NewLink = { url: linkUrl, description: label, author: corpUserUrn(actor), time: Date.now() };
    const check = privileged(actor, { anyOf: EDIT_LINKS, on: resourceUrn, existing: true });
    await guardedCommit(store, 'updateLink', actor, check, (reader) => [
      updateLinkChange(reader, resourceUrn, { url: currentUrl, label: currentLabel }, link),
    ]);
    return true;
  },

  async removeLink(
    { input }: { input: { linkUrl: string; resourceUrn: string } },
    { store, actor, limits }: MutationContext,
  ) {
    const { linkUrl, resourceUrn } = input;
    checkTextSizes(limits, { linkUrl });
    expectLinkTarget(resourceUrn);
    const check = privileged(actor, { anyOf: EDIT_LINKS, on: resourceUrn, existing: true });
    await guardedCommit(store, 'removeLink', actor, check, (reader) => removeLinkChange(reader, resourceUrn, linkUrl));
    return true;
  },
};

function expectLinkTarget(urn: string): void {
  const entityType = checkedEntityType(urn);
  if (!LINK_ENTITY_TYPES.includes(entityType)) {
    throw badRequest(
      `Failed to change links of ${shown(urn)}: minihub keeps links on ${LINK_ENTITY_TYPES.join(' and ')} entities, not ${entityType}`,
    );
  }
}

function editablePropertiesChange(
  reader: AspectReader,
  urn: string,
  update: { description: string; name?: string | null },
  actorUrn: string,
): AspectChange {
  const stamp = { time: Date.now(), actor: actorUrn };
  const previous = aspectObject(reader, urn, 'editableDatasetProperties') ?? {};
  // DataHub rebuilds the whole aspect: an editable name not given again is dropped.
  const value: JsonObject = {
    created: previous.created ?? stamp,
    lastModified: stamp,
    description: update.description,
    ...(update.name == null ? {} : { name: update.name }),
  };
  return { urn, aspect: 'editableDatasetProperties', value };
}

/** DataHub's edit of a dataset's own description: only the description and the stamp change. */
function datasetDescriptionChange(
  reader: AspectReader,
  urn: string,
  description: string,
  actorUrn: string,
): AspectChange {
  const stamp = { time: Date.now(), actor: actorUrn };
  const previous = aspectObject(reader, urn, 'editableDatasetProperties') ?? {};
  const value: JsonObject = { ...previous, created: previous.created ?? stamp, lastModified: stamp, description };
  return { urn, aspect: 'editableDatasetProperties', value };
}

/** updateDescription's commit, whichever entity it describes; resolves true once the change is durable. */
async function commitDescription(
  store: MutationContext['store'],
  actor: string,
  access: Access,
  build: (reader: AspectReader) => AspectChange[],
): Promise<boolean> {
  await guardedCommit(store, 'updateDescription', actor, privileged(actor, access), build);
  return true;
}
