// The facet value pool: one string per distinct value and one array per distinct list while some indexed
// entity holds it, let go after.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import type { EntityValues, FacetValues } from '../src/search/documents.ts';
import { FacetPool, facetGroup } from '../src/search/facet-pool.ts';
import { facetsOf } from '../src/search/facets.ts';

const facets = (tags: string[], customProperties: string[] = []): EntityValues => ({
  entityType: 'DATASET',
  name: 'orders',
  platform: `urn:li:dataPlatform:${'postgres'}`,
  origin: 'PROD',
  typeNames: [],
  tags,
  container: null,
  owners: [],
  removed: false,
  customProperties,
  browsePathV2: null,
});

test('equal values share one string; released values are let go; custom properties are not kept', () => {
  const pool = new FacetPool();
  const a = pool.share(facets(['urn:li:tag:pii'], ['run=1']));
  const b = pool.share(facets([['urn:li:tag', 'pii'].join(':')], ['run=2']));
  assert.ok(Object.is(a.tags[0], b.tags[0]));
  assert.is(pool.size, 4); // DATASET, the platform, PROD, the tag: no custom property
  pool.release(a);
  assert.is(pool.size, 4);
  pool.release(b);
  assert.is(pool.size, 0);
});

test('a value rewritten many times by one entity stays one entry', () => {
  const pool = new FacetPool();
  let held = pool.share(facets(['urn:li:tag:t0']));
  for (let i = 1; i <= 1000; i++) {
    pool.release(held);
    held = pool.share(facets([`urn:li:tag:t${i}`]));
  }
  assert.is(pool.size, 4);
});

test('equal lists share one array, empty ones one for all; a list no entity holds is let go', () => {
  const pool = new FacetPool();
  const a = pool.share(facets(['urn:li:tag:pii', 'urn:li:tag:gold']));
  const b = pool.share(facets(['urn:li:tag:pii', 'urn:li:tag:gold']));
  const c = pool.share(facets(['urn:li:tag:pii']));
  const d = pool.share(facets([]));
  const e = pool.share(facets([]));
  assert.ok(Object.is(a.tags, b.tags));
  assert.not.ok(Object.is(a.tags, c.tags));
  assert.ok(Object.is(d.tags, e.tags));
  assert.equal([...a.tags], ['urn:li:tag:pii', 'urn:li:tag:gold']);
  assert.is(pool.lists, 2);
  pool.release(a);
  assert.is(pool.lists, 2, 'b still holds the list a shared');
  pool.release(b);
  pool.release(c);
  assert.is(pool.lists, 0);
});

test('lists that join alike are still told apart', () => {
  const pool = new FacetPool();
  const joined = pool.share(facets(['urn:li:tag:a\u0000urn:li:tag:b']));
  const two = pool.share(facets(['urn:li:tag:a', 'urn:li:tag:b']));
  assert.equal([...joined.tags], ['urn:li:tag:a\u0000urn:li:tag:b']);
  assert.equal([...two.tags], ['urn:li:tag:a', 'urn:li:tag:b']);
  assert.is(pool.lists, 2);
});

test('entities with the same facet-counted values share one group, let go with the last of them', () => {
  const pool = new FacetPool();
  const a = pool.share(facets(['urn:li:tag:pii'], ['run=1']));
  const b = pool.share(facets(['urn:li:tag:pii'], ['run=2']));
  const c = pool.share({ ...facets(['urn:li:tag:pii']), owners: ['urn:li:corpuser:ann'] });
  assert.ok(Object.is(a.group, b.group));
  assert.not.ok(Object.is(a.group, c.group));
  assert.is(pool.groups, 2);
  assert.equal([...c.group.owners], ['urn:li:corpuser:ann']);
  pool.release(a);
  assert.is(pool.groups, 2, 'b still holds the group a shared');
  pool.release(b);
  pool.release(c);
  assert.is(pool.groups, 0);
});

test('facets counted by group are those counted match by match', () => {
  const pool = new FacetPool();
  // Each plain entity in a group of its own: its values counted match by match.
  const made = (tags: string[], platform: string, owners: string[]): FacetValues => {
    const values = { ...facets(tags), platform: `urn:li:dataPlatform:${platform}`, owners };
    const { entityType, origin, container } = values;
    const group = facetGroup({ entityType, platform: values.platform, origin, container, tags, owners });
    return { ...values, group };
  };
  const plain: FacetValues[] = [];
  for (let i = 0; i < 300; i++) {
    const owners = i % 7 === 0 ? [] : [`urn:li:corpuser:u${i % 23}`, ...(i % 5 === 0 ? ['urn:li:corpuser:x'] : [])];
    plain.push(
      made(i % 3 === 0 ? ['urn:li:tag:a', `urn:li:tag:t${i % 19}`] : [], ['hive', 'kafka', 's3'][i % 3]!, owners),
    );
  }
  const shared = plain.map((values) => pool.share(values));
  assert.ok(pool.groups < plain.length);
  const selected = new Map([['platform', ['urn:li:dataPlatform:mysql']]]);
  for (const max of [3, 20, 100]) {
    // Twice: a group's count from one search must not leak into the next.
    assert.equal(facetsOf(shared, selected, max), facetsOf(plain, selected, max));
    assert.equal(facetsOf(shared.slice(0, 50), selected, max), facetsOf(plain.slice(0, 50), selected, max));
  }
  const owners = facetsOf(shared, selected, 100).find((facet) => facet.field === 'owners')!.aggregations;
  assert.equal(owners.find((aggregation) => aggregation.value === 'urn:li:corpuser:x')?.count, 51);
});

test.run();
