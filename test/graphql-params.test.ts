// The variables-depth check of a POST body's parameters: objects and arrays count as levels, values inside
// them do not, a body exactly at the limit passes, and any depth is measured without recursion.

import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { MinihubError } from '../src/errors.ts';
import { readGraphQLParams } from '../src/http/graphql-params.ts';

const LIMITS = { maxQueryLength: 1000, maxVariablesDepth: 3 };
const QUERY = '{ __typename }';

function refusal(variables: unknown): string | null {
  try {
    readGraphQLParams({ query: QUERY, variables }, LIMITS);
    return null;
  } catch (error) {
    assert.instance(error, MinihubError);
    return (error as Error).message;
  }
}

test('variables exactly at maxVariablesDepth pass; one level more is refused', () => {
  const within = { a: { b: 'c', e: [1, 'two', null] }, f: 'g' };
  assert.equal(readGraphQLParams({ query: QUERY, variables: within }, LIMITS).variables, within);
  assert.is(refusal({ a: { b: { c: { d: 1 } } } }), '"variables" nest more than 3 levels deep');
});

test('arrays count as levels, strings and numbers inside them do not', () => {
  assert.is(refusal({ a: [['deep', 1, true]] }), null);
  assert.is(refusal({ a: [[['deeper']]] }), '"variables" nest more than 3 levels deep');
  assert.is(refusal({ a: 'x'.repeat(500), b: 12, c: null, d: false }), null);
});

test('a body nested far deeper than the stack allows is refused, not a crash', () => {
  let deep: unknown = 'bottom';
  for (let level = 0; level < 200_000; level++) deep = [deep];
  assert.is(refusal({ deep }), '"variables" nest more than 3 levels deep');
});

test.run();
