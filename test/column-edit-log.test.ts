// A column's edited description is logged as the edit alone (src/store/column-edit.ts): the line is small,
// replay on one thread and on two rebuilds the same aspect the commit made, and logs written with the
// whole aspect (before this form existed) still replay.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { JsonObject } from '../src/aspects/json.ts';
import { Catalogue } from '../src/store/catalogue.ts';
import { withColumnDescription } from '../src/store/column-edit.ts';
import { DEFERRED_LINE_CHARS } from '../src/store/fast-start/lazy-lines.ts';
import { parseLogRecord } from '../src/store/log-record.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
import { replayOnOneThread } from '../src/store/replay.ts';
import { Store } from '../src/store/store.ts';
import { replayWithWorkHere } from './fixtures/replay-here.ts';
import { SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

const LOG = 'catalogue.jsonl';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const UPDATE = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const ADD_TAG = 'mutation t($input: TagAssociationInput!) { addTag(input: $input) }';
const READ = `{ dataset(urn: "${ORDERS}") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description globalTags { tags { tag { urn } } } } } } }`;
const SCHEMA = 'editableSchemaMetadata';

function columnEdit(subResource: string, description: string): Record<string, unknown> {
  return { input: { description, resourceUrn: ORDERS, subResource, subResourceType: 'DATASET_FIELD' } };
}

/** Every aspect of every entity, in the catalogue's own order. */
function stateOf(catalogue: Catalogue): [string, [string, unknown][]][] {
  return [...catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]);
}

const logged = suite('column edits in the log');

logged('a column edit logs the edit alone, and a restart, one thread or two, reads the same columns', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  let before: unknown;
  let aspect: unknown;
  try {
    const tag = await first.gql(ADD_TAG, {
      input: {
        tagUrn: 'urn:li:tag:pii',
        resourceUrn: ORDERS,
        subResource: 'customer_id',
        subResourceType: 'DATASET_FIELD',
      },
    });
    assert.is(tag.json.errors, undefined, JSON.stringify(tag.json.errors));
    for (const [column, description] of [
      ['customer_id', 'Who ordered.'],
      ['order_id', 'Unique per shop.'],
      ['customer_id', 'Who ordered, edited again.'],
    ] as const) {
      const reply = await first.gql(UPDATE, columnEdit(column, description));
      assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
    }
    before = (await first.gql(READ)).json;
    aspect = first.store.catalogue.aspect(ORDERS, SCHEMA);
  } finally {
    await first.close();
  }
  const infos = (
    aspect as { editableSchemaFieldInfo: { fieldPath: string; description?: string; globalTags?: unknown }[] }
  ).editableSchemaFieldInfo;
  assert.equal(
    infos.map(({ fieldPath, description }) => [fieldPath, description]),
    [
      ['customer_id', 'Who ordered, edited again.'],
      ['order_id', 'Unique per shop.'],
    ],
  );
  assert.ok(infos[0]?.globalTags !== undefined, 'the column keeps its tag');

  const lines = readFileSync(join(dataDir, LOG), 'utf8').trimEnd().split('\n');
  const edits = lines.slice(-3);
  for (const line of edits) {
    assert.ok(line.includes('"columnEdit":{"fieldPath":'), line);
    assert.not.ok(line.includes('editableSchemaFieldInfo'), 'the rest of the aspect is not logged');
    assert.ok(line.length < 300, `${line.length} characters`);
  }

  const second = await startTestServer({ dataDir });
  try {
    assert.equal((await second.gql(READ)).json, before);
    assert.equal(second.store.catalogue.aspect(ORDERS, SCHEMA), aspect);
  } finally {
    await second.close();
  }
  const { catalogue } = await replayWithWorkHere(join(dataDir, LOG));
  assert.equal(catalogue.aspect(ORDERS, SCHEMA), aspect, 'two threads');
});

logged('a log with the whole aspect (as written before) replays, and an edit after it applies to it', async () => {
  const dataDir = tempDataDir();
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)';
  const whole = { editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'old', globalTags: { tags: [] } }] };
  const record = (seq: number, changes: unknown[]) =>
    JSON.stringify({ seq, time: seq, actor: 'urn:li:corpuser:datahub', op: 'updateDescription', changes });
  writeFileSync(
    join(dataDir, LOG),
    [
      record(1, [{ urn, aspect: 'status', value: { removed: false } }]),
      record(2, [{ urn, aspect: SCHEMA, value: whole }]),
      record(3, [{ urn, aspect: SCHEMA, columnEdit: { fieldPath: 'a', description: 'new' } }]),
      record(4, [{ urn, aspect: SCHEMA, columnEdit: { fieldPath: 'b', description: 'added' } }]),
    ].join('\n') + '\n',
  );
  const expected = {
    editableSchemaFieldInfo: [
      { fieldPath: 'a', description: 'new', globalTags: { tags: [] } },
      { fieldPath: 'b', description: 'added' },
    ],
  };
  const store = await Store.open({ dataDir, parallelReplayBytes: Infinity });
  try {
    assert.equal(store.catalogue.aspect(urn, SCHEMA), expected);
  } finally {
    await store.close();
  }
  const { catalogue } = await replayWithWorkHere(join(dataDir, LOG));
  assert.equal(catalogue.aspect(urn, SCHEMA), expected, 'two threads');
});

logged('a column edit line is refused unless it is exactly an edit of editableSchemaMetadata', () => {
  const line = (change: unknown, field = 'changes') =>
    JSON.stringify({ seq: 1, time: 1, actor: 'a', op: 'o', changes: [], [field]: [change] });
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)';
  const edit = { fieldPath: 'a', description: 'd' };
  assert.type(parseLogRecord(line({ urn, aspect: SCHEMA, columnEdit: edit })), 'object');
  for (const bad of [
    { urn, aspect: 'schemaMetadata', columnEdit: edit },
    { urn, aspect: SCHEMA, columnEdit: edit, value: {} },
    { urn, aspect: SCHEMA, columnEdit: { fieldPath: 'a' } },
    { urn, aspect: SCHEMA, columnEdit: { fieldPath: 1, description: 'd' } },
  ]) {
    assert.type(parseLogRecord(line(bad)), 'string', JSON.stringify(bad));
  }
  // Compaction's history keeps whole values in `history`, never edits; `patches` may hold an edit.
  assert.type(parseLogRecord(line({ urn, aspect: SCHEMA, columnEdit: edit }, 'history')), 'string');
  assert.type(parseLogRecord(line({ urn, aspect: SCHEMA, columnEdit: edit }, 'patches')), 'object');
  assert.type(parseLogRecord(line({ urn, aspect: 'schemaMetadata', columnEdit: edit }, 'patches')), 'string');
});

logged('an edit sets the first entry of its column, keeps the rest, and adds an entry for a new column', () => {
  const before: JsonObject = {
    created: { time: 1 },
    editableSchemaFieldInfo: [
      'not an entry',
      { fieldPath: 'a', globalTags: { tags: [] } },
      { fieldPath: 'a' },
      { fieldPath: 'b' },
    ],
  };
  assert.equal(withColumnDescription(before, { fieldPath: 'a', description: 'd' }), {
    created: { time: 1 },
    editableSchemaFieldInfo: [
      { fieldPath: 'a', globalTags: { tags: [] }, description: 'd' },
      { fieldPath: 'a' },
      { fieldPath: 'b' },
    ],
  });
  assert.equal(withColumnDescription(before, { fieldPath: 'c', description: 'e' }).editableSchemaFieldInfo, [
    { fieldPath: 'a', globalTags: { tags: [] } },
    { fieldPath: 'a' },
    { fieldPath: 'b' },
    { fieldPath: 'c', description: 'e' },
  ]);
  assert.equal(withColumnDescription(null, { fieldPath: 'a', description: 'd' }), {
    editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'd' }],
  });
  assert.is((before.editableSchemaFieldInfo as unknown[]).length, 4, 'the aspect before is not changed');
});

/**
 * Whole values, removals and column edits of few keys, so edits land on values in either half of the
 * log, on values kept as text of long lines, on removals and on other edits; some edits are long lines.
 */
function editLog(seed: number, records: number): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const urns = Array.from({ length: 6 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)`);
  const columns = ['a', 'b', 'c'];
  const whole = (seq: number, i: number) => ({
    urn: pick(urns),
    aspect: SCHEMA,
    value: { editableSchemaFieldInfo: [{ fieldPath: pick(columns), description: `whole ${seq}/${i} ✓`, tags: [i] }] },
  });
  const lines: string[] = [];
  for (let seq = 1; seq <= records; seq++) {
    const roll = next();
    let changes: unknown[];
    if (roll < 0.08) {
      changes = Array.from({ length: 40 }, (_, i) => whole(seq, i));
    } else if (roll < 0.16) {
      changes = [{ urn: pick(urns), aspect: SCHEMA, value: null }];
    } else if (roll < 0.3) {
      changes = [whole(seq, 0)];
    } else {
      const long = next() < 0.05;
      const description = long ? `long ${seq} `.repeat(DEFERRED_LINE_CHARS / 6) : `edit ${seq} — naïve`;
      changes = [{ urn: pick(urns), aspect: SCHEMA, columnEdit: { fieldPath: pick(columns), description } }];
    }
    lines.push(JSON.stringify({ seq, time: seq, actor: 'urn:li:corpuser:datahub', op: 'test', changes }));
  }
  return lines;
}

logged('column edits replay to the same catalogue on one thread, with long lines as text, and on two', async () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, LOG), editLog(seed, 300).join('\n') + '\n');
    const copy = tempDataDir();
    cpSync(dataDir, copy, { recursive: true });
    const plain = new Catalogue();
    await replayOnOneThread(join(dataDir, LOG), nodeLogFileSystem, plain);
    const expected = stateOf(plain);
    assert.ok(expected.length > 0, `seed ${seed} leaves some entities`);
    const store = await Store.open({ dataDir, parallelReplayBytes: Infinity });
    try {
      assert.equal(stateOf(store.catalogue), expected, `seed ${seed}, long lines as text`);
    } finally {
      await store.close();
    }
    const { catalogue, replayed } = await replayWithWorkHere(join(copy, LOG));
    assert.is(replayed.inWorker, true);
    assert.equal(stateOf(catalogue), expected, `seed ${seed}, two threads`);
  }
});

logged.run();
