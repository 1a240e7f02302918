// Fields minihub keeps no data for answer DataHub's empty: null when nullable, else an empty value of the
// type, and a value present on the source object is answered as it is.

import { buildASTSchema, concatAST, execute, parse, Source } from 'graphql';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { ABSENT_SDL_FILE, answerAbsentFieldsEmpty } from '../src/graphql/absent-fields.ts';

const KEPT = `
  type Query { dataset: Dataset }
  type Dataset { urn: String! }
`;
const ABSENT = `
  extend type Dataset {
    health: [Health!]
    incidents(start: Int): Incidents!
    exists: Boolean!
    runs: [String!]!
    note: String
  }
  type Incidents { start: Int! count: Int! total: Long! incidents: [String!]! cursor: String }
  type Health { status: String! }
  scalar Long
`;

// execute builds its answer from null-prototype objects; compare the JSON a client would read.
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function schema() {
  const built = buildASTSchema(
    concatAST([parse(new Source(KEPT, 'schema.graphql')), parse(new Source(ABSENT, ABSENT_SDL_FILE))]),
  );
  answerAbsentFieldsEmpty(built);
  return built;
}

const QUERY = parse(
  '{ dataset { urn health { status } incidents { start count total incidents cursor } exists runs note } }',
);

test('a field the source lacks answers null when nullable and empty when not', async () => {
  const result = await execute({ schema: schema(), document: QUERY, rootValue: { dataset: { urn: 'u' } } });
  assert.equal(result.errors, undefined);
  assert.equal(json(result.data), {
    dataset: {
      urn: 'u',
      health: null,
      incidents: { start: 0, count: 0, total: 0, incidents: [], cursor: null },
      exists: false,
      runs: [],
      note: null,
    },
  });
});

test('a value the source carries is answered as it is', async () => {
  const dataset = { urn: 'u', exists: true, runs: ['r'], note: 'n', health: [{ status: 'PASS' }] };
  const result = await execute({ schema: schema(), document: QUERY, rootValue: { dataset } });
  assert.equal(result.errors, undefined);
  const answered = (json(result.data) as { dataset: Record<string, unknown> }).dataset;
  assert.equal(
    [answered.exists, answered.runs, answered.note, answered.health],
    [true, ['r'], 'n', [{ status: 'PASS' }]],
  );
});

test('a field declared in the kept SDL is not given an empty answer', async () => {
  const result = await execute({
    schema: schema(),
    document: parse('{ dataset { urn } }'),
    rootValue: { dataset: {} },
  });
  assert.ok(result.errors?.[0]?.message.includes('Dataset.urn'), 'a missing kept non-null field still fails');
});

test.run();
