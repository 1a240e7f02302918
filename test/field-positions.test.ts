// Column entries found by remembered positions against a plain walk of the list: the same index for every
// column of random lists (repeated columns, entries that are not objects, frozen lists, lists changed in place
// after their positions were taken), and column edits chained over many copies give the walk's aspect.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { isJsonObject, type JsonObject, type JsonValue } from '../src/aspects/json.ts';
import { withColumnDescription } from '../src/store/column-edit.ts';
import { entryIndex } from '../src/store/field-positions.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

const test = suite('field positions');

/** The first entry with the path, by reading every entry: what entryIndex must agree with where it answers. */
function walked(list: readonly JsonValue[], fieldPath: string): number {
  return list.findIndex((entry) => isJsonObject(entry) && entry.fieldPath === fieldPath);
}

/** Whether every entry is an object with a fieldPath of its own. */
function plainColumns(list: readonly JsonValue[]): boolean {
  const paths = list.map((entry) => (isJsonObject(entry) ? entry.fieldPath : undefined));
  return paths.every((path) => typeof path === 'string') && new Set(paths).size === paths.length;
}

/** What a column edit makes of a list of plain column entries: the column's entry given the description, else one appended. */
function walkedEdit(before: JsonObject, fieldPath: string, description: string): JsonObject {
  const list = (before.editableSchemaFieldInfo ?? []) as JsonObject[];
  const at = walked(list, fieldPath);
  const updated =
    at === -1
      ? [...list, { fieldPath, description }]
      : list.map((entry, index) => (index === at ? { ...entry, description } : entry));
  return { ...before, editableSchemaFieldInfo: updated };
}

test('the index of every column, and -1 for one that is not there, as a walk finds them', () => {
  const random = seededRandom(18);
  for (let round = 0; round < 300; round++) {
    const length = Math.floor(random() * 30);
    const list: JsonValue[] = Array.from({ length }, (_, index) => {
      const roll = random();
      if (roll < 0.03) return 'not an entry';
      if (roll < 0.05) return { name: 'no fieldPath' } as JsonObject;
      // Now and then a column twice: such a list is walked.
      return { fieldPath: random() < 0.05 ? 'c0' : `c${index}`, index } as JsonObject;
    });
    if (random() < 0.1) Object.freeze(list);
    for (let column = 0; column < length + 3; column++) {
      const found = entryIndex(list, `c${column}`);
      // undefined: the list holds something that is not a column entry, or a column twice; the caller walks it.
      if (found === undefined)
        assert.ok(!plainColumns(list), `round ${round}: a list of one entry per column has positions`);
      else assert.is(found, walked(list, `c${column}`), `round ${round}, c${column}`);
    }
    // A list reordered in place after its positions were taken is still read right (stored lists are never
    // changed in place; the check that catches it costs one read).
    if (!Object.isFrozen(list) && length > 1) {
      list.reverse();
      for (let column = 0; column < length + 3; column++) {
        const found = entryIndex(list, `c${column}`);
        if (found !== undefined) assert.is(found, walked(list, `c${column}`), `reversed, round ${round}, c${column}`);
      }
    }
  }
});

test('column edits chained over many copies give what the walk gives', () => {
  const random = seededRandom(7);
  for (let round = 0; round < 20; round++) {
    const columns = 5 + Math.floor(random() * 30);
    let fast: JsonObject = {
      created: { time: 1 },
      editableSchemaFieldInfo: Array.from({ length: Math.floor(random() * columns) }, (_, index) => ({
        fieldPath: `c${index}`,
        globalTags: { tags: [] },
      })),
    };
    let slow = fast;
    // Several values branch off one another, as a batch stages edits on the values before it.
    const older: JsonObject[] = [];
    for (let edit = 0; edit < 200; edit++) {
      const fieldPath = `c${Math.floor(random() * columns)}`;
      const from =
        older.length > 0 && random() < 0.1 ? (older[Math.floor(random() * older.length)] as JsonObject) : null;
      if (from !== null) {
        fast = from;
        slow = from;
      }
      fast = withColumnDescription(fast, { fieldPath, description: `d${edit}` });
      slow = walkedEdit(slow, fieldPath, `d${edit}`);
      assert.equal(fast, slow, `round ${round}, edit ${edit}`);
      assert.is(JSON.stringify(fast), JSON.stringify(slow));
      older.push(fast);
      // Copies share their positions with the lists they came from: an older list, asked for a column
      // appended only to a later copy (or to another branch), still answers as a walk of its own entries.
      const past = (older[Math.floor(random() * older.length)] as JsonObject).editableSchemaFieldInfo as JsonValue[];
      for (let column = 0; column < columns; column++)
        assert.is(
          entryIndex(past, `c${column}`),
          walked(past, `c${column}`),
          `round ${round}, edit ${edit}, c${column}`,
        );
    }
  }
});

test('positions never show in what is written out', () => {
  const before = { editableSchemaFieldInfo: Array.from({ length: 12 }, (_, index) => ({ fieldPath: `c${index}` })) };
  const after = withColumnDescription(before, { fieldPath: 'c3', description: 'd' });
  const list = after.editableSchemaFieldInfo as JsonValue[];
  assert.is(entryIndex(list, 'c3'), 3);
  assert.equal(Object.keys(list), Object.keys([...list]));
  assert.is(JSON.stringify(after), JSON.stringify(structuredClone(after)));
  assert.not.match(JSON.stringify(after), /positions/);
});

test.run();
