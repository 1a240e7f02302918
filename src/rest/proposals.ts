// Proposals (MCPs) sent over DataHub's REST protocol, read and turned into the changes of one commit. Each
// is checked by the reader `minihub ingest` uses (datahub-file.ts), then UPSERT, CREATE, CREATE_ENTITY and
// DELETE are applied in order over the state the commit lands on. Pure: it builds changes, never writes.

import { isJsonObject, type JsonValue } from '../aspects/json.ts';
import { mcpAspect, proposalTarget } from '../datahub/datahub-file.ts';
import { isUnchanged } from '../datahub/ingest.ts';
import { MinihubError, shown } from '../errors.ts';
import type { AspectChange, AspectReader } from '../store/catalogue.ts';
import { keyAspectName } from './key-aspects.ts';
import { invalidProposal, quotedParam, RestliError } from './restli.ts';

export type ChangeType = 'UPSERT' | 'CREATE' | 'CREATE_ENTITY' | 'DELETE';

/** One checked proposal; `value` is null for a DELETE. `index` names it in a batch's messages (null: alone). */
export interface Proposal {
  index: number | null;
  changeType: ChangeType;
  urn: string;
  entityType: string;
  aspect: string;
  value: JsonValue;
}

const WRITES: readonly ChangeType[] = ['UPSERT', 'CREATE', 'CREATE_ENTITY'];
const CHANGE_TYPES: readonly string[] = [...WRITES, 'DELETE'];
// DataHub's other change types: PATCH needs DataHub's JSON-patch templates per aspect, which minihub lacks.
const NOT_SUPPORTED: readonly string[] = ['PATCH', 'UPDATE', 'RESTATE'];

/** Reads and checks one proposal; throws a 422 naming what is wrong (and in a batch, which proposal). */
export function readProposal(record: unknown, index: number | null): Proposal {
  const fail = (message: string) => invalidProposal(message, index);
  if (!isJsonObject(record)) {
    throw fail('the proposal is not a JSON object; expected {entityType, entityUrn, changeType, aspectName, aspect}');
  }
  const { changeType } = record;
  if (typeof changeType !== 'string') {
    throw fail(`"changeType" is ${changeType === undefined ? 'missing' : 'not a string'}; expected "UPSERT"`);
  }
  if (NOT_SUPPORTED.includes(changeType)) {
    throw fail(`changeType "${changeType}" is not supported by minihub; send the whole aspect with "UPSERT"`);
  }
  if (!CHANGE_TYPES.includes(changeType)) {
    throw fail(`unknown changeType ${quotedParam(changeType)}; expected one of ${CHANGE_TYPES.join(', ')}`);
  }
  try {
    if (changeType === 'DELETE') {
      const { urn, entityType, aspect } = proposalTarget(record);
      return { index, changeType, urn, entityType, aspect, value: null };
    }
    const { urn, entityType, aspect, value } = mcpAspect(record, WRITES);
    return { index, changeType: changeType as ChangeType, urn, entityType, aspect, value };
  } catch (error) {
    // The ingest reader's refusals (a bad URN, bad JSON in aspect.value, ...) are DataHub's 422s.
    if (error instanceof MinihubError && error.code === 'BAD_REQUEST') throw fail(error.message);
    throw error;
  }
}

/**
 * The changes `proposals` make, in order, over `reader` (the state the commit lands on); `storedAspects`
 * names an entity's aspects, for a DELETE of its key aspect. A change that alters nothing is dropped, so
 * sending the same proposals twice writes nothing the second time. Throws a 422 for a CREATE that finds its
 * aspect (or entity) already there, as DataHub's CreateIfNotExistsValidator does.
 */
export function proposalChanges(
  reader: AspectReader,
  storedAspects: (urn: string) => Iterable<string>,
  proposals: readonly Proposal[],
): AspectChange[] {
  // What the proposals so far have done, per entity: later proposals of the same request see it.
  const pending = new Map<string, Map<string, JsonValue>>();
  const current = (urn: string, aspect: string): JsonValue | undefined => {
    const staged = pending.get(urn);
    if (staged?.has(aspect)) return staged.get(aspect) ?? undefined;
    return reader.aspect(urn, aspect);
  };
  // An entity's aspects: those stored, plus those proposed here. (One that a commit grouped into the same batch
  // just created is not among the stored: such a race leaves that aspect behind, as deleteTag's does.)
  const aspectsOf = (urn: string): Set<string> => new Set([...storedAspects(urn), ...(pending.get(urn)?.keys() ?? [])]);
  const exists = (urn: string): boolean => [...aspectsOf(urn)].some((aspect) => current(urn, aspect) !== undefined);
  const put = (urn: string, aspect: string, value: JsonValue): void => {
    let staged = pending.get(urn);
    if (staged === undefined) pending.set(urn, (staged = new Map()));
    staged.set(aspect, value);
  };

  for (const proposal of proposals) {
    const { index, changeType, urn, entityType, aspect, value } = proposal;
    if (changeType === 'CREATE' && current(urn, aspect) !== undefined) {
      throw invalidProposal(
        `Cannot perform CREATE since the aspect already exists: ${shown(urn)} ${shown(aspect)}`,
        index,
      );
    }
    if (changeType === 'CREATE_ENTITY' && exists(urn)) {
      throw invalidProposal(
        `Cannot perform CREATE_ENTITY if not exists since the entity key already exists: ${shown(urn)}`,
        index,
      );
    }
    if (changeType !== 'DELETE') put(urn, aspect, value);
    else if (aspect === keyAspectName(entityType)) for (const name of aspectsOf(urn)) put(urn, name, null);
    else put(urn, aspect, null);
  }
  const changes: AspectChange[] = [];
  for (const [urn, aspects] of pending) {
    for (const [aspect, value] of aspects) {
      const change = { urn, aspect, value };
      if (!isUnchanged(reader, change)) changes.push(change);
    }
  }
  return changes;
}

/** A 403 as DataHub's ingestProposal words it, naming the first few entities the actor may not modify. */
export function forbiddenProposals(actorUrn: string, urns: readonly string[]): RestliError {
  const named = [...new Set(urns)].filter((urn) => urn !== '');
  const listed = named
    .slice(0, 3)
    .map((urn) => `HttpStatus: 403 Urn: ${shown(urn)}`)
    .join(', ');
  const more = named.length > 3 ? ` and ${named.length - 3} more` : '';
  if (named.length === 0)
    return new RestliError(
      403,
      `User ${actorUrn} is unauthorized to modify entities: only an Admin may write over REST`,
    );
  return new RestliError(403, `User ${actorUrn} is unauthorized to modify entity: ${listed}${more}`);
}
