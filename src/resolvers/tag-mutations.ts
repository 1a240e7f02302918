// The mutations that apply tags to datasets, dataset columns and containers, with DataHub's names,
// inputs and checks: privileges on every target first, then the tags and the targets, then one change
// per touched aspect, all in one commit (so a batch lands whole or not at all).

import { requirePrivileges, type Privilege } from '../auth/privileges.ts';
import { badRequest, shown } from '../errors.ts';
import type { AspectReader } from '../store/catalogue.ts';
import { checkedEntityType, parseUrn } from '../urn.ts';
import type { MutationContext } from './context.ts';
import { requireField } from './edits.ts';
import { guardedCommit } from './guarded-commit.ts';
import { TagEdits, type TagEditMode, type TagTarget } from './tag-edits.ts';
import { checkTextSizes } from './text-limit.ts';

interface ResourceRefInput {
  resourceUrn: string;
  subResourceType?: 'DATASET_FIELD' | null;
  subResource?: string | null;
}

interface TagAssociationInput extends ResourceRefInput {
  tagUrn: string;
}

interface AddTagsInput extends ResourceRefInput {
  tagUrns: string[];
}

interface BatchTagsInput {
  tagUrns: string[];
  // BatchRemoveTagsInput's list admits null entries; they name nothing and are skipped.
  resources: (ResourceRefInput | null)[];
}

const TAG_TARGET_TYPES = ['dataset', 'container'];

export const tagMutations = {
  addTag({ input }: { input: TagAssociationInput }, context: MutationContext): Promise<boolean> {
    return applyTags('addTag', context, [input.tagUrn], [input], 'add');
  },

  addTags({ input }: { input: AddTagsInput }, context: MutationContext): Promise<boolean> {
    return applyTags('addTags', context, input.tagUrns, [input], 'add');
  },

  batchAddTags({ input }: { input: BatchTagsInput }, context: MutationContext): Promise<boolean> {
    return applyTags('batchAddTags', context, input.tagUrns, input.resources, 'add');
  },

  removeTag({ input }: { input: TagAssociationInput }, context: MutationContext): Promise<boolean> {
    return applyTags('removeTag', context, [input.tagUrn], [input], 'remove');
  },

  batchRemoveTags({ input }: { input: BatchTagsInput }, context: MutationContext): Promise<boolean> {
    return applyTags('batchRemoveTags', context, input.tagUrns, input.resources, 'remove');
  },
};

/** A resource of the input once its strings are checked: a target plus what DataHub validates later. */
interface Resource extends TagTarget {
  subResourceType: string | null;
}

async function applyTags(
  op: string,
  { store, actor, limits }: MutationContext,
  tagUrnsGiven: readonly string[],
  resourcesGiven: readonly (ResourceRefInput | null)[],
  mode: TagEditMode,
): Promise<boolean> {
  // Every string is checked for size and form before anything else is looked at.
  const tagUrns = [...new Set(tagUrnsGiven.map((urn) => parseUrn(urn).urn))];
  const resources = resourcesGiven.flatMap((resource) => (resource == null ? [] : [checkedResource(limits, resource)]));
  await guardedCommit(
    store,
    op,
    actor,
    (reader) => {
      for (const { urn, fieldPath } of resources) requirePrivileges(reader, actor, urn, tagPrivileges(fieldPath));
    },
    (reader) => {
      // DataHub validates the tags only when adding: removing a tag that is gone is no error.
      if (mode === 'add') for (const tagUrn of tagUrns) requireTag(reader, tagUrn);
      const edits = new TagEdits(reader);
      for (const resource of resources) {
        requireTarget(reader, resource);
        edits.apply(resource, tagUrns, mode);
      }
      return edits.changes();
    },
  );
  return true;
}

/** EDIT_ENTITY, or the tag privilege of the target: a column's, or the entity's. */
function tagPrivileges(fieldPath: string | null): Privilege[][] {
  return [['EDIT_ENTITY'], [fieldPath === null ? 'EDIT_ENTITY_TAGS' : 'EDIT_DATASET_COL_TAGS']];
}

function checkedResource(limits: MutationContext['limits'], resource: ResourceRefInput): Resource {
  const { resourceUrn, subResource, subResourceType } = resource;
  checkTextSizes(limits, { subResource });
  const entityType = checkedEntityType(resourceUrn);
  // As DataHub reads it: an empty subResource names no column, so the entity itself is the target.
  const fieldPath = subResource == null || subResource === '' ? null : subResource;
  if (!TAG_TARGET_TYPES.includes(entityType) || (fieldPath !== null && entityType !== 'dataset')) {
    throw badRequest(
      `Failed to update tags of ${shown(resourceUrn)}: minihub keeps tags on datasets, dataset columns ` +
        `(subResourceType: DATASET_FIELD) and containers, not on ${fieldPath === null ? '' : 'a sub-resource of '}${entityType}`,
    );
  }
  return { urn: resourceUrn, fieldPath, subResourceType: subResourceType ?? null };
}

/** DataHub's label checks: a tag URN, of a tag that exists. */
function requireTag(reader: AspectReader, tagUrn: string): void {
  if (parseUrn(tagUrn).entityType !== 'tag') {
    throw badRequest(`Failed to validate label with urn ${tagUrn}. Urn type does not match entity type tag..`);
  }
  if (!reader.exists(tagUrn)) throw badRequest(`Failed to validate label with urn ${tagUrn}. Urn does not exist.`);
}

/** DataHub's resource checks: the entity exists; a sub-resource comes with its type and is a column of the schema. */
function requireTarget(reader: AspectReader, { urn, fieldPath, subResourceType }: Resource): void {
  if (!reader.exists(urn)) throw badRequest(`Failed to update resource with urn ${urn}. Entity does not exist.`);
  if (fieldPath === null && subResourceType === null) return;
  if (fieldPath === null) {
    throw badRequest(
      `Failed to update resource with urn ${urn}. SubResourceType (${subResourceType}) provided without a subResource.`,
    );
  }
  if (subResourceType === null) {
    throw badRequest(
      `Failed to updates resource with urn ${urn}. SubResource (${shown(fieldPath)}) provided without a subResourceType.`,
    );
  }
  requireField(reader, urn, fieldPath);
}
