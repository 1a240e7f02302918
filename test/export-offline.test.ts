// `export` and `compact` streamed from the log (a LogIndex, no catalogue) write exactly what they wrote
// from an opened store: byte for byte on the sample catalogue and on seeded random logs with overwrites,
// removals, re-created entities, long lines, access tokens, non-ASCII text and a torn last line.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { JsonValue } from '../src/aspects/json.ts';
import { exportedRecords, exportedRecordsOf, writeMcpFile, type McpRecord } from '../src/datahub/export.ts';
import { seedCatalogue } from '../src/seeding.ts';
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
  const copy = mkdtempSync(join(tmpdir(), 'minihub-offline-'));
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

async function randomLog(seed: number): Promise<string> {
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
  const store = await Store.open({ dataDir, autoCompact: false });
  for (let i = 0; i < 150; i++) {
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

offline('a torn last line is left out of the export and cut off by compact, as the store does', async () => {
  const dataDir = await randomLog(4);
  appendFileSync(join(dataDir, LOG), '{"seq":999,"time":1,"actor":"a","op":"x","changes":[{"urn":"urn:li:tag:torn"');
  const expected = await storeExport(copyOf(dataDir));
  assert.is(await offlineExport(dataDir), expected);
  await assertCompactsAlike(dataDir);
});

offline.run();
