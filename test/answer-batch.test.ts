// Answers made in one turn of the event loop are written together once the turn's callbacks are done, in
// the order they were made, one failing write costing no other its answer; over a real connection, pipelined
// requests still get their answers in order, a malformed one included, and a test suite's fake timers holding
// the global setImmediate stall no answer.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServerResponse } from 'node:http';

import { batchAnswers } from '../src/http/answer-batch.ts';
import type { HttpAnswer } from '../src/http/exchange.ts';
import { rawExchange, SAMPLE, startTestServer, tempDataDir } from './fixtures/server.ts';

/** A stand-in response: the batch only hands it back to its writer. */
function response(name: string): ServerResponse {
  return { name } as unknown as ServerResponse;
}

function answer(text: string): HttpAnswer {
  return { status: 200, headers: {}, body: Buffer.from(text) };
}

const realSetImmediate = globalThis.setImmediate;
const nextTurn = () => new Promise((resolve) => realSetImmediate(resolve));

test('answers given in one turn are written after it, together and in order', async () => {
  const written: string[] = [];
  // How many were written when the first one's write returned to the event loop: all of the turn's, if together.
  let writtenTogether = 0;
  const send = batchAnswers((res, reply) => {
    written.push(`${(res as unknown as { name: string }).name}:${reply.body?.toString()}`);
    if (written.length === 1) process.nextTick(() => (writtenTogether = written.length));
  });
  send(response('a'), answer('1'));
  await Promise.resolve(); // a microtask later is still the same turn
  send(response('b'), answer('2'));
  send(response('c'), answer('3'));
  assert.equal(written, [], 'nothing is written before the turn ends');
  await nextTurn();
  assert.equal(written, ['a:1', 'b:2', 'c:3']);
  assert.is(writtenTogether, 3, 'the three were written in one go');

  send(response('d'), answer('4'));
  assert.is(written.length, 3, 'an answer of the next turn waits for that turn to end');
  await nextTurn();
  assert.equal(written, ['a:1', 'b:2', 'c:3', 'd:4']);
});

test("a write that throws costs the turn's other answers nothing, and its error still surfaces", async () => {
  const written: string[] = [];
  const send = batchAnswers((res) => {
    const name = (res as unknown as { name: string }).name;
    if (name === 'a') throw new Error('the first write failed');
    written.push(name);
  });
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    for (const name of ['a', 'b', 'c']) send(response(name), answer(name));
    await nextTurn();
    await nextTurn();
  } finally {
    process.off('uncaughtException', onUncaught);
  }
  assert.equal(written, ['b', 'c']);
  assert.is(uncaught.length, 1);
  assert.match((uncaught[0] as Error).message, 'the first write failed');
});

test('pipelined requests on one connection get their answers in the order they were sent', async () => {
  const hub = await startTestServer({ seed: [SAMPLE] });
  try {
    const names = ['shop.public.orders', 'shop.public.customers', 'shop.order-events'];
    const platforms = ['postgres', 'postgres', 'kafka'];
    const requests = names.map((name, index) => {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:${platforms[index]},${name},PROD)`;
      const body = JSON.stringify({ query: `{ dataset(urn: "${urn}") { urn } }` });
      const close = index === names.length - 1 ? 'Connection: close\r\n' : '';
      return (
        `POST /api/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${hub.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${close}\r\n${body}`
      );
    });
    // All three in one write, so the server reads them in one turn.
    const raw = await rawExchange(hub, requests.join(''));
    const statuses = raw.match(/HTTP\/1\.1 \d+/g);
    assert.equal(statuses, ['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200']);
    const answered = [...raw.matchAll(/"urn":"urn:li:dataset:\(urn:li:dataPlatform:\w+,([^,]+),PROD\)"/g)].map(
      (match) => match[1],
    );
    assert.equal(answered, names);
  } finally {
    await hub.close();
  }
});

test('a valid request followed on its connection by malformed HTTP gets its answer before the refusal', async () => {
  const hub = await startTestServer({ seed: [SAMPLE] });
  try {
    // Exactly 64 KiB, so node reads it in one chunk and the malformed bytes after it in the next, in the same turn.
    const head = (length: number) =>
      `POST /api/graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${hub.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const query = `{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)") { urn } }`;
    const bodyOf = (pad: number) => JSON.stringify({ query, variables: { pad: 'x'.repeat(pad) } });
    const padding = 65_536 - head(10_000).length - bodyOf(0).length;
    const valid = head(bodyOf(padding).length) + bodyOf(padding);
    assert.is(valid.length, 65_536);
    const raw = await rawExchange(hub, valid + 'BLAH \u0001 nonsense\r\n\r\n');
    assert.equal(raw.match(/HTTP\/1\.1 \d+/g), ['HTTP/1.1 200', 'HTTP/1.1 400']);
    assert.match(raw, /shop\.public\.orders/);
  } finally {
    await hub.close();
  }
});

/** `reply`, or a failure once two seconds pass without it (setTimeout is left alone by the fake below). */
function answered<T>(reply: Promise<T>): Promise<T> {
  return Promise.race([
    reply,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('no answer within 2 s')), 2000).unref()),
  ]);
}

// The client (fetch) schedules on the faked global too; the faked callbacks are run once the test is over.
test("a test suite's fake timers holding the global setImmediate stall no answer, read, write or search", async () => {
  const hub = await startTestServer({ seed: [SAMPLE], dataDir: tempDataDir() });
  const held: (() => void)[] = [];
  const fake = ((callback: () => void) => {
    held.push(callback);
    return { ref() {}, unref() {}, hasRef: () => true } as unknown as NodeJS.Immediate;
  }) as unknown as typeof setImmediate;
  globalThis.setImmediate = fake;
  try {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
    assert.is((await answered(hub.request('/health'))).status, 200);
    const read = await answered(hub.gql(`{ dataset(urn: "${urn}") { urn } }`));
    assert.is(read.json.data.dataset.urn, urn);
    const write = await answered(
      hub.gql('mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
        input: { description: 'kept while the clock is faked', resourceUrn: urn },
      }),
    );
    assert.equal(write.json, { data: { updateDescription: true }, extensions: {} });
    const found = await answered(
      hub.gql('{ searchAcrossEntities(input: { types: [DATASET], query: "faked" }) { total } }'),
    );
    assert.is(found.json.data.searchAcrossEntities.total, 1);
  } finally {
    globalThis.setImmediate = realSetImmediate;
    for (const callback of held) callback();
    await hub.close();
  }
});

test.run();
