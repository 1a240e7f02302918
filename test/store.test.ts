// Durability through the real server: every acknowledged write survives a restart on the same data
// directory; a torn last line is cut, a corrupt line refuses the start, a second owner is refused.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startServer } from '../src/index.ts';
import { Catalogue } from '../src/store/catalogue.ts';
import { deferLongLines, DEFERRED_LINE_CHARS, ReplayedLine } from '../src/store/fast-start/lazy-lines.ts';
import { DATASET_QUERY, SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const LOG = 'catalogue.jsonl';

function logLines(dataDir: string): string[] {
  return readFileSync(join(dataDir, LOG), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

const restart = suite('restart on the same data directory');

restart('keeps every acknowledged write of every mutation', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  const description = 'Edited before the restart.\n\n* with a list\n* and ünïcode ✓';
  const writes = await Promise.all([
    first.gql(
      'mutation { updateDataset(urn: "' +
        ORDERS +
        '", input: {editableProperties: {description: ' +
        JSON.stringify(description) +
        '}, institutionalMemory: {elements: [{author: "urn:li:corpuser:alice", url: "https://wiki.example/a", description: "A"}]}}) { urn } }',
    ),
    first.gql(
      'mutation { updateDescription(input: {description: "col", resourceUrn: "' +
        ORDERS +
        '", subResource: "order_id", subResourceType: DATASET_FIELD}) }',
    ),
    first.gql('mutation { updateDescription(input: {description: "db", resourceUrn: "urn:li:container:shop_db"}) }'),
    first.gql('mutation { createTag(input: {id: "survivor", name: "Survivor", description: "made before"}) }'),
    first.gql(
      'mutation { addLink(input: {linkUrl: "https://wiki.example/b", label: "B", resourceUrn: "' + ORDERS + '"}) }',
    ),
  ]);
  for (const write of writes) assert.is(write.json.errors, undefined, JSON.stringify(write.json));
  await first.gql('mutation { removeLink(input: {linkUrl: "https://wiki.example/b", resourceUrn: "' + ORDERS + '"}) }');
  const before = (await first.gql(DATASET_QUERY, { urn: ORDERS })).json.data;
  await first.close();

  const second = await startTestServer({ dataDir, seed: [SAMPLE] });
  try {
    assert.equal(second.seeded, [], 'a data directory that holds a catalogue is not seeded again');
    const after = (await second.gql(DATASET_QUERY, { urn: ORDERS })).json.data;
    assert.equal(after, before);
    assert.is(after.dataset.properties.description, description);
    assert.is(after.dataset.schemaMetadata.fields[0].description, 'col');
    assert.equal(
      after.dataset.institutionalMemory.elements.map((e: { url: string }) => e.url),
      ['https://wiki.example/a'],
    );
    const others = await second.gql(
      '{ tag(urn: "urn:li:tag:survivor") { properties { name description } } container(urn: "urn:li:container:shop_db") { properties { description } } }',
    );
    assert.equal(others.json.data, {
      tag: { properties: { name: 'Survivor', description: 'made before' } },
      container: { properties: { description: 'db' } },
    });
  } finally {
    await second.close();
  }
});

restart('writes one log line per mutation and one per ingest batch', async () => {
  const dataDir = tempDataDir();
  const hub = await startTestServer({ dataDir, seed: [SAMPLE] });
  await hub.gql(
    'mutation { updateDataset(urn: "' +
      ORDERS +
      '", input: {editableProperties: {description: "x"}, institutionalMemory: {elements: [{author: "urn:li:corpuser:bob", url: "https://a.example", description: "a"}]}}) { urn } }',
  );
  await hub.gql('mutation { createTag(input: {id: "one", name: "one"}) }');
  await hub.gql('mutation { createTag(input: {id: "one", name: "again"}) }');
  await hub.close();
  const records = logLines(dataDir).map((line) => JSON.parse(line));
  assert.equal(
    records.map((record) => record.op),
    ['ingest', 'updateDataset', 'createTag'],
  );
  assert.equal(
    records.map((record) => record.seq),
    [1, 2, 3],
  );
  assert.equal(
    records[1].changes.map((change: { aspect: string }) => change.aspect),
    ['editableDatasetProperties', 'institutionalMemory'],
  );
  assert.is(records[1].actor, 'urn:li:corpuser:datahub');
});

restart('keeps the signing key readable by its owner only, and no token in the clear', async () => {
  const dataDir = tempDataDir();
  const hub = await startTestServer({ dataDir, seed: [SAMPLE] });
  await hub.gql('mutation { createTag(input: {id: "t", name: "t"}) }');
  const token = hub.token;
  await hub.close();
  assert.is(statSync(join(dataDir, 'signing.key')).mode & 0o777, 0o600);
  for (const file of readdirSync(dataDir)) {
    assert.not.ok(
      readFileSync(join(dataDir, file), 'utf8').includes(token.split('.')[2] as string),
      `${file} holds the token`,
    );
  }
});

restart('writes nothing to disk in memory mode', async () => {
  const cwdBefore = readdirSync('.');
  const hub = await startTestServer({ seed: [SAMPLE] });
  await hub.gql('mutation { createTag(input: {id: "mem", name: "mem"}) }');
  await hub.reset();
  const reply = await hub.gql(
    '{ tag(urn: "urn:li:tag:mem") { properties { name } } tag2: tag(urn: "urn:li:tag:pii") { properties { name } } }',
  );
  assert.equal(
    reply.json.data,
    { tag: { properties: null }, tag2: { properties: { name: 'pii' } } },
    'reset() goes back to the seed',
  );
  await hub.close();
  assert.equal(readdirSync('.'), cwdBefore);
});

restart.run();

// ---

const recovery = suite('recovery at start');

recovery('cuts a torn last line with a warning, saves it aside and keeps every whole record', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  await first.gql('mutation { createTag(input: {id: "kept", name: "kept"}) }');
  await first.close();
  const torn =
    '{"seq":3,"time":1,"actor":"urn:li:corpuser:datahub","op":"createTag","changes":[{"urn":"urn:li:tag:lost"';
  appendFileSync(join(dataDir, LOG), torn);

  const warnings: string[] = [];
  const second = await startTestServer({ dataDir, log: (message) => warnings.push(message) });
  try {
    assert.is(warnings.length, 1);
    assert.match(warnings[0] as string, /last line was incomplete .* saved it to .*torn-/);
    const aside = readdirSync(dataDir).find((file) => file.includes('.torn-'));
    assert.ok(aside !== undefined);
    assert.is(readFileSync(join(dataDir, aside), 'utf8'), torn);
    assert.is(logLines(dataDir).length, 2);
    const reply = await second.gql(
      '{ a: tag(urn: "urn:li:tag:kept") { properties { name } } b: tag(urn: "urn:li:tag:lost") { properties { name } } }',
    );
    assert.equal(reply.json.data, { a: { properties: { name: 'kept' } }, b: { properties: null } });
    // New writes continue the log on a whole line.
    await second.gql('mutation { createTag(input: {id: "after", name: "after"}) }');
    assert.is(JSON.parse(logLines(dataDir)[2] as string).seq, 3);
  } finally {
    await second.close();
  }
});

recovery(
  'refuses to start on a corrupt line that is not the last, naming file:line, and rewrites nothing',
  async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({ dataDir, seed: [SAMPLE] });
    await first.gql('mutation { createTag(input: {id: "a", name: "a"}) }');
    await first.close();
    const lines = logLines(dataDir);
    const corrupt = [lines[0], '{"seq": 2, oops', ...lines.slice(1)].join('\n') + '\n';
    writeFileSync(join(dataDir, LOG), corrupt);
    try {
      await startServer({ dataDir });
      assert.unreachable('the start must fail');
    } catch (error) {
      assert.instance(error, Error);
      assert.match((error as Error).message, new RegExp(`${LOG}:2: not valid JSON`));
    }
    assert.is(readFileSync(join(dataDir, LOG), 'utf8'), corrupt);
    assert.not.ok(existsSync(join(dataDir, 'minihub.lock')), 'a failed start releases the lock');
  },
);

recovery('rewrites nothing, not even a torn tail, when a whole line is corrupt', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  await first.gql('mutation { createTag(input: {id: "a", name: "a"}) }');
  await first.close();
  const lines = logLines(dataDir);
  const broken = [lines[0], 'not json', ...lines.slice(1)].join('\n') + '\n{"seq": 9, "torn';
  writeFileSync(join(dataDir, LOG), broken);
  try {
    await startServer({ dataDir });
    assert.unreachable('the start must fail');
  } catch (error) {
    assert.match((error as Error).message, /catalogue\.jsonl:2: not valid JSON.*The log was not changed/);
  }
  assert.is(readFileSync(join(dataDir, LOG), 'utf8'), broken);
  assert.not.ok(
    readdirSync(dataDir).some((file) => file.includes('.torn-')),
    'nothing was saved aside either',
  );
});

recovery('refuses a line that is not valid UTF-8 rather than replay replacement characters', async () => {
  const dataDir = tempDataDir();
  const good =
    '{"seq":1,"time":1,"actor":"a","op":"x","changes":[{"urn":"urn:li:tag:a","aspect":"tagProperties","value":{"name":"a"}}]}\n';
  const bad = Buffer.concat([
    Buffer.from(
      '{"seq":2,"time":1,"actor":"a","op":"x","changes":[{"urn":"urn:li:tag:b","aspect":"tagProperties","value":{"name":"',
    ),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}}]}\n'),
  ]);
  writeFileSync(join(dataDir, LOG), Buffer.concat([Buffer.from(good), bad]));
  try {
    await startServer({ dataDir });
    assert.unreachable('the start must fail');
  } catch (error) {
    assert.match((error as Error).message, /catalogue\.jsonl:2: not valid UTF-8/);
  }
});

recovery('refuses a line that is JSON but not a log record', async () => {
  const dataDir = tempDataDir();
  writeFileSync(join(dataDir, LOG), '{"seq":1,"time":1,"actor":"a","op":"x","changes":[{"urn":"u"}]}\n');
  try {
    await startServer({ dataDir });
    assert.unreachable('the start must fail');
  } catch (error) {
    assert.match((error as Error).message, /catalogue\.jsonl:1: expected changes\[0\] to be \{urn, aspect, value\}/);
  }
});

// Linux lists a process's open files under /proc/self/fd; elsewhere this check has nothing to read.
function openFilesUnder(dir: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd));
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

recovery('leaves no file of the data directory open when a bad line refuses the start', async () => {
  const dataDir = tempDataDir();
  const good =
    '{"seq":1,"time":1,"actor":"a","op":"x","changes":[{"urn":"urn:li:tag:a","aspect":"tagProperties","value":{"name":"a"}}]}\n';
  writeFileSync(join(dataDir, LOG), good + 'not json\n' + good.replace('"seq":1', '"seq":3'));
  try {
    await startServer({ dataDir });
    assert.unreachable('the start must fail');
  } catch (error) {
    assert.match((error as Error).message, /catalogue\.jsonl:2: not valid JSON/);
  }
  assert.equal(openFilesUnder(dataDir), []);
});

recovery.run();

// ---

const lock = suite('one owner per data directory');

lock('refuses a second server on the same data directory, naming the owner pid', async () => {
  const dataDir = tempDataDir();
  const owner = await startTestServer({ dataDir });
  try {
    await startServer({ dataDir });
    assert.unreachable('the second start must fail');
  } catch (error) {
    assert.match((error as Error).message, new RegExp(`in use by minihub process ${process.pid}`));
  } finally {
    await owner.close();
  }
  // Closing releases the lock.
  const next = await startTestServer({ dataDir });
  await next.close();
});

lock('takes over a lock left by a process that no longer runs', async () => {
  const dataDir = tempDataDir();
  // Pid 2^22+ is above Linux's pid_max default, so no live process holds it.
  writeFileSync(join(dataDir, 'minihub.lock'), '4194999\n');
  const hub = await startTestServer({ dataDir });
  assert.is(readFileSync(join(dataDir, 'minihub.lock'), 'utf8').split('\n')[0], String(process.pid));
  await hub.close();
});

lock(
  'takes over a lock holding its own pid that it does not hold: left by an earlier process with that pid',
  async () => {
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'minihub.lock'), `${process.pid}\n`);
    const hub = await startTestServer({ dataDir });
    // While held, the same process is refused like anyone else.
    try {
      await startServer({ dataDir });
      assert.unreachable('a second start in the same process must fail');
    } catch (error) {
      assert.match((error as Error).message, /in use by minihub process/);
    } finally {
      await hub.close();
    }
  },
);

lock('refuses a lock file without a pid rather than guess that it is stale', async () => {
  const dataDir = tempDataDir();
  writeFileSync(join(dataDir, 'minihub.lock'), '');
  try {
    await startServer({ dataDir });
    assert.unreachable('the start must fail');
  } catch (error) {
    assert.match(
      (error as Error).message,
      /lock file .*minihub\.lock without a pid in it; if no minihub uses .*, delete that file/,
    );
  }
});

lock('leaves a lock that another process took alone when closing', async () => {
  const dataDir = tempDataDir();
  const hub = await startTestServer({ dataDir });
  // Someone replaced the lock (by hand, say): closing must not delete a lock that is not ours.
  writeFileSync(join(dataDir, 'minihub.lock'), '4194998\n');
  await hub.close();
  assert.is(readFileSync(join(dataDir, 'minihub.lock'), 'utf8'), '4194998\n');
});

lock.run();

// ---

const idempotent = suite('ingest');

idempotent('writes nothing when the same file is ingested again', async () => {
  const dataDir = tempDataDir();
  const first = await startTestServer({ dataDir, seed: [SAMPLE] });
  const written = first.seeded[0]?.written ?? 0;
  assert.ok(written > 0);
  const { ingest } = await import('../src/datahub/ingest.ts');
  const again = await ingest(first.store, SAMPLE, 'urn:li:corpuser:datahub');
  assert.is(again.written, 0);
  assert.is(again.unchanged, written);
  await first.close();
  assert.is(logLines(dataDir).length, 1);
});

idempotent('keeps aspects minihub does not interpret, in the log and after a restart', async () => {
  const dataDir = tempDataDir();
  const record = {
    entityType: 'dataset',
    entityUrn: ORDERS,
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: { json: { timestampMillis: 1, rowCount: 42 } },
  };
  const first = await startTestServer({ dataDir, seed: [[record]] });
  await first.close();
  const second = await startTestServer({ dataDir });
  assert.equal(second.store.catalogue.aspect(ORDERS, 'datasetProfile'), { timestampMillis: 1, rowCount: 42 });
  await second.close();
});

idempotent.run();

// ---

const replay = suite('Catalogue replay of a long log line');

function longLine(): {
  line: string;
  changes: { urn: string; aspect: string; value: { name: string; description: string } | null }[];
} {
  const changes: { urn: string; aspect: string; value: { name: string; description: string } | null }[] = Array.from(
    { length: 40 },
    (_, i) => ({
      urn: `urn:li:tag:t${i}`,
      aspect: 'tagProperties',
      value: { name: `t${i}`, description: `tag ${i} ✓ `.repeat(20) },
    }),
  );
  changes.push({ urn: 'urn:li:tag:t5', aspect: 'tagProperties', value: null });
  const line = JSON.stringify({ seq: 1, time: 0, actor: 'urn:li:corpuser:datahub', op: 'ingest', changes });
  assert.ok(line.length >= DEFERRED_LINE_CHARS, `the line is long enough to be kept as text (${line.length})`);
  return { line, changes };
}

replay('answers every value of the line as written, removals included, in the order of the line', () => {
  const { line, changes } = longLine();
  const catalogue = new Catalogue();
  // In a real replay the changes are what parsing the line gave; here they are that object's twin.
  deferLongLines(catalogue)(JSON.parse(line), line);
  assert.equal(catalogue.aspect('urn:li:tag:t7', 'tagProperties'), changes[7]?.value);
  assert.is(catalogue.aspect('urn:li:tag:t5', 'tagProperties'), undefined, 'the removal later in the line wins');
  assert.is(catalogue.exists('urn:li:tag:t5'), false);
  const urns = [...catalogue.entities()].map(([urn]) => urn);
  assert.equal(
    urns,
    changes
      .slice(0, 40)
      .map(({ urn }) => urn)
      .filter((urn) => urn !== 'urn:li:tag:t5'),
  );
  assert.equal(
    [...catalogue.entities()].find(([urn]) => urn === 'urn:li:tag:t39')?.[1].get('tagProperties'),
    changes[39]?.value,
  );
});

replay('reads answer each value as written, of its part of the line where the line can be cut by change', () => {
  const live = longLine().changes.slice(0, 40);
  // Values holding objects whose first key is urn, as each change's is (passed over: their next key is not
  // the aspect); a list after the changes (parsed whole).
  const nested = live.map((change, i) =>
    i % 7 === 0
      ? { ...change, value: { ...change.value, owners: [{ urn: 'urn:li:corpuser:a' }, { urn: 'b' }] } }
      : change,
  );
  const record = (changes: unknown[], more = {}) =>
    JSON.stringify({ seq: 1, time: 0, actor: 'urn:li:corpuser:datahub', op: 'ingest', changes, ...more });
  const lines = [record(live), record(nested), record(live, { history: [live[0]] })];
  const value = ReplayedLine.prototype.value;
  const parse = JSON.parse;
  let built = 0;
  let longest = 0;
  ReplayedLine.prototype.value = function (this: ReplayedLine, index: number, urn: string, aspect: string) {
    built++;
    return value.call(this, index, urn, aspect);
  };
  JSON.parse = ((text: string) => ((longest = Math.max(longest, text.length)), parse(text))) as typeof JSON.parse;
  try {
    for (const [n, line] of lines.entries()) {
      const parsed = parse(line) as { changes: { urn: string; aspect: string; value: unknown }[] };
      const catalogue = new Catalogue();
      deferLongLines(catalogue)(parse(line), line);
      longest = 0;
      for (const change of [...parsed.changes].reverse())
        assert.equal(catalogue.aspectUnkept(change.urn, change.aspect), change.value, `line ${n}: ${change.urn}`);
      assert.is(built, 0, `line ${n} is still text`);
      assert.equal(catalogue.aspect(live[3]!.urn, 'tagProperties'), parsed.changes[3]!.value);
      assert.equal(catalogue.aspect(live[4]!.urn, 'tagProperties'), parsed.changes[4]!.value);
      assert.is(built, 2, `line ${n}'s values are built by the reads that keep them`);
      // The first two lines are records as the log writes them, their changes cut apart without a doubt.
      if (n < 2) assert.ok(longest < line.length / 10, `parts of line ${n} parsed (${longest} of ${line.length})`);
      else assert.is(longest, line.length, `line ${n} parsed whole`);
      built = 0;
    }
  } finally {
    ReplayedLine.prototype.value = value;
    JSON.parse = parse;
  }
});

/** A long line of `count` tag changes; a value holding whole changes if `uncut`, so the line cannot be cut by change. */
function tagLine(name: string, count: number, uncut: boolean) {
  const changes = Array.from({ length: count }, (_, i) => ({
    urn: `urn:li:tag:${name}${i}`,
    aspect: 'tagProperties',
    value: { name: `${name}${i}`, description: 'd'.repeat(200) } as Record<string, unknown>,
  }));
  if (uncut) changes[0]!.value.held = [changes[1], changes[2]];
  return { changes, line: JSON.stringify({ seq: 1, time: 0, actor: 'urn:li:corpuser:datahub', op: 'o', changes }) };
}

replay('reads of lines that cannot be cut parse each at most twice, however they jump between lines', () => {
  const lines = ['a', 'b', 'c', 'd'].map((name) => tagLine(name, 30, true));
  const catalogue = new Catalogue();
  for (const { line } of lines) deferLongLines(catalogue)(JSON.parse(line), line);
  const parse = JSON.parse;
  const parsed = new Map<string, number>();
  JSON.parse = ((text: string) => (parsed.set(text, (parsed.get(text) ?? 0) + 1), parse(text))) as typeof JSON.parse;
  try {
    for (let i = 0; i < 30; i++)
      for (const { changes } of lines)
        assert.equal(catalogue.aspectUnkept(changes[i]!.urn, 'tagProperties'), changes[i]!.value);
  } finally {
    JSON.parse = parse;
  }
  for (const { line } of lines) assert.ok((parsed.get(line) ?? 0) <= 2, `parsed ${parsed.get(line)} times`);
});

replay('reads a part only when it is the change asked for, else the whole line', () => {
  // Written with the aspect first (replay accepts any key order), after a value holding changes of the same shape:
  // cut where those stand, the second part would be {"urn":"r","aspect":"s","value":"WRONG"}.
  const held = ['p', 'r', 't'].map((urn, i) => ({ urn, aspect: 's', value: i === 1 ? 'WRONG' : urn }));
  const changes = [
    { urn: 'urn:li:tag:a', aspect: 'tagProperties', value: { name: 'a', held } },
    { aspect: 'tagProperties', urn: 'urn:li:tag:b', value: { name: 'RIGHT', description: 'x'.repeat(5000) } },
    { aspect: 'tagProperties', urn: 'urn:li:tag:c', value: { name: 'c' } },
  ];
  const line = JSON.stringify({ seq: 1, time: 0, actor: 'urn:li:corpuser:datahub', op: 'o', changes });
  for (const read of ['aspectUnkept', 'aspect', 'aspectJson'] as const) {
    const catalogue = new Catalogue();
    deferLongLines(catalogue)(JSON.parse(line), line);
    // The second first: a wrong cut of the first change does not parse, and would send every later read to the whole line.
    for (const change of [changes[1]!, changes[2]!, changes[0]!]) {
      const answer = catalogue[read](change.urn, change.aspect);
      assert.equal(typeof answer === 'string' ? JSON.parse(answer) : answer, change.value, `${read} ${change.urn}`);
    }
  }
});

replay('keeps a value written after the replay when the rest of its line is first read', () => {
  const { line } = longLine();
  const catalogue = new Catalogue();
  deferLongLines(catalogue)(JSON.parse(line), line);
  // A write that does not read first (the line is still text), then a read elsewhere in the same line.
  catalogue.apply([
    { urn: 'urn:li:tag:t3', aspect: 'tagProperties', value: { name: 'new', description: 'written after' } },
  ]);
  assert.is((catalogue.aspect('urn:li:tag:t8', 'tagProperties') as { name: string }).name, 't8');
  assert.equal(catalogue.aspect('urn:li:tag:t3', 'tagProperties'), { name: 'new', description: 'written after' });
});

replay.run();
