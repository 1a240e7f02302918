// `export` and `compact` streamed from the log (a LogIndex, no catalogue) write exactly what they wrote
// from an opened store: byte for byte on the sample catalogue and on seeded random logs with overwrites,
// removals, re-created entities, long lines, access tokens, non-ASCII text and a torn last line; and on
// logs of column edits (logged as the edit alone) among whole values, removals and re-creations.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { JsonValue } from '../src/aspects/json.ts';
import { exportedRecords, exportedRecordsOf, writeMcpFile, type McpRecord } from '../src/datahub/export.ts';
import { seedCatalogue } from '../src/seeding.ts';
import { ColumnEditChange } from '../src/store/column-edit.ts';
import type { AspectChange, LogRecord } from '../src/store/log-record.ts';
import { compactOffline, withOfflineLog } from '../src/store/offline.ts';
import { Store } from '../src/store/store.ts';
import { SAMPLE, tempDataDir } from './fixtures/server.ts';

const LOG = 'catalogue.jsonl';
const ROOT = 'urn:li:corpuser:datahub';
const offline = suite('export and compact from the log');

async function fileText(records: Iterable<McpRecord> | AsyncIterable<McpRecord>): Promise<string> {
  const chunks: Buffer[] = [];
  await writeMcpFile(records, async (chunk) => void chunks.push(chunk), 512);
  return Buffer.concat(chunks).toString('utf8');
}

async function storeExport(dataDir: string): Promise<string> {
  const store = await Store.open({ dataDir, autoCompact: false });
  try {
    return await fileText(exportedRecords(store.catalogue));
  } finally {
    await store.close();
  }
}

function offlineExport(dataDir: string): Promise<string> {
  return withOfflineLog(
    dataDir,
    () => {},
    ({ index }) => fileText(exportedRecordsOf(index.entities())),
  );
}

function copyOf(dataDir: string): string {
  const copy = tempDataDir();
  copyFileSync(join(dataDir, LOG), join(copy, LOG));
  return copy;
}

// Compaction stamps its state records with the time it ran.
const logOf = (dataDir: string) =>
  readFileSync(join(dataDir, LOG), 'utf8').replace(/"time":\d+,("actor":"[^"]*","op":"compact")/g, '"time":0,$1');

async function assertCompactsAlike(dataDir: string): Promise<void> {
  const [viaStore, viaLog] = [copyOf(dataDir), copyOf(dataDir)];
  const store = await Store.open({ dataDir: viaStore, autoCompact: false });
  const expected = await store.compact();
  await store.close();
  const report = await withOfflineLog(viaLog, () => {}, compactOffline);
  assert.equal(report, expected);
  assert.is(logOf(viaLog), logOf(viaStore), 'the same compacted log');
}

/** A seeded pseudo-random number in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** A seeded random log; with `edits`, about a third of its commits are column edits logged as the edit alone. */
async function randomLog(seed: number, edits = false): Promise<string> {
  const dataDir = tempDataDir();
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const urns = [
    ...Array.from({ length: 12 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`),
    ...Array.from({ length: 6 }, (_, i) => `urn:li:tag:t${i}`),
    'urn:li:dataHubAccessToken:abc',
  ];
  const aspects = ['datasetProperties', 'editableSchemaMetadata', 'globalTags', 'status', 'dataHubAccessTokenInfo'];
  const value = (i: number): JsonValue =>
    next() < 0.2
      ? null
      : {
          description: `v${i} ${pick(['plain', 'naïve café ✓', 'x'.repeat(3000)])}`,
          editableSchemaFieldInfo: Array.from({ length: 1 + (i % 5) }, (_, c) => ({ fieldPath: `c${c}`, n: i })),
        };
  const description = (i: number) => `d${i} ${pick(['plain', 'naïve ✓', 'y'.repeat(5000)])}`;
  const store = await Store.open({ dataDir, autoCompact: false });
  for (let i = 0; i < 150; i++) {
    if (edits && next() < 0.35) {
      // Edits of different entities in one commit, each applied to the aspect as it stood before it;
      // columns c0-c4 may have entries already, c5-c7 are appended.
      const edited = [...new Set(Array.from({ length: next() < 0.2 ? 3 : 1 }, () => pick(urns)))];
      await store.commit('updateDescription', ROOT, (reader) =>
        edited.map(
          (urn): AspectChange =>
            new ColumnEditChange(
              urn,
              { fieldPath: `c${Math.floor(next() * 8)}`, description: description(i) },
              reader.aspect(urn, 'editableSchemaMetadata'),
            ),
        ),
      );
      continue;
    }
    const count = next() < 0.1 ? 8 : 1;
    await store.commit('random', ROOT, () =>
      Array.from({ length: count }, () => ({ urn: pick(urns), aspect: pick(aspects), value: value(i) })),
    );
    // Now and then an entity loses every aspect, and may come back later (last in the catalogue's order).
    if (next() < 0.05) {
      const urn = pick(urns);
      await store.commit('remove', ROOT, (reader) =>
        aspects
          .filter((aspect) => reader.aspect(urn, aspect) !== undefined)
          .map((aspect) => ({ urn, aspect, value: null })),
      );
    }
  }
  await store.close();
  return dataDir;
}

offline('the sample catalogue exports byte for byte as from the store, and compacts alike', async () => {
  const dataDir = tempDataDir();
  const store = await Store.open({ dataDir });
  await seedCatalogue(store, dataDir, [SAMPLE], ROOT);
  await store.close();
  const expected = await storeExport(dataDir);
  assert.ok(expected.length > 10_000);
  assert.is(await offlineExport(dataDir), expected);
  await assertCompactsAlike(dataDir);
});

for (const seed of [1, 2, 3]) {
  offline(`a random log of overwrites and removals (seed ${seed}) exports and compacts alike`, async () => {
    const dataDir = await randomLog(seed);
    const expected = await storeExport(copyOf(dataDir));
    assert.is(await offlineExport(dataDir), expected);
    assert.not.match(expected, /dataHubAccessToken/, 'access tokens stay out');
    await assertCompactsAlike(dataDir);
    // A compacted log, history records and all, exports the same again.
    await withOfflineLog(dataDir, () => {}, compactOffline);
    assert.is(await offlineExport(dataDir), expected);
  });
}

for (const seed of [5, 6, 7, 8]) {
  offline(`a random log with column edits (seed ${seed}) exports and compacts alike, the state whole`, async () => {
    const dataDir = await randomLog(seed, true);
    const log = readFileSync(join(dataDir, LOG), 'utf8');
    assert.match(log, /"columnEdit":\{"fieldPath":"c\d","description":"d\d+ y{5000}"\}/, 'long edit lines');
    const expected = await storeExport(copyOf(dataDir));
    assert.is(await offlineExport(dataDir), expected);
    await assertCompactsAlike(dataDir);
    await withOfflineLog(dataDir, () => {}, compactOffline);
    const records = readFileSync(join(dataDir, LOG), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LogRecord);
    for (const { changes, history } of records) {
      assert.not.match(JSON.stringify([changes, history]), /columnEdit/, 'the compacted state holds whole values');
    }
    // The history may keep a step as the edit that made it, in `patches` (src/history/value-patch.ts).
    assert.ok(
      records.some(({ patches }) => patches?.some((change) => 'columnEdit' in change)),
      'a step kept as its edit',
    );
    assert.is(await offlineExport(dataDir), expected);
  });
}

offline(
  'column edits after a whole value, after other edits, after an ingest, after a removal, and alone',
  async () => {
    const dataDir = tempDataDir();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.${name},PROD)`) as [
      string,
      string,
      string,
    ];
    const ingest = (urn: string, fields: string[]): AspectChange => ({
      urn,
      aspect: 'editableSchemaMetadata',
      value: { created: 1, editableSchemaFieldInfo: fields.map((fieldPath) => ({ fieldPath, tag: fieldPath })) },
    });
    const edit =
      (urn: string, fieldPath: string, description: string) =>
      (reader: { aspect(urn: string, name: string): JsonValue | undefined }): AspectChange[] => [
        new ColumnEditChange(urn, { fieldPath, description }, reader.aspect(urn, 'editableSchemaMetadata')),
      ];
    const store = await Store.open({ dataDir, autoCompact: false });
    const steps: [string, (reader: { aspect(urn: string, name: string): JsonValue | undefined }) => AspectChange[]][] =
      [
        [
          'ingest',
          () => [ingest(a, ['x', 'y']), ingest(b, ['x']), { urn: c, aspect: 'status', value: { removed: false } }],
        ],
        ['edit', edit(a, 'y', 'first')],
        ['edit', edit(a, 'z', 'appended')],
        ['edit', edit(a, 'y', 'second')],
        ['edit', edit(b, 'x', 'b edited')],
        // An ingest after edits: the edits before it count no more.
        ['ingest', () => [ingest(b, ['w', 'x'])]],
        ['edit', edit(b, 'w', 'after the ingest')],
        // The aspect removed, then an edit re-creates it from nothing; the entity removed and re-created by an edit.
        ['remove', () => [{ urn: a, aspect: 'editableSchemaMetadata', value: null }]],
        ['edit', edit(a, 'q', 'from nothing')],
        ['remove', () => [{ urn: c, aspect: 'status', value: null }]],
        ['edit', edit(c, 'k', 'an entity re-created by an edit')],
        ['edit', edit(c, 'k', 'y'.repeat(5000))],
      ];
    for (const [op, build] of steps) await store.commit(op, ROOT, build);
    const state = [a, b, c].map((urn) => store.catalogue.aspect(urn, 'editableSchemaMetadata'));
    await store.close();
    assert.equal(state[0], { editableSchemaFieldInfo: [{ fieldPath: 'q', description: 'from nothing' }] });
    assert.equal(state[1], {
      created: 1,
      editableSchemaFieldInfo: [
        { fieldPath: 'w', tag: 'w', description: 'after the ingest' },
        { fieldPath: 'x', tag: 'x' },
      ],
    });
    const expected = await storeExport(copyOf(dataDir));
    assert.match(expected, /an entity re-created|y{5000}/);
    assert.is(await offlineExport(dataDir), expected);
    await assertCompactsAlike(dataDir);
  },
);

offline('a torn last line is left out of the export and cut off by compact, as the store does', async () => {
  const dataDir = await randomLog(4);
  appendFileSync(join(dataDir, LOG), '{"seq":999,"time":1,"actor":"a","op":"x","changes":[{"urn":"urn:li:tag:torn"');
  const expected = await storeExport(copyOf(dataDir));
  assert.is(await offlineExport(dataDir), expected);
  await assertCompactsAlike(dataDir);
});

offline.run();
