// Small leaves of kept values shared (src/store/shared-leaves.ts): equal type descriptors and empty lists
// become one frozen instance, the value's JSON is unchanged, larger objects stay its own; and a store's
// values read from a long log line (held as text until read) come out with their leaves shared.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import * as assert from 'uvu/assert';
import { suite } from 'uvu';

import type { JsonValue } from '../src/aspects/json.ts';
import { DEFERRED_LINE_CHARS } from '../src/store/fast-start/lazy-lines.ts';
import { withSharedLeaves } from '../src/store/shared-leaves.ts';
import { Store } from '../src/store/store.ts';
import { tempDataDir } from './fixtures/server.ts';

const leaves = suite('shared leaves');

type Field = { fieldPath: string; type: { type: Record<string, object> }; tags: unknown[] };

function schema(name: string, columns: number): JsonValue {
  return {
    schemaName: name,
    fields: Array.from({ length: columns }, (_, i) => ({
      fieldPath: `${name}_column_${i}`,
      nativeDataType: 'varchar(255)',
      type: { type: { [i % 2 === 0 ? 'com.linkedin.schema.StringType' : 'com.linkedin.schema.NumberType']: {} } },
      tags: [],
    })),
  };
}

const fieldsOf = (value: JsonValue | undefined) => (value as { fields: Field[] }).fields;

leaves('equal small objects and empty lists become one frozen instance; the JSON stays the same', () => {
  const a = JSON.parse(JSON.stringify(schema('a', 4))) as JsonValue;
  const b = JSON.parse(JSON.stringify(schema('b', 4))) as JsonValue;
  const [textA, textB] = [JSON.stringify(a), JSON.stringify(b)];
  assert.is(withSharedLeaves(a), a, 'the value itself is kept (it is no leaf)');
  assert.is(withSharedLeaves(b), b);
  assert.equal([JSON.stringify(a), JSON.stringify(b)], [textA, textB]);
  const [fa, fb] = [fieldsOf(a), fieldsOf(b)];
  assert.is(fa[0]!.type, fb[0]!.type, 'one type descriptor for both');
  assert.is(fa[0]!.type, fa[2]!.type);
  assert.is.not(fa[0]!.type, fa[1]!.type, 'a different type keeps its own');
  assert.is(fa[0]!.tags, fb[3]!.tags, 'one empty list');
  assert.ok(Object.isFrozen(fa[0]!.type) && Object.isFrozen(fa[0]!.type.type) && Object.isFrozen(fa[0]!.tags));
  assert.is.not(fa[0], fb[0], 'a field (more than four keys) stays its own');
  assert.not.ok(Object.isFrozen(fa[0]));
  assert.throws(() => (fa[0]!.tags as unknown[]).push('x'), TypeError, 'a shared instance cannot be changed');
});

leaves('long text and many keys make no leaf; a __proto__ key is left as JSON.parse made it', () => {
  const long = 'x'.repeat(200);
  const [a, b] = [0, 1].map(() =>
    JSON.parse(JSON.stringify({ one: { note: long }, two: { a: 1, b: 2, c: 3, d: 4, e: 5 } })),
  );
  withSharedLeaves(a);
  withSharedLeaves(b);
  assert.is.not(a.one, b.one);
  assert.is.not(a.two, b.two);
  const odd = JSON.parse('{"__proto__":[],"x":[]}') as Record<string, unknown>;
  withSharedLeaves(odd as JsonValue);
  assert.is(Object.getPrototypeOf(odd), Object.prototype);
  assert.equal(JSON.stringify(odd), '{"__proto__":[],"x":[]}');
});

leaves('leaves seen once do not stop common ones from being shared', () => {
  for (let i = 0; i < 20_000; i++) withSharedLeaves({ only: { once: `leaf ${i}` } });
  const [a, b] = [0, 1].map(() => JSON.parse(JSON.stringify(schema('late', 2))) as JsonValue);
  withSharedLeaves(a as JsonValue);
  withSharedLeaves(b as JsonValue);
  assert.is(fieldsOf(a)[1]!.type, fieldsOf(b)[1]!.type);
});

leaves('a store shares the leaves of values read from a long log line, and writes still replace them', async () => {
  const dataDir = tempDataDir();
  const columns = 30;
  const changes = ['a', 'b', 'c'].map((name) => ({
    urn: `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`,
    aspect: 'schemaMetadata',
    value: schema(name, columns),
  }));
  const line = JSON.stringify({ seq: 1, time: 0, actor: 'urn:li:corpuser:datahub', op: 'ingest', changes });
  assert.ok(line.length >= DEFERRED_LINE_CHARS, 'the line is long enough to be held as text');
  writeFileSync(join(dataDir, 'catalogue.jsonl'), `${line}\n`);
  const store = await Store.open({ dataDir, parallelReplayBytes: Infinity });
  try {
    const [a, b] = [changes[0]!, changes[1]!].map(({ urn }) => store.catalogue.aspect(urn, 'schemaMetadata'));
    assert.equal(a, changes[0]!.value);
    assert.is(fieldsOf(a)[0]!.type, fieldsOf(b)[0]!.type);
    assert.is(store.catalogue.aspect(changes[0]!.urn, 'schemaMetadata'), a, 'built once, then kept');
    const renamed = { ...(a as object), schemaName: 'renamed' } as JsonValue;
    await store.commit('test', 'urn:li:corpuser:datahub', () => [
      { urn: changes[0]!.urn, aspect: 'schemaMetadata', value: renamed },
    ]);
    assert.equal(
      (store.catalogue.aspect(changes[0]!.urn, 'schemaMetadata') as { schemaName: string }).schemaName,
      'renamed',
    );
    assert.is(fieldsOf(b)[0]!.type, fieldsOf(renamed)[0]!.type);
  } finally {
    await store.close();
  }
});

leaves.run();
