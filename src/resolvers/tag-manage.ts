// The mutations that manage a tag itself, with DataHub's names, inputs, privileges and errors: updateTag
// (name and description), setTagColor, and deleteTag, which also removes the tag from every entity and
// column that carries it, in the same commit as the tag.

import type { Privilege } from '../auth/privileges.ts';
import { badRequest, shown } from '../errors.ts';
import { aspectObject, urnId } from '../aspects/read.ts';
import type { JsonObject } from '../aspects/json.ts';
import type { Catalogue } from '../store/catalogue.ts';
import type { MutationContext } from './context.ts';
import { guardedCommit, privileged } from './guarded-commit.ts';
import { expectEntityType } from './queries.ts';
import { tagReferenceRemovals } from './tag-removal.ts';
import { checkTextSizes } from './text-limit.ts';
import { TagView } from './views/tag.ts';

interface TagUpdateInput {
  urn: string;
  name: string;
  description?: string | null;
}

// DataHub's TagType asks EDIT_ENTITY or, for a name or description (the name is always given), EDIT_ENTITY_DOCS.
const EDIT_TAG_DOCS: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_ENTITY_DOCS']];
const EDIT_TAG_COLOR: Privilege[][] = [['EDIT_ENTITY'], ['EDIT_TAG_COLOR']];

export const tagManageMutations = {
  async updateTag(
    { urn, input }: { urn: string; input: TagUpdateInput },
    { store, actor, limits }: MutationContext,
  ): Promise<TagView> {
    expectEntityType(urn, 'tag');
    checkTextSizes(limits, { name: input.name, description: input.description });
    if (input.urn !== urn) {
      throw badRequest(`updateTag's urn "${shown(urn)}" and input.urn "${shown(input.urn)}" name different tags`);
    }
    const check = privileged(actor, { anyOf: EDIT_TAG_DOCS, on: urn, existing: true });
    await guardedCommit(store, 'updateTag', actor, check, (reader) => {
      const previous = aspectObject(reader, urn, 'tagProperties') ?? {};
      // DataHub rebuilds the properties from the input (a description not given again is dropped); the
      // color is kept, which DataHub's rebuild would lose (see README, Differences from DataHub).
      const { description: _dropped, ...kept } = previous;
      const value: JsonObject = {
        ...kept,
        name: input.name,
        ...(input.description == null ? {} : { description: input.description }),
      };
      return [{ urn, aspect: 'tagProperties', value }];
    });
    return new TagView(store.catalogue, urn);
  },

  async setTagColor(
    { urn, colorHex }: { urn: string; colorHex: string },
    { store, actor, limits }: MutationContext,
  ): Promise<boolean> {
    expectEntityType(urn, 'tag');
    checkTextSizes(limits, { colorHex });
    const check = privileged(actor, { anyOf: EDIT_TAG_COLOR, on: urn });
    await guardedCommit(store, 'setTagColor', actor, check, (reader) => {
      if (!reader.exists(urn)) throw badRequest(`Failed to set Tag ${urn} color. Tag does not exist.`);
      // A tag without properties gets DataHub's default ones: its name is the id from the URN.
      const previous = aspectObject(reader, urn, 'tagProperties') ?? { name: urnId(urn) };
      if (previous.colorHex === colorHex) return [];
      return [{ urn, aspect: 'tagProperties', value: { ...previous, colorHex } }];
    });
    return true;
  },

  async deleteTag({ urn }: { urn: string }, { store, actor }: MutationContext): Promise<boolean> {
    expectEntityType(urn, 'tag');
    const catalogue = store.catalogue;
    // DataHub: MANAGE_TAGS, or DELETE_ENTITY on the tag. No minihub role holds DELETE_ENTITY without
    // also holding MANAGE_TAGS, so the platform privilege decides alone.
    const check = privileged(actor, { anyOf: [['MANAGE_TAGS']], on: null });
    await guardedCommit(store, 'deleteTag', actor, check, (reader) => {
      // As DataHub: deleting a tag that does not exist is no error, and its leftover references still go.
      // The catalogue's aspects of the tag, and createTag's, which a commit queued in the same batch may have staged.
      const names = new Set([...catalogue.aspectNames(urn), 'tagProperties', 'ownership']);
      const ownAspects = [...names].filter((aspect) => reader.aspect(urn, aspect) !== undefined);
      return [
        ...ownAspects.map((aspect) => ({ urn, aspect, value: null })),
        ...tagReferenceRemovals(reader, everyEntity(catalogue, urn), urn),
      ];
    });
    return true;
  },
};

/**
 * Every entity of the catalogue but `except`, with its aspect names (no value built). An entity that
 * only a commit queued in the same batch creates is not among them.
 */
function* everyEntity(catalogue: Catalogue, except: string): Iterable<[string, Iterable<string>]> {
  for (const urn of catalogue.urns()) if (urn !== except) yield [urn, catalogue.aspectNames(urn)];
}
