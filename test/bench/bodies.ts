// The bench's GraphQL request bodies over its generated datasets (catalogue.ts): a read of a random
// dataset, a random column's description written, and the mixed load's 95/5 pick of the two.
// Bench code only; every script that loads a server with reads or writes takes them from here.

import { datasetUrn } from './catalogue.ts';
import { columnPath } from './catalogue-words.ts';

export const READ =
  'query getDataset($urn: String!) { dataset(urn: $urn) { urn properties { description } schemaMetadata { fields { fieldPath description } } } }';
export const WRITE = 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';

/** Columns per bench dataset. */
export const COLUMNS = 20;

/** A read of one of the first `datasets` bench datasets, at random. */
export function randomRead(datasets: number): string {
  return JSON.stringify({ query: READ, variables: { urn: datasetUrn(Math.floor(Math.random() * datasets)) } });
}

let writes = 0;
/** A new description (never the same twice) of a random column of one of the first `datasets`. */
export function randomWrite(datasets: number): string {
  const index = Math.floor(Math.random() * datasets);
  const input = {
    description: `edited ${++writes}`,
    resourceUrn: datasetUrn(index),
    subResource: columnPath(index, Math.floor(Math.random() * COLUMNS)),
    subResourceType: 'DATASET_FIELD',
  };
  return JSON.stringify({ query: WRITE, variables: { input } });
}

/** The mixed load's body: a write one time in twenty, else a read. */
export function mixedBody(datasets: number): string {
  return Math.random() < 0.05 ? randomWrite(datasets) : randomRead(datasets);
}
