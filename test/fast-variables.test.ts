// The mutation variables plan against graphql-js's own coercion: where the plan answers, graphql-js gives the
// same values in the same key order; where graphql-js refuses, the plan gives way; and a mutation run
// through the plan answers and writes as one run the usual way.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  getNullableType,
  getVariableValues,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLString,
  isInputObjectType,
  Kind,
  parse,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';

import type { JsonObject } from '../src/aspects/json.ts';
import { fastVariables } from '../src/graphql/fast-variables.ts';
import { minihubSchema } from '../src/graphql/schema.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

const test = suite('fast variables');
const schema = minihubSchema();
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';

function planOf(query: string) {
  const document = parse(query);
  const operation = document.definitions[0] as OperationDefinitionNode;
  return { operation, plan: fastVariables(schema, document, operation) };
}

const UPDATE = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const input = { description: 'd', resourceUrn: ORDERS, subResource: 'customer_id', subResourceType: 'DATASET_FIELD' };
const CASES: (JsonObject | null)[] = [
  { input },
  { input: { subResourceType: 'DATASET_FIELD', resourceUrn: ORDERS, description: 'd' } },
  { input: { ...input, subResource: null, subResourceType: null } },
  { input, other: 1 },
  { input: { ...input, subResourceType: 'COLUMN' } },
  { input: { ...input, description: 3 } },
  { input: { ...input, description: null } },
  { input: { ...input, extra: 'x' } },
  { input: { resourceUrn: ORDERS } },
  { input: [input] },
  { input: 'text' },
  { input: null },
  {},
  null,
];

test('where the plan answers, graphql-js coerces the same; where graphql-js refuses, the plan gives way', () => {
  const { operation, plan } = planOf(UPDATE);
  assert.ok(plan !== null, 'the write has a plan');
  let answered = 0;
  for (const variables of CASES) {
    const expected = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
    const actual = plan?.coerce(variables) ?? null;
    if ('errors' in expected) assert.is(actual, null, JSON.stringify(variables));
    else if (actual !== null) {
      answered++;
      assert.is(JSON.stringify(actual), JSON.stringify(expected.coerced), JSON.stringify(variables));
    }
  }
  assert.is(answered, 4);
});

test('the copy declares its variables of the pass-through scalar; types the plan does not know get none', () => {
  const { plan } = planOf(UPDATE);
  const copied = plan?.document.definitions[0] as OperationDefinitionNode;
  const type = copied.variableDefinitions?.[0]?.type;
  assert.is(type?.kind === Kind.NAMED_TYPE ? type.name.value : null, 'MinihubCoercedVariable');
  assert.is(
    planOf('mutation t($time: Long!) { updateDescription(input: {description: "d", resourceUrn: "x"}) }').plan,
    null,
  );
  assert.is(
    planOf('mutation d($input: DescriptionUpdateInput = null) { updateDescription(input: $input) }').plan,
    null,
  );
});

test('a write through the plan and one refused the usual way answer as before', async () => {
  const server = await startTestServer({ dataDir: tempDataDir(), seed: [SAMPLE] });
  try {
    const written = await server.gql(UPDATE, { input: { ...input, description: 'through the plan' } });
    assert.equal(written.json, { data: { updateDescription: true }, extensions: {} });
    const read = await server.gql(
      `{ dataset(urn: "${ORDERS}") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } } } }`,
    );
    assert.match(read.text, '"fieldPath":"customer_id","description":"through the plan"');
    const refused = await server.gql(UPDATE, { input: { ...input, subResourceType: 'COLUMN' } });
    assert.match(
      JSON.stringify(refused.json.errors),
      'Value \\"COLUMN\\" does not exist in \\"SubResourceType\\" enum.',
    );
    assert.is(refused.json.data, null);
  } finally {
    await server.close();
  }
});

// Values near a type's shape, right and wrong: each field kept, dropped, nulled or of another kind, now and then
// a key the type does not have. Seeded, so a failure repeats.
function valuesNear(type: GraphQLInputType, random: () => number, depth = 0): unknown {
  const roll = random();
  if (roll < 0.04) return null;
  if (roll < 0.07) return [1, 'x', true, {}, []][Math.floor(random() * 5)];
  const nullable = getNullableType(type);
  if (nullable === GraphQLString) return random() < 0.5 ? 'text' : '';
  if (nullable === GraphQLBoolean) return random() < 0.5;
  if (nullable instanceof GraphQLEnumType) {
    const names = nullable.getValues().map((value) => value.name);
    return random() < 0.9 ? names[Math.floor(random() * names.length)] : 'NOT_A_VALUE';
  }
  if (nullable instanceof GraphQLInputObjectType && depth < 4) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields()))
      if (random() < 0.85) value[field.name] = valuesNear(field.type, random, depth + 1);
    if (random() < 0.05) value.notAField = 'x';
    return value;
  }
  return random() < 0.5 ? 7 : 'seven';
}

test('every input type the schema has: the plan agrees with graphql-js on random values near its shape', () => {
  const random = seededRandom(0x9e3779b9);
  let planned = 0;
  let answered = 0;
  let refused = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInputObjectType(type) || type.name.startsWith('__')) continue;
    for (const required of [true, false]) {
      const { operation, plan } = planOf(`mutation m($v: ${type.name}${required ? '!' : ''}) { __typename }`);
      if (plan === null) continue;
      planned++;
      for (let i = 0; i < 60; i++) {
        const variables = random() < 0.05 ? {} : { v: valuesNear(new GraphQLNonNull(type), random) };
        const expected = getVariableValues(schema, operation.variableDefinitions ?? [], variables as JsonObject);
        const actual = plan.coerce(variables as JsonObject);
        if ('errors' in expected) {
          refused++;
          assert.is(actual, null, `${type.name}: ${JSON.stringify(variables)}`);
        } else if (actual !== null) {
          answered++;
          assert.is(
            JSON.stringify(actual),
            JSON.stringify(expected.coerced),
            `${type.name}: ${JSON.stringify(variables)}`,
          );
        }
      }
    }
  }
  assert.ok(planned > 5, `${planned} input types planned`);
  assert.ok(answered > 100 && refused > 100, `${answered} answered, ${refused} refused`);
});

test.run();
