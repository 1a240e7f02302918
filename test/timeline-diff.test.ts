// The change events of tracked aspects, from their values before and after: what getTimeline lists.
// And how a record's changes are followed (tracked-records.ts). Pure: no store.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { changeEvents, sameJson, schemaFieldUrn } from '../src/history/change-events.ts';
import { groupByUrn, TrackedState } from '../src/history/tracked-records.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const PII = 'urn:li:tag:pii';

const diff = suite('change events from aspect values');

diff('tags added and removed, in tag urn order, for a dataset and for a column', () => {
  const tags = (...urns: string[]) => ({ tags: urns.map((tag) => ({ tag })) });
  const events = changeEvents(
    ORDERS,
    'globalTags',
    tags('urn:li:tag:b', 'urn:li:tag:c'),
    tags('urn:li:tag:a', 'urn:li:tag:b'),
  );
  assert.equal(
    events.map(({ operation, modifier, category }) => [category, operation, modifier]),
    [
      ['TAG', 'ADD', 'urn:li:tag:a'],
      ['TAG', 'REMOVE', 'urn:li:tag:c'],
    ],
  );
  assert.equal(events[0]?.parameters, [
    ['tagUrn', 'urn:li:tag:a'],
    ['context', '{}'],
    ['sourceDetails', '{}'],
  ]);
  const column = (globalTags: JsonValue): JsonValue => ({ editableSchemaFieldInfo: [{ fieldPath: 'id', globalTags }] });
  const [added] = changeEvents(ORDERS, 'editableSchemaMetadata', undefined, column(tags(PII)));
  assert.is(added?.urn, schemaFieldUrn(ORDERS, 'id'));
  assert.equal(added?.parameters, [
    ['fieldPath', 'id'],
    ['parentUrn', schemaFieldUrn(ORDERS, 'id')],
    ['tagUrn', PII],
  ]);
});

diff('descriptions and links: added, modified, removed; the same value again is no change', () => {
  const described = (description: string) => ({ description });
  assert.equal(
    changeEvents(ORDERS, 'editableDatasetProperties', described('a'), described('b')).map((e) => [
      e.operation,
      e.semVer,
    ]),
    [['MODIFY', 'MINOR']],
  );
  assert.equal(
    changeEvents(ORDERS, 'editableDatasetProperties', described('a'), null).map((e) => e.operation),
    ['REMOVE'],
  );
  assert.equal(changeEvents(ORDERS, 'editableDatasetProperties', described('a'), described('a')), []);
  const links = (...elements: [string, string][]) => ({
    elements: elements.map(([url, description]) => ({ url, description })),
  });
  assert.equal(
    changeEvents(
      ORDERS,
      'institutionalMemory',
      links(['https://a', 'A'], ['https://b', 'B']),
      links(['https://b', 'B2'], ['https://c', 'C']),
    ).map((e) => [e.operation, e.modifier, e.semVer]),
    [
      ['REMOVE', 'https://a', 'MINOR'],
      ['MODIFY', 'https://b', 'PATCH'],
      ['ADD', 'https://c', 'MINOR'],
    ],
  );
  assert.equal(changeEvents(ORDERS, 'datasetProperties', undefined, described('x')), []);
});

diff('sameJson compares values, not key order', () => {
  assert.ok(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }));
  assert.not.ok(sameJson({ a: 1 }, { a: 1, b: 2 }));
  assert.not.ok(sameJson([1, 2], [2, 1]));
  assert.ok(sameJson(undefined, null));
  assert.not.ok(sameJson(undefined, {}));
});

diff('sameJson compares values nested far deeper than the call stack allows (no recursion)', () => {
  const nested = (depth: number, leaf: JsonValue): JsonValue => {
    let value = leaf;
    for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { x: [value], y: level } : [value, level];
    return value;
  };
  assert.ok(sameJson(nested(3_000, 'leaf'), nested(3_000, 'leaf')));
  assert.ok(sameJson(nested(200_000, 'leaf'), nested(200_000, 'leaf')));
  assert.not.ok(sameJson(nested(200_000, 'leaf'), nested(200_000, 'other')));
  assert.not.ok(sameJson(nested(3_000, 'leaf'), nested(3_001, 'leaf')));
  assert.not.ok(sameJson({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }));
  assert.not.ok(sameJson({ a: [1] }, { a: { 0: 1 } }));
});

diff('the changes of a record follow each other, then the fallback: a removal is not answered by the catalogue', () => {
  const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.other,PROD)';
  const catalogue: Record<string, JsonValue> = { [`${ORDERS} globalTags`]: { tags: [] } };
  const state = new TrackedState((urn, aspect) => catalogue[`${urn} ${aspect}`]);
  const changes = state.step([
    { urn: ORDERS, aspect: 'globalTags', value: { tags: [] } },
    { urn: ORDERS, aspect: 'globalTags', value: null },
    { urn: OTHER, aspect: 'globalTags', value: { tags: [{ tag: PII }] } },
    { urn: ORDERS, aspect: 'globalTags', value: { tags: [] } },
    { urn: ORDERS, aspect: 'datasetProperties', value: { name: 'untracked' } },
  ]);
  assert.equal(
    changes.map(({ urn, value, before }) => [urn === ORDERS, value, before]),
    [
      [true, null, { tags: [] }],
      [false, { tags: [{ tag: PII }] }, undefined],
      [true, { tags: [] }, undefined],
    ],
  );
  assert.equal(
    [...groupByUrn(changes)].map(([urn, group]) => [urn, group.length]),
    [
      [ORDERS, 2],
      [OTHER, 1],
    ],
  );
});

diff.run();
