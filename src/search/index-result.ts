// What a query of the inverted index answers: its matching documents by position, each one's id, score,
// payload and matched terms on demand. Shapes only; the index (inverted-index.ts) makes them.

import type { TextField } from './fields.ts';

/** Matched document term → the fields it occurs in. */
export type TermMatches = Record<string, TextField[]>;

/** A query's matches, in no particular order; valid until the index next changes. */
export interface IndexResult<T = unknown> {
  readonly size: number;
  /** Each match's score, by position. */
  readonly scores: Float64Array;
  id(i: number): string;
  /** What the caller stored with the document (put's `payload`): read by number, with no lookup by id. */
  payload(i: number): T | undefined;
  matches(i: number): TermMatches;
}

export const NO_RESULT: IndexResult<never> = {
  size: 0,
  scores: new Float64Array(0),
  id: noHit,
  payload: noHit,
  matches: noHit,
};
function noHit(i: number): never {
  throw new RangeError(`no hit ${i} in an empty result`);
}
