// Fields minihub keeps no data for answer DataHub's empty: null when nullable, else an empty value of the
// type, and a value present on the source object is answered as it is.

import { buildASTSchema, concatAST, execute, parse, Source } from 'graphql';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { ABSENT_SDL_FILE, answerAbsentFieldsEmpty } from '../src/graphql/absent-fields.ts';

const KEPT = `
  type Query { dataset: Dataset }
  type Mutation { updateDataset(input: DatasetUpdateInput!): Boolean }
  type Dataset { urn: String! }
  input DatasetUpdateInput { description: String, links: [LinkInput!] }
  input LinkInput { url: String! }
`;
const ABSENT = `
  extend type Dataset {
    health: [Health!]
    incidents(start: Int): Incidents!
    exists: Boolean!
    runs: [String!]!
    note: String
    related: Related
  }
  type Related { total: Int, start: Int, items: [String!]!, note: String }
  type Incidents { start: Int! count: Int! total: Long! incidents: [String!]! cursor: String }
  type Health { status: String! }
  scalar Long
  extend input DatasetUpdateInput { ownership: OwnershipUpdate }
  extend input LinkInput { settings: LinkSettings }
  input OwnershipUpdate { owners: [String!] }
  input LinkSettings { showInAssetPreview: Boolean }
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
  '{ dataset { urn health { status } incidents { start count total incidents cursor } exists runs note related { total start items note } } }',
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
      // A paged result (it has a total) is an empty page even where nullable, as DataHub answers none.
      related: { total: 0, start: 0, items: [], note: null },
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

test('a cycle of non-null objects is answered level by level as asked, never built ahead', async () => {
  const built = buildASTSchema(
    concatAST([
      parse(new Source('type Query { loop: Loop }', 'schema.graphql')),
      parse(new Source('type Loop { next: Loop!, depth: Int! }', ABSENT_SDL_FILE)),
    ]),
  );
  answerAbsentFieldsEmpty(built);
  const result = await execute({
    schema: built,
    document: parse('{ loop { depth next { depth next { depth } } } }'),
    rootValue: { loop: {} },
  });
  assert.equal(result.errors, undefined);
  assert.equal(json(result.data), { loop: { depth: 0, next: { depth: 0, next: { depth: 0 } } } });
});

const UPDATE = parse('mutation u($input: DatasetUpdateInput!) { updateDataset(input: $input) }');
const updateDataset = (input: Record<string, unknown>) =>
  execute({ schema: schema(), document: UPDATE, rootValue: { updateDataset: () => true }, variableValues: { input } });

test('an input field minihub does not keep is accepted as null or left out', async () => {
  const result = await updateDataset({ description: 'd', ownership: null, links: [{ url: 'u', settings: null }] });
  assert.equal(result.errors, undefined);
  assert.equal(json(result.data), { updateDataset: true });
});

test('a value in an input field minihub does not keep is refused, naming the field, and nothing runs', async () => {
  for (const input of [{ ownership: { owners: [] } }, { links: [{ url: 'u' }, { url: 'v', settings: {} }] }]) {
    const result = await updateDataset(input);
    const message = result.errors?.[0]?.message ?? '';
    assert.ok(/^(DatasetUpdateInput\.ownership|LinkInput\.settings) is accepted only as null/.test(message), message);
    assert.equal(json(result.data), { updateDataset: null });
  }
});

test.run();
