// Compaction, export and ingest work record by record, with a lowered cap standing in for V8's 512 MiB
// string limit: no write is larger than the cap (bar one record that is larger by itself), no piece of
// text read is either, and the bytes and records are those of the whole-text way they replace.
// (test/bench/big-catalogue.ts runs the real thing, over 512 MiB, through the CLI.)

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseDataHubFile, parseDataHubPieces } from '../src/datahub/datahub-file.ts';
import { fileText } from '../src/datahub/file-text.ts';
import { ingest, parsedChanges } from '../src/datahub/ingest.ts';
import { JsonSplitter } from '../src/datahub/json-splitter.ts';
import { exportedRecords, mcpFileText, writeMcpFile } from '../src/datahub/export.ts';
import type { LogFileSystem } from '../src/store/log-fs.ts';
import { nodeLogFileSystem } from '../src/store/node-log-fs.ts';
import type { LogRecord } from '../src/store/log-record.ts';
import { Store } from '../src/store/store.ts';
import { SAMPLE, tempDataDir } from './fixtures/server.ts';

const CAP = 4096;
const ACTOR = 'urn:li:corpuser:datahub';

/** The real file system, noting the size of every write per file. */
function recordingFileSystem(): { fs: LogFileSystem; writes: Map<string, number[]> } {
  const writes = new Map<string, number[]>();
  const fs: LogFileSystem = {
    ...nodeLogFileSystem,
    async open(path, mode) {
      const file = await nodeLogFileSystem.open(path, mode);
      const sizes = writes.get(path) ?? [];
      writes.set(path, sizes);
      return {
        write: (data, position) => {
          sizes.push(data.length);
          return file.write(data, position);
        },
        sync: () => file.sync(),
        truncate: (length) => file.truncate(length),
        close: () => file.close(),
      };
    },
  };
  return { fs, writes };
}

/** A store holding `entities` datasets of about 600 bytes each, plus one of `bigBytes` (0: none). */
async function filledStore(dataDir: string, fs: LogFileSystem, entities: number, bigBytes = 0): Promise<Store> {
  const store = await Store.open({ dataDir, fileSystem: fs, maxChunkBytes: CAP, autoCompact: false });
  for (let round = 0; round < 3; round++) {
    await store.commit('test', ACTOR, () =>
      Array.from({ length: entities }, (_, i) => ({
        urn: `urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)`,
        aspect: 'datasetProperties',
        value: { name: `t${i}`, description: `Round ${round} of table ${i}: ${'ü✓'.repeat(200)}` },
      })),
    );
  }
  if (bigBytes > 0) {
    await store.commit('test', ACTOR, () => [
      { urn: 'urn:li:tag:big', aspect: 'tagProperties', value: { name: 'big', description: 'x'.repeat(bigBytes) } },
    ]);
  }
  return store;
}

// ---

const compaction = suite('compaction in bounded chunks');

compaction(
  'writes the new log in writes of at most the cap, byte for byte what one whole encoding gives, and replays it the same',
  async () => {
    const dataDir = tempDataDir();
    const { fs, writes } = recordingFileSystem();
    const store = await filledStore(dataDir, fs, 100);
    const log = join(dataDir, 'catalogue.jsonl');
    let state: unknown;
    try {
      const report = await store.compact();
      assert.is(report.entities, 100);
      // What one whole encoding of each record gives, the entities in the catalogue's order, several to a record.
      const whole = readFileSync(log, 'utf8');
      const records = whole.trimEnd().split('\n');
      assert.is(report.records, records.length);
      assert.ok(records.length < 100, `${records.length} records for 100 entities`);
      const parsed = records.map((line) => JSON.parse(line) as LogRecord);
      parsed.forEach((record, index) => {
        assert.is(JSON.stringify(record), records[index], `record ${index + 1} as JSON.stringify writes it`);
        assert.equal([record.seq, record.actor, record.op], [index + 1, ACTOR, 'compact']);
      });
      assert.equal(
        parsed.flatMap((record) => record.changes),
        [...store.catalogue.entities()].flatMap(([urn, aspects]) =>
          [...aspects].map(([aspect, value]) => ({ urn, aspect, value })),
        ),
      );
      assert.is(report.bytesAfter, Buffer.byteLength(whole));
      const sizes = writes.get(`${log}.compact`) ?? [];
      assert.ok(
        Buffer.byteLength(whole) > 20 * CAP,
        `the catalogue (${Buffer.byteLength(whole)} bytes) is many times the cap`,
      );
      assert.ok(sizes.length >= Buffer.byteLength(whole) / CAP, `${sizes.length} writes`);
      assert.ok(Math.max(...sizes) <= CAP, `largest write ${Math.max(...sizes)} bytes`);
      state = [...store.catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]);
    } finally {
      await store.close();
    }
    const reopened = await Store.open({ dataDir });
    try {
      assert.equal(
        [...reopened.catalogue.entities()].map(([urn, aspects]) => [urn, [...aspects]]),
        state,
      );
    } finally {
      await reopened.close();
    }
  },
);

compaction('writes a record larger than the cap alone, in one write of its own size', async () => {
  const dataDir = tempDataDir();
  const { fs, writes } = recordingFileSystem();
  const store = await filledStore(dataDir, fs, 10, 3 * CAP);
  try {
    await store.compact();
    const sizes = writes.get(join(dataDir, 'catalogue.jsonl.compact')) ?? [];
    const big = sizes.filter((size) => size > CAP);
    assert.is(big.length, 1);
    const bigLine =
      readFileSync(join(dataDir, 'catalogue.jsonl'), 'utf8')
        .split('\n')
        .find((line) => line.includes('urn:li:tag:big')) ?? '';
    assert.is(big[0], Buffer.byteLength(bigLine) + 1);
  } finally {
    await store.close();
  }
});

compaction.run();

// ---

const exporting = suite('export in bounded chunks');

exporting('writes the bytes of mcpFileText in chunks of at most the cap', async () => {
  const store = await filledStore(tempDataDir(), nodeLogFileSystem, 100);
  try {
    const chunks: Buffer[] = [];
    const count = await writeMcpFile(exportedRecords(store.catalogue), async (chunk) => void chunks.push(chunk), CAP);
    const whole = mcpFileText(store.export());
    assert.is(count, 100);
    assert.is(Buffer.concat(chunks).toString(), whole);
    assert.ok(chunks.length >= Buffer.byteLength(whole) / CAP, `${chunks.length} chunks`);
    assert.ok(Math.max(...chunks.map((chunk) => chunk.length)) <= CAP);
  } finally {
    await store.close();
  }
  const empty: Buffer[] = [];
  assert.is(await writeMcpFile([], async (chunk) => void empty.push(chunk), CAP), 0);
  assert.is(Buffer.concat(empty).toString(), '[]\n');
});

exporting('lets the event loop run between chunks', async () => {
  const store = await filledStore(tempDataDir(), nodeLogFileSystem, 100);
  try {
    // A callback that queues itself again each turn of the event loop: it runs only while the writer
    // lets the loop turn (a timer would depend on how fast the machine is).
    let turns = 0;
    let done = false;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    let chunks = 0;
    // A sink that never waits: only the writer's own yield lets the loop turn.
    await writeMcpFile(exportedRecords(store.catalogue), async () => void chunks++, CAP);
    const turnsDuring = turns;
    done = true;
    assert.ok(chunks > 20 && turnsDuring >= chunks / 2, `${chunks} chunks, ${turnsDuring} turns of the event loop`);
  } finally {
    await store.close();
  }
});

exporting.run();

// ---

const reading = suite('ingest reading in bounded pieces');

/** Texts where splitting by brackets could go wrong: strings holding brackets, quotes, escapes, multi-byte characters. */
const TRICKY = [
  '[{"entityUrn": "urn:li:tag:a", "aspectName": "tagProperties", "aspect": {"json": {"name": "a]}\\"\\\\", "d": "ü😀[{"}}}, {"entityUrn": "urn:li:tag:b", "aspectName": "tagProperties", "aspect": {"json": {"name": "b"}}}]',
  '{"entityUrn": "urn:li:tag:a", "aspectName": "tagProperties", "aspect": {"json": {"name": "{["}}}\r\n\r\n{"entityUrn": oops}\n{"entityUrn": "urn:li:tag:b", "aspectName": "tagProperties", "aspect": {"json": {"name": "b"}}}',
  '\n{\n  "entityUrn": "urn:li:tag:a", "aspectName": "tagProperties",\n  "aspect": {"json": {"name": "a"}}\n}\n',
  '[1, [2, {"x": "]"}], {"proposedSnapshot": null}]',
  '[1,2]\n[3]\n',
  '[]',
];

reading('parses any cut of the text into pieces as it parses the whole text', () => {
  for (const text of TRICKY) {
    const whole = parseDataHubFile(text, 'f.json');
    for (const size of [1, 2, 3, 5, 8, 13]) {
      const pieces = () =>
        Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
      assert.equal(
        parseDataHubPieces(pieces, 'f.json'),
        whole,
        `${JSON.stringify(text).slice(0, 40)} in pieces of ${size}`,
      );
    }
  }
  // Broken files are refused as before, whatever the cut.
  for (const broken of ['[\n  {"a": 1},\n  {"b": \n]', '[{"a": 1},]', '{"a": 1}{"b": 2}', '[1] x']) {
    assert.throws(
      () => parseDataHubPieces(() => [...broken], 'broken.json'),
      /Cannot read broken\.json: it is not valid JSON \(.+\) nor JSON lines/,
    );
  }
});

reading(
  'reads a file in pieces of at most the cap, keeping characters cut between pieces, and hands on one record at a time',
  () => {
    const dir = tempDataDir();
    const path = join(dir, 'catalogue.json');
    const sample = readFileSync(SAMPLE, 'utf8');
    // A byte order mark, and multi-byte characters that the cap cuts in the middle somewhere.
    writeFileSync(path, `\uFEFF${sample.replace(/"description": "/g, '"description": "ü✓😀 ')}`);
    const pieces = [...fileText(path, CAP)];
    assert.ok(
      pieces.length > 2 && pieces.every((piece) => Buffer.byteLength(piece) <= CAP + 3),
      `${pieces.length} pieces`,
    );
    assert.is(
      pieces.join(''),
      readFileSync(path, 'utf8').slice(1),
      'the text as readFileSync decodes it, without the mark',
    );
    assert.equal(
      parseDataHubPieces(() => fileText(path, CAP), path),
      parseDataHubFile(readFileSync(path, 'utf8'), path),
    );

    const texts: string[] = [];
    const splitter = new JsonSplitter('array');
    for (const piece of fileText(path, CAP)) splitter.push(piece, (text) => texts.push(text));
    splitter.end();
    const records = JSON.parse(pieces.join('')) as unknown[];
    assert.equal(
      texts.map((text) => JSON.parse(text)),
      records,
      'each text handed on is one record',
    );
  },
);

reading('ingests a file read in pieces idempotently, with the counts of the whole-text parse', async () => {
  const store = await Store.open({ dataDir: tempDataDir() });
  try {
    const first = await ingest(store, SAMPLE, ACTOR);
    const whole = parseDataHubFile(readFileSync(SAMPLE, 'utf8'), SAMPLE);
    assert.is(first.records, whole.records);
    assert.is(first.written, parsedChanges([whole]).length);
    const bytes = store.logBytes;
    const again = await ingest(store, SAMPLE, ACTOR);
    assert.equal([again.written, again.unchanged], [0, first.written]);
    assert.is(store.logBytes, bytes, 'the second ingest wrote nothing');
  } finally {
    await store.close();
  }
});

reading.run();
