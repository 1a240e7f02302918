// The search engine's first build (engine-build.ts): on this thread or a worker, it answers exactly as a
// put() per document would, before and after later puts and removals; a store's index built with the
// worker answers as one built without it, and follows writes; values a restart holds as text stay text.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance as realClock } from 'node:perf_hooks';

import * as assert from 'uvu/assert';
import { suite } from 'uvu';

import { assemble } from '../src/search/built-index.ts';
import { engineBuilder, sliced } from '../src/search/engine-build.ts';
import { IndexBuilder } from '../src/search/index-builder.ts';
import { InvertedIndex } from '../src/search/inverted-index.ts';
import { TEXT_FIELDS, type DocumentText } from '../src/search/fields.ts';
import { SearchIndex } from '../src/search/search-index.ts';
import { createSearchEngine, type SearchEngine } from '../src/search/search-engine.ts';
import { DEFERRED_LINE_CHARS } from '../src/store/fast-start/lazy-lines.ts';
import { Store } from '../src/store/store.ts';
import { openInProcess } from './fixtures/in-process.ts';
import { turnsUnderFakeTimers } from './fixtures/fake-timers.ts';
import { countingLineBuilds } from './fixtures/line-builds.ts';
import { tempDataDir } from './fixtures/server.ts';
import { ORDERS, searchCatalogue } from './fixtures/search-catalogue.ts';

const WORDS = ['order', 'orders', 'customer', 'revenue', 'payment', 'invoice', 'daily', 'region', 'amount', 'status'];
const QUERIES = ['order', 'orders', 'custom', 'revenu', 'paymant', 'daily region', 'café', 'customerId', 'status amo'];

/**
 * A deterministic document: words of WORDS, camelCase paths, now and then non-ASCII text or a word 300
 * times; no text at all when `empty`.
 */
function documentText(n: number, salt = 0, empty = false): DocumentText {
  const word = (i: number) => WORDS[(n * 7 + i * 3 + salt) % WORDS.length]!;
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, ''])) as DocumentText;
  if (empty) return text;
  text.name = `${word(0)}_${n}`;
  text.description = n % 11 === 0 ? `Café ${word(1)} naïve` : `${word(1)} ${word(2)} of ${word(3)}`;
  if (n % 17 === 0) text.description += ` ${'amount '.repeat(300)}`;
  text.fieldPaths = [`${word(4)}Id`, `${word(5)}_${word(6)}`].join('\n');
  text.fieldDescriptions = n % 5 === 0 ? '' : [`The ${word(7)}.`, `Its ${word(8)}.`].join('\n');
  text.tags = n % 3 === 0 ? word(9) : '';
  return text;
}

/** Every answer of `engine` to QUERIES: ids, scores and matched terms, in a fixed order. */
function answers<T>(engine: SearchEngine<T>): string[] {
  return QUERIES.flatMap((query) => {
    const result = engine.query(query);
    return Array.from({ length: result.size }, (_, i) => {
      const matches = Object.entries(result.matches(i)).sort(([a], [b]) => (a < b ? -1 : 1));
      return `${query}: ${result.id(i)} ${result.scores[i]!.toFixed(9)} ${JSON.stringify(matches)}`;
    }).sort();
  });
}

async function built(onWorker: boolean, count: number): Promise<SearchEngine<undefined>> {
  const builder = engineBuilder<undefined>(onWorker);
  for (let n = 0; n < count; n++) builder.add(`doc:${n}`, documentText(n), undefined);
  return builder.build(5);
}

function putOneByOne(count: number): SearchEngine<undefined> {
  const engine = createSearchEngine<undefined>();
  for (let n = 0; n < count; n++) engine.put(`doc:${n}`, documentText(n), undefined);
  return engine;
}

// Removals that leave lists mostly dead (they get cleaned), replacements that grow laid-out lists, new ones.
function change(engine: SearchEngine<undefined>, count: number): void {
  for (let n = 0; n < count; n += 3) engine.remove(`doc:${n}`);
  for (let n = 1; n < count; n += 7) engine.put(`doc:${n}`, documentText(n, 1), undefined);
  for (let n = count; n < count + 40; n++) engine.put(`doc:${n}`, documentText(n, 2), undefined);
  for (let n = 2; n < count; n += 3) engine.remove(`doc:${n}`);
}

const test = suite('search index: first build');

test('a first build on this thread answers as a put per document, and so it does after changes', async () => {
  const fromBuild = await built(false, 400);
  const fromPuts = putOneByOne(400);
  assert.ok(answers(fromPuts).length > 100, 'the queries find documents');
  assert.equal(answers(fromBuild), answers(fromPuts));
  assert.is(fromBuild.size, 400);
  change(fromBuild, 400);
  change(fromPuts, 400);
  assert.equal(answers(fromBuild), answers(fromPuts));
  assert.is(fromBuild.size, fromPuts.size);
});

test('documents laid out over many small chunks answer as one put each', async () => {
  const builder = new IndexBuilder(50);
  const ids: string[] = [];
  for (let n = 0; n < 300; n++) {
    ids.push(`doc:${n}`);
    builder.add(n % 13 === 0 ? documentText(n, 0, true) : documentText(n));
  }
  const engine = new InvertedIndex<undefined>(await sliced(assemble(await sliced(builder.layout(), 5), ids), 5));
  const reference = createSearchEngine<undefined>();
  for (let n = 0; n < 300; n++)
    reference.put(`doc:${n}`, n % 13 === 0 ? documentText(n, 0, true) : documentText(n), undefined);
  assert.equal(answers(engine), answers(reference));
  change(engine, 300);
  change(reference, 300);
  assert.equal(answers(engine), answers(reference));
});

test("work in slices still gives the event loop its turns under a test suite's fake timers", async () => {
  // 60 ms of steps in slices of 5 ms: about a dozen turns of the event loop between them.
  function* steps(): Generator<void, number> {
    const end = realClock.now() + 60;
    let count = 0;
    for (; realClock.now() < end; count++) yield;
    return count;
  }
  const [, during] = await turnsUnderFakeTimers(() => sliced(steps(), 5), 2000);
  // The work in one go gives none; a loaded machine may give fewer than a dozen.
  assert.ok(during >= 2, `${during} turns of the event loop during 60 ms of work in slices of 5 ms`);
});

test('a build on a worker thread answers as one on this thread', async () => {
  const onWorker = await built(true, 1200);
  const here = await built(false, 1200);
  assert.equal(answers(onWorker), answers(here));
  change(onWorker, 1200);
  change(here, 1200);
  assert.equal(answers(onWorker), answers(here));
});

test('an empty build makes an empty engine that takes documents', async () => {
  const engine = await built(true, 0);
  assert.is(engine.size, 0);
  engine.put('doc:1', documentText(1));
  assert.is(engine.query(documentText(1).name).size, 1);
});

test('a document added twice is refused', async () => {
  const builder = engineBuilder(false);
  builder.add('doc:1', documentText(1));
  builder.add('doc:1', documentText(2));
  await builder.build(5).then(
    () => assert.unreachable('built'),
    (error: Error) => assert.match(error.message, 'doc:1'),
  );
});

test("a store's index built on a worker answers as one built here, and follows a write", async () => {
  const hub = await openInProcess({ seed: [searchCatalogue()] });
  try {
    const onWorker = new SearchIndex(hub.store, { workerFrom: 0 });
    const here = new SearchIndex(hub.store, { workerFrom: Infinity });
    const both = async () => [answers((await onWorker.current()).engine), answers((await here.current()).engine)];
    const [a, b] = await both();
    assert.ok(a!.length > 0);
    assert.equal(a, b);
    const reply = await hub.gql('mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
      input: { description: 'One payment per customerId', resourceUrn: ORDERS },
    });
    assert.is(reply.json.errors, undefined, JSON.stringify(reply.json.errors));
    const [c, d] = await both();
    assert.equal(c, d);
    assert.ok(
      c!.some((answer) => answer.startsWith(`customerId: ${ORDERS}`)),
      'the edit is found',
    );
  } finally {
    await hub.close();
  }
});

test('the first build reads values a restart holds as text without building them into the catalogue', async () => {
  const dataDir = tempDataDir();
  const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.table_${n},PROD)`;
  const changes = Array.from({ length: 40 }, (_, n) => ({
    urn: urn(n),
    aspect: 'datasetProperties',
    value: { name: `table_${n}`, description: `The ${WORDS[n % WORDS.length]!} ledger, number ${n}.` },
  }));
  const line = JSON.stringify({ seq: 1, time: 0, actor: 'urn:li:corpuser:datahub', op: 'ingest', changes });
  assert.ok(line.length >= DEFERRED_LINE_CHARS, `the line is long enough to be kept as text (${line.length})`);
  writeFileSync(join(dataDir, 'catalogue.jsonl'), `${line}\n`);
  const store = await Store.open({ dataDir });
  try {
    await countingLineBuilds(async (built) => {
      const { engine, facets } = await new SearchIndex(store, { workerFrom: Infinity }).current();
      assert.is(engine.query('ledger').size, 40);
      assert.is(engine.query('table_7').id(0), urn(7));
      assert.is(facets.get(urn(7))?.name, 'table_7');
      assert.is(built(), 0, 'no value was built into the catalogue');
      assert.equal(store.catalogue.aspect(urn(7), 'datasetProperties'), changes[7]!.value);
      assert.is(built(), 1, 'a read still builds it');
    });
  } finally {
    await store.close();
  }
});

test.run();
