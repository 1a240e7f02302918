// A mutation called directly against graphql-js's own execute of the same document and resolver: where the
// direct run answers, graphql-js gives the same data; a throw or any other result is completed by graphql-js
// with the settled outcome, so the answer (errors with their locations and paths) is the one execute gives.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execute, parse, type ExecutionResult, type OperationDefinitionNode } from 'graphql';

import { directMutation, settledRoot } from '../src/graphql/direct-mutation.ts';
import { minihubSchema } from '../src/graphql/schema.ts';
import { rootValue } from '../src/resolvers/root.ts';

const test = suite('direct mutation');
const schema = minihubSchema();
const UPDATE = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const ALIASED = 'mutation d($input: DescriptionUpdateInput!) { done: updateDescription(input: $input) }';
const CREATE = 'mutation c($input: CreateTagInput!) { createTag(input: $input) }';
const variables = { input: { description: 'd', resourceUrn: 'urn:li:dataset:x' } };

function operationOf(query: string): OperationDefinitionNode {
  return parse(query).definitions[0] as OperationDefinitionNode;
}

/** What graphql-js answers when the field's resolver is `resolve`, and what the direct run answers. */
async function bothWays(query: string, resolve: (args: unknown) => unknown, vars: Record<string, unknown> = variables) {
  const field = (operationOf(query).selectionSet.selections[0] as { name: { value: string } }).name.value;
  const root = { [field]: (args: unknown, _context: unknown) => resolve(args) };
  const expected = (await execute({
    schema,
    document: parse(query),
    rootValue: root,
    variableValues: vars,
  })) as ExecutionResult;
  const direct = directMutation(schema, operationOf(query), root);
  assert.ok(direct !== null, `${query} runs directly`);
  const settled = await direct.call(vars as never, {});
  const data = direct.data(settled);
  const actual =
    data !== null
      ? { data }
      : ((await execute({
          schema,
          document: parse(query),
          rootValue: settledRoot(direct.field, settled),
          variableValues: vars,
        })) as ExecutionResult);
  return { expected: JSON.parse(JSON.stringify(expected)), actual: JSON.parse(JSON.stringify(actual)), direct: data };
}

test('a plain result is answered directly, as graphql-js answers it, under its alias too', async () => {
  for (const query of [UPDATE, ALIASED]) {
    const { expected, actual, direct } = await bothWays(query, async () => true);
    assert.ok(direct !== null, 'answered without graphql-js');
    assert.equal(actual, expected);
  }
  const created = await bothWays(CREATE, async () => 'urn:li:tag:t', { input: { name: 't' } });
  assert.equal(created.actual, created.expected);
  assert.equal(created.actual, { data: { createTag: 'urn:li:tag:t' } });
});

test('the resolver gets the arguments graphql-js gives it, and is called once', async () => {
  let calls = 0;
  let seen: unknown;
  const direct = directMutation(schema, operationOf(UPDATE), {
    updateDescription: (args: unknown) => {
      calls++;
      seen = args;
      return true;
    },
  });
  assert.ok(direct !== null);
  await direct.call(variables, {});
  assert.is(calls, 1);
  assert.equal(seen, variables);
});

test('a throw, a rejection, null for a non-null field and a result of another type are graphql-js own answers', async () => {
  const outcomes: ((args: unknown) => unknown)[] = [
    () => {
      throw new Error('refused');
    },
    async () => {
      throw new Error('refused later');
    },
    async () => null,
    async () => 'true',
    async () => 1,
    async () => ({ not: 'a boolean' }),
  ];
  for (const resolve of outcomes) {
    const { expected, actual, direct } = await bothWays(UPDATE, resolve);
    assert.is(direct, null, 'left to graphql-js');
    assert.equal(actual, expected);
  }
});

test('a Boolean answer comes as the bytes of the whole response, the same as serialising it', async () => {
  for (const query of [UPDATE, ALIASED]) {
    for (const value of [true, false]) {
      const direct = directMutation(schema, operationOf(query), { updateDescription: () => value });
      assert.ok(direct !== null);
      const settled = await direct.call(variables as never, {});
      const data = direct.data(settled);
      assert.is(direct.answer(settled)?.toString(), JSON.stringify({ data, extensions: {} }));
    }
  }
  const failing = directMutation(schema, operationOf(UPDATE), {
    updateDescription: () => {
      throw new Error('no');
    },
  });
  assert.is(failing?.answer(await failing.call(variables as never, {})), null, 'a throw is graphql-js own');
  const other = directMutation(schema, operationOf(UPDATE), { updateDescription: () => 'yes' });
  assert.is(other?.answer(await other.call(variables as never, {})), null, 'a result of another type');
  const created = directMutation(schema, operationOf(CREATE), { createTag: () => 'urn:li:tag:x' });
  assert.is(created?.answer(await created.call({ input: { name: 'x' } } as never, {})), null, 'a String result');
});

test('operations the direct run does not take', () => {
  const refused = [
    'mutation { updateDescription(input: {description: "d", resourceUrn: "urn:li:dataset:x"}) }',
    'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) createTag(input: {name: "t"}) }',
    'mutation d($input: DescriptionUpdateInput!) @deprecated { updateDescription(input: $input) }',
    'mutation d($input: DescriptionUpdateInput!, $s: Boolean!) { updateDescription(input: $input) @include(if: $s) }',
    'mutation d($input: DescriptionUpdateInput!) { ... on Mutation { updateDescription(input: $input) } }',
    'mutation d($urn: String!) { updateDataset(urn: $urn, input: {}) { urn } }',
    'query q($urn: String!) { dataset(urn: $urn) { urn } }',
  ];
  for (const query of refused) assert.is(directMutation(schema, operationOf(query), rootValue), null, query);
  // A resolver that would take graphql-js's info is left to graphql-js.
  const withInfo = { updateDescription: (_args: unknown, _context: unknown, _info: unknown) => true };
  assert.is(directMutation(schema, operationOf(UPDATE), withInfo), null);
  assert.ok(directMutation(schema, operationOf(UPDATE), rootValue) !== null, "minihub's own resolver is taken");
});

test.run();
