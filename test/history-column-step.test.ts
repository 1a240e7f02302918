// Which column edit, if any, makes a step of editableSchemaMetadata (src/history/column-step.ts): one
// whose result has exactly the next value's text, key order included, and never one that only comes close.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { columnEditBetween } from '../src/history/column-step.ts';
import { withColumnDescription } from '../src/store/column-edit.ts';

const between = suite('the column edit between two values');

const entries = (...list: JsonValue[]) => ({ created: { time: 1 }, editableSchemaFieldInfo: list });
const betweenCases: [string, JsonValue | undefined, JsonValue, string | null][] = [
  [
    'a description changed',
    entries({ fieldPath: 'a', description: 'x' }, { fieldPath: 'b' }),
    entries({ fieldPath: 'a', description: 'y' }, { fieldPath: 'b' }),
    'a',
  ],
  [
    'a column added',
    entries({ fieldPath: 'a' }),
    entries({ fieldPath: 'a' }, { fieldPath: 'b', description: 'y' }),
    'b',
  ],
  ['nothing before', undefined, { editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'y' }] }, 'a'],
  [
    'an entry keeps its keys in order',
    entries({ description: 'x', fieldPath: 'a' }),
    entries({ description: 'y', fieldPath: 'a' }),
    'a',
  ],
  [
    'keys in another order',
    entries({ description: 'x', fieldPath: 'a' }),
    entries({ fieldPath: 'a', description: 'y' }),
    null,
  ],
  [
    "the aspect's keys in another order",
    entries({ fieldPath: 'a' }),
    { editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'y' }], created: { time: 1 } },
    null,
  ],
  [
    'a tag too',
    entries({ fieldPath: 'a' }),
    entries({ fieldPath: 'a', description: 'y', globalTags: { tags: [] } }),
    null,
  ],
  [
    'two columns',
    entries({ fieldPath: 'a' }, { fieldPath: 'b' }),
    entries({ fieldPath: 'a', description: 'y' }, { fieldPath: 'b', description: 'z' }),
    null,
  ],
  [
    'a column removed',
    entries({ fieldPath: 'a' }, { fieldPath: 'b' }),
    entries({ fieldPath: 'a', description: 'y' }),
    null,
  ],
  [
    'another key changed',
    entries({ fieldPath: 'a' }),
    { created: { time: 2 }, editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'y' }] },
    null,
  ],
  ['not an aspect of columns', { description: 'x' }, { description: 'y' }, null],
];
for (const [name, before, after, column] of betweenCases) {
  between(`${name}: ${column === null ? 'no edit' : 'the edit of its column'}`, () => {
    const found = columnEditBetween(before, after);
    assert.is(found?.edit.fieldPath ?? null, column);
    if (found !== undefined) {
      assert.is(JSON.stringify(withColumnDescription(before, found.edit)), JSON.stringify(after));
      assert.ok(found.patchFloor > JSON.stringify(found.edit.description).length);
    }
  });
}

between('entries that are not objects are dropped by the edit, and no patch length is promised', () => {
  const found = columnEditBetween(entries('text', { fieldPath: 'a' }), entries({ fieldPath: 'a', description: 'y' }));
  assert.equal(found, { edit: { fieldPath: 'a', description: 'y' }, patchFloor: 0 });
});

between.run();
