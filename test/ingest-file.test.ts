// `minihub ingest` of a file: read twice in pieces (a plan of where each aspect's last upsert is, then
// the writes a batch at a time), with the counts and the state of parsing the whole file at once; and
// the store holding what ingest commits as the log's text (keepValuesAsText), read back unchanged.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';

import { parseDataHubFile, parseDataHubPieces } from '../src/datahub/datahub-file.ts';
import { ingest, ingestFile, ingestParsed, INGEST_BATCH_ASPECTS, type IngestReport } from '../src/datahub/ingest.ts';
import { Store } from '../src/store/store.ts';
import type { JsonValue } from '../src/aspects/json.ts';
import { BOOTSTRAP, SAMPLE, tempDataDir } from './fixtures/server.ts';
import { countingLineBuilds } from './fixtures/line-builds.ts';

const ACTOR = 'urn:li:corpuser:datahub';
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)`;

function mcp(urn: string, aspectName: string, json: JsonValue): JsonValue {
  return { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { json } };
}

/** The text cut into pieces of `size` characters, as fileText hands a file on. */
function piecesOf(text: string, size = 1000): () => string[] {
  return () => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/** Every entity with its aspects, as plain JSON. */
function stateOf(store: Store): string {
  return JSON.stringify([...store.catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]));
}

/** The state and report of ingesting `text` into a fresh in-memory store, by the file way and by the whole-text way. */
async function bothWays(text: string) {
  const byFile = await Store.open({ dataDir: null });
  const fileReport = await ingestFile(byFile, 'f.json', piecesOf(text), ACTOR);
  const whole = await Store.open({ dataDir: null });
  const wholeReport = await ingestParsed(whole, parseDataHubFile(text, 'f.json'), 'f.json', ACTOR);
  return { byFile, fileReport, whole, wholeReport };
}

const reading = suite('ingest of a file, read twice');

reading('writes each aspect once, with its last value, and nothing when the file is ingested again', async () => {
  const records = [
    mcp(urnOf(1), 'status', { removed: false }),
    mcp(urnOf(2), 'status', { removed: false }),
    mcp(urnOf(1), 'status', { removed: true }),
  ];
  const text = JSON.stringify(records);
  const { byFile, fileReport, whole, wholeReport } = await bothWays(text);
  assert.equal(fileReport, wholeReport);
  assert.is(fileReport.written, 2);
  assert.equal(byFile.catalogue.aspect(urnOf(1), 'status'), { removed: true });
  assert.is(stateOf(byFile), stateOf(whole));
  const again = await ingestFile(byFile, 'f.json', piecesOf(text), ACTOR);
  assert.is(again.written, 0);
  assert.is(again.unchanged, 2);
});

reading("writes a repeated snapshot aspect with its last value, read from DataHub's Avro JSON", async () => {
  const snapshot = (description: string) => ({
    proposedSnapshot: {
      'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
        urn: urnOf(1),
        aspects: [
          { 'com.linkedin.pegasus2avro.common.Status': { removed: false } },
          { 'com.linkedin.pegasus2avro.dataset.DatasetProperties': { description: { string: description } } },
        ],
      },
    },
  });
  const text = JSON.stringify([snapshot('first'), mcp(urnOf(2), 'status', { removed: true }), snapshot('last')]);
  const { byFile, fileReport, whole, wholeReport } = await bothWays(text);
  assert.equal(fileReport, wholeReport);
  assert.equal(byFile.catalogue.aspect(urnOf(1), 'datasetProperties'), { description: 'last' });
  assert.is(stateOf(byFile), stateOf(whole));
});

reading('commits batches of INGEST_BATCH_ASPECTS aspects, each aspect where it first comes', async () => {
  const count = INGEST_BATCH_ASPECTS * 2 + 7;
  const records = Array.from({ length: count }, (_, i) => mcp(urnOf(i), 'status', { removed: false }));
  // The first dataset comes again last: its one write is still the first, with the last value.
  records.push(mcp(urnOf(0), 'status', { removed: true }));
  const store = await Store.open({ dataDir: null });
  const batches: string[][] = [];
  store.onApplied((changes) => batches.push(changes.map(({ urn }) => urn)));
  const report = await ingestFile(store, 'f.json', piecesOf(JSON.stringify(records), 65536), ACTOR);
  assert.is(report.written, count);
  assert.equal(
    batches.map((batch) => batch.length),
    [INGEST_BATCH_ASPECTS, INGEST_BATCH_ASPECTS, 7],
  );
  assert.is(batches[0]?.[0], urnOf(0));
  assert.is(batches[2]?.[6], urnOf(count - 1));
  assert.equal(store.catalogue.aspect(urnOf(0), 'status'), { removed: true });
});

reading('counts records, rejections and entities as the whole-text parse does, JSON lines included', async () => {
  const lines = [
    JSON.stringify(mcp(urnOf(1), 'status', { removed: false })),
    '{"not": "a record"}',
    'not json at all',
    JSON.stringify(mcp(urnOf(2), 'datasetProperties', { name: 't2' })),
  ].join('\n');
  const { byFile, fileReport, whole, wholeReport } = await bothWays(lines);
  assert.equal(fileReport, wholeReport);
  assert.is(fileReport.records, 4);
  assert.is(fileReport.rejected.length, 2);
  assert.is(stateOf(byFile), stateOf(whole));
});

reading('reads JSON lines whose first line is an array as lines, writing nothing of the first reading', async () => {
  // Read as one array first, the text turns out to be two lines: each line is then one record (an array: rejected).
  const text = `[${JSON.stringify(mcp(urnOf(1), 'status', { removed: false }))}]\n[1]`;
  const { byFile, fileReport, wholeReport } = await bothWays(text);
  assert.equal(fileReport, wholeReport);
  assert.is(fileReport.records, 2);
  assert.is(fileReport.written, 0);
  assert.is(byFile.catalogue.entityCount, 0);
});

reading('refuses a file that changed between its two readings, naming it and what was written', async () => {
  const status = (i: number) => mcp(urnOf(i), 'status', { removed: false });
  const cases = [
    {
      first: [status(1), status(2)],
      second: [status(1)],
      why: /\(2 aspects at first, 1 the second time it was read\)/,
    },
    // As many aspects, but not the ones planned: nothing of the second reading is written in their place.
    { first: [status(1), status(1)], second: [status(2), status(2)], why: /\(aspect 1 was not there at first\)/ },
  ];
  for (const { first, second, why } of cases) {
    // The first reading asks for the text twice (its first character, then the records).
    let readings = 0;
    const pieces = () => [JSON.stringify(readings++ < 2 ? first : second)];
    const store = await Store.open({ dataDir: null });
    try {
      await ingestFile(store, 'moving.json', pieces, ACTOR);
      assert.unreachable('the ingest should have failed');
    } catch (error) {
      assert.match((error as Error).message, /^moving\.json changed while it was ingested/);
      assert.match((error as Error).message, why);
      assert.match((error as Error).message, /; 0 aspects were written; ingest it again once it stays the same$/);
    }
    assert.is(store.catalogue.entityCount, 0);
  }
});

reading('stops before the next batch once the file is no longer as it was planned', async () => {
  const records = Array.from({ length: INGEST_BATCH_ASPECTS + 5 }, (_, i) =>
    mcp(urnOf(i), 'status', { removed: false }),
  );
  const store = await Store.open({ dataDir: null });
  let checks = 0;
  try {
    await ingestFile(
      store,
      'rewritten.json',
      piecesOf(JSON.stringify(records), 65536),
      ACTOR,
      undefined,
      () => ++checks < 2,
    );
    assert.unreachable('the ingest should have failed');
  } catch (error) {
    assert.match(
      (error as Error).message,
      /^rewritten\.json changed while it was ingested \(its size or modification time/,
    );
    assert.match((error as Error).message, new RegExp(`; ${INGEST_BATCH_ASPECTS} aspects were written;`));
  }
  assert.is(store.catalogue.entityCount, INGEST_BATCH_ASPECTS);
});

reading("ingests the sample and DataHub's bootstrap file from disk as the whole-text parse does", async () => {
  const files = [SAMPLE, ...(existsSync(BOOTSTRAP) ? [BOOTSTRAP] : [])];
  for (const file of files) {
    const byFile = await Store.open({ dataDir: null });
    const report = await ingest(byFile, file, ACTOR);
    const whole = await Store.open({ dataDir: null });
    const text = readFileSync(file, 'utf8');
    const wholeReport = await ingestParsed(
      whole,
      parseDataHubPieces(() => [text], file),
      file,
      ACTOR,
    );
    assert.equal(report, wholeReport, file);
    assert.is(stateOf(byFile), stateOf(whole), file);
  }
  if (!existsSync(BOOTSTRAP)) console.log(`bootstrap_mce.json not found: the sample alone was compared`);
});

reading.run();

const text = suite('a store keeping committed values as text');

text('reads back what it committed, rebuilt from the text rather than the objects it was given', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir, keepValuesAsText: true });
  const value = { name: 'wide', description: 'x'.repeat(5000) };
  const small = { removed: false };
  await store.commit('ingest', ACTOR, () => [
    { urn: urnOf(1), aspect: 'datasetProperties', value },
    { urn: urnOf(1), aspect: 'status', value: small },
  ]);
  // Changed after the commit: a catalogue holding the given objects would show this.
  value.description = 'changed';
  assert.is(
    (store.catalogue.aspect(urnOf(1), 'datasetProperties') as { description: string }).description,
    'x'.repeat(5000),
  );
  assert.equal(store.catalogue.aspect(urnOf(1), 'status'), small);
  await store.close();

  const plain = await Store.open({ dataDir });
  const held = { name: 'again', description: 'y'.repeat(5000) };
  await plain.commit('ingest', ACTOR, () => [{ urn: urnOf(2), aspect: 'datasetProperties', value: held }]);
  held.description = 'changed';
  assert.is((plain.catalogue.aspect(urnOf(2), 'datasetProperties') as { description: string }).description, 'changed');
  await plain.close();
});

text('keeps a container as it is, and the other values of its record as text', async () => {
  const store = await Store.open({ dataDir: tempDataDir(), keepValuesAsText: true });
  const container = { container: 'urn:li:container:c1' };
  const properties = { description: 'w'.repeat(5000) };
  await store.commit('ingest', ACTOR, () => [
    { urn: urnOf(1), aspect: 'container', value: container },
    { urn: urnOf(1), aspect: 'datasetProperties', value: properties },
  ]);
  // The container index has the value without the line being parsed: the other value is still the line's.
  properties.description = 'changed';
  assert.equal([...store.catalogue.contained('urn:li:container:c1')], [urnOf(1)]);
  assert.is(store.catalogue.aspect(urnOf(1), 'container'), container);
  assert.is(
    (store.catalogue.aspect(urnOf(1), 'datasetProperties') as { description: string }).description,
    'w'.repeat(5000),
  );
  await store.close();
});

text('keeps a short record and a removal as they are', async () => {
  const store = await Store.open({ dataDir: tempDataDir(), keepValuesAsText: true });
  const value = { removed: false };
  await store.commit('ingest', ACTOR, () => [{ urn: urnOf(1), aspect: 'status', value }]);
  assert.is(store.catalogue.aspect(urnOf(1), 'status'), value, 'a short record is not worth holding as text');
  await store.commit('ingest', ACTOR, () => [
    { urn: urnOf(1), aspect: 'status', value: null },
    { urn: urnOf(1), aspect: 'datasetProperties', value: { description: 'z'.repeat(5000) } },
  ]);
  assert.is(store.catalogue.aspect(urnOf(1), 'status'), undefined);
  assert.is(store.catalogue.exists(urnOf(1)), true);
  await store.close();
});

text(
  'compares a file ingested again with the text it holds, building none of its values, also after a restart',
  async () => {
    const dataDir = tempDataDir();
    const records = Array.from({ length: 30 }, (_, i) =>
      mcp(urnOf(i), 'datasetProperties', { name: `t${i}`, description: `d${i} `.repeat(100) }),
    );
    const text = JSON.stringify(records);
    const store = await Store.open({ dataDir, keepValuesAsText: true });
    assert.is((await ingestFile(store, 'f.json', piecesOf(text), ACTOR)).written, 30);
    let again: IngestReport | undefined;
    assert.is(
      await countingLineBuilds(async () => void (again = await ingestFile(store, 'f.json', piecesOf(text), ACTOR))),
      0,
    );
    assert.equal([again?.written, again?.unchanged], [0, 30]);
    await store.close();

    const reopened = await Store.open({ dataDir });
    const changed = JSON.stringify(
      records.map((record, i) => (i === 7 ? mcp(urnOf(7), 'datasetProperties', { name: 'new' }) : record)),
    );
    const builds = await countingLineBuilds(
      async () => void (again = await ingestFile(reopened, 'f.json', piecesOf(changed), ACTOR)),
    );
    assert.is(builds, 0);
    assert.equal([again?.written, again?.unchanged], [1, 29]);
    assert.equal(reopened.catalogue.aspect(urnOf(7), 'datasetProperties'), { name: 'new' });
    assert.equal(reopened.catalogue.aspect(urnOf(8), 'datasetProperties'), {
      name: 't8',
      description: 'd8 '.repeat(100),
    });
    await reopened.close();
  },
);

text(
  'compares as text from lines visited in any order, and builds a line that cannot be cut by change once',
  async () => {
    const store = await Store.open({ dataDir: tempDataDir(), keepValuesAsText: true });
    const valueOf = (i: number) => ({ name: `t${i}`, description: `d${i} `.repeat(2000) });
    for (let i = 0; i < 8; i++)
      await store.commit('ingest', ACTOR, () => [
        { urn: urnOf(i), aspect: 'datasetProperties', value: valueOf(i) },
        { urn: urnOf(i), aspect: 'status', value: { removed: false } },
      ]);
    const order = [0, 1, 2, 3, 4, 5, 6, 7, 0, 3, 7, 1];
    const builds = await countingLineBuilds(async () => {
      for (const i of order)
        assert.is(store.catalogue.aspectJson(urnOf(i), 'datasetProperties'), JSON.stringify(valueOf(i)), `line ${i}`);
    });
    assert.is(builds, 0);
    // A value holding what stands between two changes in a line: the line is not cut, but built whole, once.
    const nested = {
      items: [
        { urn: 'a', aspect: 'b', value: 1 },
        { urn: 'c', aspect: 'd', value: 2 },
      ],
      description: 'n'.repeat(5000),
    };
    await store.commit('ingest', ACTOR, () => [
      { urn: urnOf(8), aspect: 'datasetProperties', value: nested },
      { urn: urnOf(8), aspect: 'status', value: { removed: true } },
    ]);
    const nestedBuilds = await countingLineBuilds(async () => {
      assert.is(store.catalogue.aspectJson(urnOf(8), 'datasetProperties'), JSON.stringify(nested));
      assert.is(store.catalogue.aspectJson(urnOf(8), 'status'), '{"removed":true}');
    });
    assert.is(nestedBuilds, 1);
    assert.equal(store.catalogue.aspect(urnOf(0), 'datasetProperties'), valueOf(0));
    assert.is(store.catalogue.aspectJson(urnOf(99), 'datasetProperties'), undefined);
    await store.close();
  },
);

text.run();
