// The hand-written inverted index on its own: which documents a query finds and in which order, updates
// and removals, and compaction of removed documents' postings.

import * as assert from 'uvu/assert';
import { suite } from 'uvu';

import { TEXT_FIELDS, type DocumentText, type TextField } from '../src/search/fields.ts';
import { InvertedIndex } from '../src/search/inverted-index.ts';

const text = (fields: Partial<DocumentText>): DocumentText =>
  Object.fromEntries(TEXT_FIELDS.map((field) => [field, fields[field] ?? ''])) as DocumentText;

/** The engine's unordered result ranked as callers rank it: score descending, then id. */
function ranked(index: InvertedIndex, query: string, fields?: readonly TextField[]) {
  const result = index.query(query, fields);
  return Array.from({ length: result.size }, (_, i) => ({
    id: result.id(i),
    score: result.scores[i]!,
    matches: result.matches(i),
  })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
const ids = (index: InvertedIndex, query: string) => ranked(index, query).map((hit) => hit.id);
const sorted = (index: InvertedIndex, query: string) => ids(index, query).sort();

function small(): InvertedIndex {
  const index = new InvertedIndex();
  index.put('orders', text({ name: 'orders', description: 'Every customer order, one row each.' }));
  index.put('customers', text({ name: 'customers', description: 'Who orders.' }));
  index.put('payments', text({ name: 'payments', fieldPaths: 'order_id\namount' }));
  index.put('codes', text({ name: 'codes', description: 'Postal code 42421 and 12345.' }));
  index.put('analytics', text({ name: 'analytics', description: 'Internationalization of reports.' }));
  return index;
}

const test = suite('inverted index');

test('every query word must match (AND), and a query of no words finds nothing', () => {
  const index = small();
  assert.equal(sorted(index, 'every row'), ['orders']);
  assert.equal(sorted(index, 'who row'), []);
  assert.equal(sorted(index, 'row who'), []);
  assert.equal(sorted(index, 'orders who'), ['customers']);
  assert.equal(sorted(index, 'orders nothingsuch'), []);
  assert.equal(sorted(index, '  ...  '), []);
});

test('only the last word may be a prefix', () => {
  const index = small();
  assert.equal(sorted(index, 'custo'), ['customers', 'orders']);
  assert.equal(sorted(index, 'row custo'), ['orders']);
  assert.equal(sorted(index, 'custo row'), []);
});

test('one edit from 5 letters, two from 10, none below 5 or on numbers', () => {
  const index = small();
  assert.equal(sorted(index, 'paymants'), ['payments']); // substitution
  assert.equal(sorted(index, 'pyments'), ['payments']); // deletion
  assert.equal(sorted(index, 'paymmentss'), ['payments']); // two edits, 10 letters
  assert.equal(sorted(index, 'pymnts'), []); // two edits, 6 letters
  assert.equal(sorted(index, 'internatonalizaton'), ['analytics']); // two deletions, 18 letters
  assert.equal(sorted(index, 'internatnalizaton'), []); // three
  assert.equal(sorted(index, 'codez'), ['codes']); // 5 letters
  assert.equal(sorted(index, 'cede'), []); // 4 letters ('code' is no term; 'codes' is 2 edits away)
});

test('no fuzzy matching on numbers or words under 5 letters', () => {
  const index = small();
  assert.equal(sorted(index, '42422'), []);
  assert.equal(sorted(index, '42421'), ['codes']);
  assert.equal(sorted(index, 'rov'), []); // 'row' one edit away, but 3 letters
});

test('field weights: name above description above columns', () => {
  const index = new InvertedIndex();
  index.put('column', text({ name: 'a', fieldDescriptions: 'The zebraquill code.' }));
  index.put('description', text({ name: 'b', description: 'Rows of the zebraquill feed.' }));
  index.put('name', text({ name: 'zebraquill_orders', description: 'Orders.' }));
  for (const query of ['zebraquill', 'zebraq', 'zebrqquill'])
    assert.equal(ids(index, query), ['name', 'description', 'column'], query);
});

test('matches: each matched document term and its fields; a word is kept in its heaviest field only', () => {
  const index = small();
  const [hit] = ranked(index, 'order custo');
  assert.equal(hit?.id, 'orders');
  // 'order' is in the description, 'orders' (one edit) in the name; 'custo' is a prefix of 'customer'.
  assert.equal(hit?.matches, { order: ['description'], orders: ['name'], customer: ['description'] });
  const [named] = ranked(index, 'customers');
  assert.equal(named?.matches, { customers: ['name'] });
  assert.equal(index.query('every', ['name']).size, 0);
  assert.equal(index.query('every', ['description']).size, 1);
  assert.equal(
    ranked(index, 'amount', ['fieldPaths']).map((h) => h.id),
    ['payments'],
  );
});

test('put replaces, remove removes, and a removed document is never returned', () => {
  const index = small();
  index.put('orders', text({ name: 'orders', description: 'Now about shipments.' }));
  assert.equal(index.size, 5);
  assert.equal(sorted(index, 'every'), []);
  assert.equal(sorted(index, 'shipments'), ['orders']);
  index.remove('orders');
  index.remove('orders');
  assert.equal(index.size, 4);
  assert.equal(sorted(index, 'shipments'), []);
  assert.equal(sorted(index, 'orders'), ['customers', 'payments']); // 'order' of order_id, one edit away
});

test('removed postings never outnumber live ones, and answers are those of an index that never held them', () => {
  const index = new InvertedIndex();
  const reference = new InvertedIndex();
  for (let i = 0; i < 40; i++) {
    const doc = text({ name: `table_${i}`, description: `Row ${i % 7} of the ledger ${i % 3 ? 'daily' : 'weekly'}.` });
    index.put(`d${i}`, doc);
    if (i >= 30) reference.put(`d${i}`, doc);
  }
  let cleaned = false;
  for (let i = 0; i < 30; i++) {
    const before = index.stats.dead;
    index.remove(`d${i}`);
    if (index.stats.dead < before) cleaned = true;
    assert.ok(index.stats.dead <= index.stats.live, `after removing d${i}: ${JSON.stringify(index.stats)}`);
  }
  assert.ok(cleaned, 'some posting list was cleaned');
  const rest = Array.from({ length: 10 }, (_, i) => `d${i + 30}`);
  for (const query of ['ledger', 'daily', 'weekly ledger', 'row', 'tabl', 'ledgr', '3']) {
    assert.equal(ranked(index, query), ranked(reference, query), query);
    for (const id of ids(index, query)) assert.ok(rest.includes(id), `${query}: ${id}`);
  }
  for (let i = 30; i < 40; i++) index.remove(`d${i}`);
  assert.equal(index.stats, { live: 0, dead: 0, slots: 0, terms: 0 });
  assert.equal(index.query('ledger').size, 0);
});

test('rewriting the same documents over and over keeps slots and terms bounded, answers current', () => {
  const index = new InvertedIndex();
  const docs = 50;
  for (let round = 0; round < 200; round++) {
    for (let i = 0; i < docs; i++)
      index.put(
        `d${i}`,
        text({ name: `table_${i}`, description: `Round ${round} of the ledger, edition ${round * 1000 + i}.` }),
      );
    const { live, dead, slots, terms } = index.stats;
    assert.ok(dead <= live, `round ${round}: ${dead} removed postings against ${live} live`);
    assert.ok(slots <= 3 * docs, `round ${round}: ${slots} document slots for ${docs} documents`);
    assert.ok(terms <= 10 * docs, `round ${round}: ${terms} terms`);
  }
  assert.equal(sorted(index, 'round 199'), Array.from({ length: docs }, (_, i) => `d${i}`).sort());
  assert.equal(sorted(index, 'round 198'), []);
  assert.equal(ids(index, '199007'), ['d7']);
  assert.equal(ids(index, 'table_3 ledger'), ['d3']);
});

test('a term dropped and added again is found once, by prefix and by a typo too', () => {
  const index = new InvertedIndex();
  index.put('a', text({ name: 'warehouse' }));
  index.remove('a');
  assert.equal(index.stats.terms, 0);
  index.put('b', text({ name: 'warehouse' }));
  index.put('c', text({ name: 'warehouses' }));
  assert.equal(ids(index, 'wareh'), ['b', 'c']);
  assert.equal(ids(index, 'warehose'), ['b']); // 'warehouses' is two edits away
  assert.equal(ranked(index, 'warehouse')[0]!.id, 'b');
  assert.equal(index.query('warehouse').size, 2);
});

test('a fuzzy query asked again sees the terms added and dropped since it was first asked', () => {
  const index = new InvertedIndex();
  index.put('a', text({ name: 'warehouse' }));
  assert.equal(ids(index, 'warehose'), ['a']);
  index.put('b', text({ name: 'warehuse' })); // one edit from the query, as 'warehouse' is
  assert.equal(ids(index, 'warehose').sort(), ['a', 'b']);
  index.remove('a');
  assert.equal(ids(index, 'warehose'), ['b']);
  index.put('c', text({ name: 'warehousez' }));
  assert.equal(ids(index, 'warehousesx'), ['c']); // eleven letters: two edits forgiven
});

test('a word over 64 letters is matched as typed, never walked for typos (a row per letter would be the cost)', () => {
  const index = new InvertedIndex();
  const long = 'a'.repeat(5000);
  index.put('x', text({ name: `${long}b` }));
  assert.equal(ids(index, `${long}c`), []);
  assert.equal(ids(index, `${long}b`), ['x']);
  index.put('y', text({ name: `${'a'.repeat(60)}b` }));
  assert.equal(ids(index, `${'a'.repeat(60)}c`), ['y']); // 61 letters: two typos forgiven
});

test.run();
