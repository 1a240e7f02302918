// The search's fast paths against straightforward ones on random catalogues: filters asked inside the engine
// (their answers kept until the index changes) against every match filtered afterwards, facets counted by
// shared group against match by match, and matched fields found where the line's terms stand against
// tokenizing every line.

import * as assert from 'uvu/assert';
import { test } from 'uvu';

import type { EntityValues, FacetValues } from '../src/search/documents.ts';
import { FacetPool, facetGroup } from '../src/search/facet-pool.ts';
import { DEFAULT_MAX_AGG_VALUES, facetsOf } from '../src/search/facets.ts';
import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from '../src/search/fields.ts';
import { parseFilters, type FacetFilterInput } from '../src/search/filters.ts';
import { matchedFields } from '../src/search/matched-fields.ts';
import { runSearch, type SearchRequest } from '../src/search/query.ts';
import type { Match } from '../src/search/ranked-matches.ts';
import { createSearchEngine } from '../src/search/search-engine.ts';
import type { IndexSnapshot } from '../src/search/search-index.ts';
import { tokenize } from '../src/search/text.ts';
import type { AspectReader } from '../src/store/catalogue.ts';
import { seededRandom } from './fixtures/seeded-random.ts';

/** A seeded generator: the same catalogue every run. */
function generator(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

// Words with shared prefixes and one-edit neighbours, so prefix and typo matching find several terms.
const WORDS = ['order', 'orders', 'ordering', 'customer', 'customers', 'custom', 'payment', 'payments', 'paymant'];
const MORE = ['ledger', 'daily', 'weekly', 'shipment', 'invoice', 'invoices', 'region', 'regions', 'legion'];
const VOCABULARY = [...WORDS, ...MORE];
const PLATFORMS = ['urn:li:dataPlatform:hive', 'urn:li:dataPlatform:kafka', 'urn:li:dataPlatform:s3'];
const TYPES = ['DATASET', 'CONTAINER', 'TAG'];
const OWNERS = ['urn:li:corpuser:ann', 'urn:li:corpuser:bob', 'urn:li:corpGroup:eng'];

function randomDocument(random: ReturnType<typeof generator>, i: number): { text: DocumentText; facets: EntityValues } {
  const sentence = (words: number) => Array.from({ length: words }, () => random.pick(VOCABULARY)).join(' ');
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, ''])) as DocumentText;
  text.name = `${random.pick(VOCABULARY)}_${i}`;
  text.description = sentence(1 + Math.floor(random.next() * 6));
  text.fieldPaths = Array.from({ length: Math.floor(random.next() * 4) }, () => random.pick(VOCABULARY)).join('\n');
  const facets: EntityValues = {
    entityType: random.pick(TYPES),
    name: text.name,
    platform: random.next() < 0.1 ? null : random.pick(PLATFORMS),
    origin: random.pick(['PROD', 'DEV']),
    typeNames: [],
    tags: random.next() < 0.3 ? [`urn:li:tag:${random.pick(MORE)}`] : [],
    container: null,
    owners: OWNERS.filter(() => random.next() < 0.4),
    removed: random.next() < 0.15,
    customProperties: [],
    browsePathV2: null,
  };
  return { text, facets };
}

function randomFilter(random: ReturnType<typeof generator>): FacetFilterInput[] {
  const filters: FacetFilterInput[] = [];
  if (random.next() < 0.7) filters.push({ field: 'platform', values: PLATFORMS.filter(() => random.next() < 0.5) });
  if (random.next() < 0.3) filters.push({ field: 'owners', value: random.pick(OWNERS), negated: random.next() < 0.5 });
  if (random.next() < 0.2) filters.push({ field: 'removed', value: random.pick(['true', 'false']) });
  return filters;
}

/** What runSearch answers, worked out the plain way: every match, then types, removed and the filter. */
function straightforward(index: IndexSnapshot, request: SearchRequest) {
  const result = index.engine.query(request.query, request.fields);
  const kept: { urn: string; score: number; facets: FacetValues; terms: Record<string, TextField[]> }[] = [];
  for (let i = 0; i < result.size; i++) {
    const facets = result.payload(i)!;
    const urn = result.id(i);
    if (request.types?.length && !request.types.includes(facets.entityType)) continue;
    if (facets.removed && !request.includeSoftDeleted && !request.filter.namesRemoved) continue;
    if (!request.filter.matches(urn, facets)) continue;
    kept.push({ urn, score: result.scores[i]!, facets, terms: result.matches(i) });
  }
  return kept.sort((a, b) => b.score - a.score || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
}

/** Facet values as separate objects, none shared, each in a group of its own: facets counted match by match. */
const unshared = (facets: FacetValues): FacetValues => {
  const { entityType, platform, origin, container } = facets;
  const [tags, owners] = [[...facets.tags], [...facets.owners]];
  const group = facetGroup({ entityType, platform, origin, container, tags, owners });
  return { ...facets, tags, owners, group };
};

test('filters asked inside the engine answer as every match filtered afterwards, across changes', () => {
  const random = generator(16);
  const engine = createSearchEngine<FacetValues>();
  const pool = new FacetPool();
  const facets = new Map<string, FacetValues>();
  const put = (i: number) => {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,d${i},PROD)`;
    const before = facets.get(urn);
    if (before !== undefined) pool.release(before);
    const document = randomDocument(random, i);
    const shared = pool.share(document.facets);
    facets.set(urn, shared);
    engine.put(urn, document.text, shared);
  };
  for (let i = 0; i < 300; i++) put(i);
  // A few filters used again and again, so their kept answers are read, and must follow every change.
  const filters = Array.from({ length: 6 }, () => randomFilter(random));
  let version = 0;
  let compared = 0;
  for (let round = 0; round < 40; round++) {
    const index: IndexSnapshot = { engine, facets, version };
    for (let q = 0; q < 25; q++) {
      const words = 1 + Math.floor(random.next() * 2);
      const query = Array.from({ length: words }, () => {
        const word = random.pick(VOCABULARY);
        return random.next() < 0.3 ? word.slice(0, 3 + Math.floor(random.next() * 3)) : word;
      }).join(' ');
      const inputs = random.pick(filters);
      const types = random.next() < 0.3 ? [random.pick(TYPES)] : null;
      const includeSoftDeleted = random.next() < 0.2;
      const filterKey = JSON.stringify([types, inputs, includeSoftDeleted]);
      const fields = random.next() < 0.2 ? (['name', 'description'] as TextField[]) : undefined;
      const request = { types, query, filter: parseFilters(null, inputs), includeSoftDeleted, filterKey, fields };
      const matches = runSearch(index, request, JSON.stringify([filterKey, query, fields]));
      const expected = straightforward(index, request);
      const page = matches.slice(0, matches.length);
      assert.equal(
        page.map((match) => [match.urn, match.score, match.terms()]),
        expected.map((match) => [match.urn, match.score, match.terms]),
        `${query} ${filterKey}`,
      );
      const selected = request.filter.selected;
      for (const max of [2, DEFAULT_MAX_AGG_VALUES])
        assert.equal(
          facetsOf(matches.facets, selected, max),
          facetsOf(
            expected.map((match) => unshared(match.facets)),
            selected,
            max,
          ),
        );
      compared += expected.length;
    }
    // Documents rewritten (other platforms, owners, removed) and removed between rounds.
    for (let change = 0; change < 20; change++) {
      const i = Math.floor(random.next() * 320);
      if (random.next() < 0.2) {
        const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,d${i},PROD)`;
        const before = facets.get(urn);
        if (before !== undefined) pool.release(before);
        facets.delete(urn);
        engine.remove(urn);
      } else put(i);
    }
    version++;
  }
  assert.ok(compared > 2000, `only ${compared} matches compared`);
});

/** A reader of datasets holding only schemaMetadata (with an edit for some columns) and a name. */
function datasetReader(columns: { path: string; description: string; edited?: string }[]): AspectReader {
  const schema = { fields: columns.map(({ path, description }) => ({ fieldPath: path, description })) };
  const editable = {
    editableSchemaFieldInfo: columns.flatMap(({ path, edited }) =>
      edited === undefined ? [] : [{ fieldPath: path, description: edited }],
    ),
  };
  const aspects: Record<string, object> = {
    schemaMetadata: schema,
    editableSchemaMetadata: editable,
    datasetProperties: { name: 'Ordering Ledger' },
  };
  return {
    aspect: (_urn, name) => aspects[name] as never,
    aspectJson: (_urn, name) => JSON.stringify(aspects[name]),
    exists: () => true,
    contained: () => new Set(),
  };
}

test('matched fields are the first line whose terms hold the word, as tokenizing every line finds', () => {
  const random = generator(7);
  const pieces = [...VOCABULARY, 'Order', 'customerId', 'PaymentID', 'päyment', 'Ünïcode', 'ORDERS', 'x2', 'order_id'];
  const line = () =>
    Array.from({ length: 1 + Math.floor(random.next() * 4) }, () => random.pick(pieces)).join(
      random.pick([' ', '_', '.', '']),
    );
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
  let found = 0;
  for (let round = 0; round < 300; round++) {
    const columns = Array.from({ length: 1 + Math.floor(random.next() * 6) }, () => ({
      path: line(),
      description: random.next() < 0.2 ? `${line()}\n${line()}` : line(),
      edited: random.next() < 0.3 ? line() : undefined,
    }));
    const reader = datasetReader(columns);
    const candidates = [...new Set(columns.flatMap(({ path, description }) => tokenize(`${path} ${description}`)))];
    const terms: Record<string, TextField[]> = {};
    for (let t = 0; t < 3; t++)
      terms[random.next() < 0.8 ? random.pick(candidates) : random.pick(VOCABULARY)] = [
        random.pick(['fieldPaths', 'fieldDescriptions', 'name'] as TextField[]),
      ];
    const match: Match = { urn, score: 1, facets: {} as FacetValues, terms: () => terms };
    const texts: Record<string, string> = {
      name: 'Ordering Ledger',
      fieldPaths: columns.map(({ path }) => path).join('\n'),
      // An edit names its column by path: the last edit of a path applies to every column of that path.
      fieldDescriptions: columns
        .map(
          ({ path, description }) =>
            columns.findLast((column) => column.path === path && column.edited !== undefined)?.edited ?? description,
        )
        .join('\n'),
    };
    const expected = new Map<string, { name: string; value: string }>();
    for (const [term, fields] of Object.entries(terms))
      for (const field of fields) {
        const value = texts[field]!.split('\n').find((text) => tokenize(text).includes(term)) ?? term;
        expected.set(`${field}\u0000${value}`, { name: field, value });
      }
    const weight = (field: string) => FIELD_WEIGHTS[field as TextField];
    const sorted = [...expected.values()].sort((a, b) => weight(b.name) - weight(a.name));
    const answer = matchedFields(reader, match);
    assert.equal(answer, sorted, JSON.stringify({ columns, terms }));
    found += answer.filter(({ value }) => !(value in terms)).length;
  }
  assert.ok(found > 150, `only ${found} lines found`);
});

test.run();
