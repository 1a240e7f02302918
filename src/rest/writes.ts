// DataHub's REST write actions: /aspects?action=ingestProposal and ingestProposalBatch, /entities?action=ingest
// (an MCE snapshot) and ?action=delete. Each request is one commit, checked and built inside the commit queue
// (privileges first, then the proposals, against the state it lands on): all of it is written, durably,
// before the 200, or none of it. Knows the request's parsed body, never HTTP.

import { isJsonObject, type JsonObject } from '../aspects/json.ts';
import { mayIngest } from '../auth/privileges.ts';
import { snapshotAspects, type IngestedAspect } from '../datahub/datahub-file.ts';
import { MinihubError } from '../errors.ts';
import type { AspectChange } from '../store/catalogue.ts';
import type { ChangeBuilder, Store } from '../store/store.ts';
import { checkedEntityType, corpUserUrn } from '../urn.ts';
import { keyAspectName } from './key-aspects.ts';
import { forbiddenProposals, proposalChanges, readProposal, type Proposal } from './proposals.ts';
import { invalidProposal, quotedParam, RestliError } from './restli.ts';

/** DataHub's answer to a proposal written (RESTLI_SUCCESS). */
export const SUCCESS = 'success';

/** `{"proposal": MCP, "async": ...}`; `async` is accepted and ignored: every write is durable before the answer. */
export async function ingestProposal(store: Store, actor: string, body: JsonObject): Promise<void> {
  const proposal = body.proposal;
  if (proposal === undefined) throw missingParameter('proposal', 'ingestProposal');
  await commitProposals(store, actor, 'ingestProposal', [proposal], false);
}

/** `{"proposals": [MCP, ...], "async": ...}`: all of them in one commit, or none. */
export async function ingestProposalBatch(store: Store, actor: string, body: JsonObject): Promise<void> {
  const { proposals } = body;
  if (proposals === undefined) throw missingParameter('proposals', 'ingestProposalBatch');
  if (!Array.isArray(proposals)) throw new RestliError(400, '"proposals" is not an array; expected [MCP, ...]');
  await commitProposals(store, actor, 'ingestProposalBatch', proposals, true);
}

/** `{"entity": {"value": {"<...>.metadata.snapshot.<Entity>Snapshot": {urn, aspects}}}}`: each aspect an UPSERT. */
export async function ingestSnapshot(store: Store, actor: string, body: JsonObject): Promise<void> {
  const entity = body.entity;
  if (entity === undefined) throw missingParameter('entity', 'ingest');
  const snapshot = isJsonObject(entity) ? entity.value : undefined;
  const urn = isJsonObject(snapshot) ? Object.values(snapshot).find(isJsonObject)?.urn : undefined;
  await commit(store, actor, 'ingestSnapshot', [typeof urn === 'string' ? urn : ''], (reader) => {
    let aspects: IngestedAspect[];
    try {
      aspects = snapshotAspects(snapshot ?? null);
    } catch (error) {
      if (error instanceof MinihubError && error.code === 'BAD_REQUEST') throw invalidProposal(error.message, null);
      throw error;
    }
    const proposals: Proposal[] = aspects.map(({ urn, entityType, aspect, value }) => ({
      index: null,
      changeType: 'UPSERT',
      urn,
      entityType,
      aspect,
      value,
    }));
    return proposalChanges(reader, (urn) => store.catalogue.aspectNames(urn), proposals);
  });
}

/** `{"urn"}`: the entity and every aspect of it; DataHub's DeleteEntityResponse `{urn, rows}`. */
export async function deleteEntity(
  store: Store,
  actor: string,
  body: JsonObject,
): Promise<{ urn: string; rows: number }> {
  const { urn } = body;
  if (urn === undefined) throw missingParameter('urn', 'delete');
  if (typeof urn !== 'string') throw new RestliError(400, '"urn" is not a string; expected the urn of the entity');
  const changes = await commit(store, actor, 'deleteEntity', [urn], (reader) => {
    let entityType: string;
    try {
      entityType = checkedEntityType(urn);
    } catch (error) {
      if (error instanceof MinihubError) throw invalidProposal(error.message, null);
      throw error;
    }
    const key: Proposal = {
      index: null,
      changeType: 'DELETE',
      urn,
      entityType,
      aspect: keyAspectName(entityType),
      value: null,
    };
    return proposalChanges(reader, (entity) => store.catalogue.aspectNames(entity), [key]);
  });
  return { urn, rows: changes.length };
}

async function commitProposals(
  store: Store,
  actor: string,
  op: string,
  records: readonly unknown[],
  batch: boolean,
): Promise<void> {
  const urns = records.map((record) =>
    isJsonObject(record) && typeof record.entityUrn === 'string' ? record.entityUrn : '',
  );
  await commit(store, actor, op, urns, (reader) => {
    const proposals = records.map((record, i) => readProposal(record, batch ? i : null));
    return proposalChanges(reader, (urn) => store.catalogue.aspectNames(urn), proposals);
  });
}

/** One commit whose builder first checks the actor may ingest (DataHub's 403 names the entities), in log order. */
function commit(
  store: Store,
  actor: string,
  op: string,
  urns: readonly string[],
  build: ChangeBuilder,
): Promise<AspectChange[]> {
  const actorUrn = corpUserUrn(actor);
  return store.commit(op, actorUrn, (reader) => {
    if (!mayIngest(reader, actor)) throw forbiddenProposals(actorUrn, urns);
    return build(reader);
  });
}

function missingParameter(name: string, action: string): RestliError {
  return new RestliError(400, `Parameter ${quotedParam(name)} of action "${action}" is required`);
}
