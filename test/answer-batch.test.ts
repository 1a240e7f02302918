// Answers made in one turn of the event loop are written together once the turn's callbacks are done, in
// the order they were made; over a real connection, pipelined requests still get their answers in order.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServerResponse } from 'node:http';

import { batchAnswers } from '../src/http/answer-batch.ts';
import type { HttpAnswer } from '../src/http/exchange.ts';
import { rawExchange, SAMPLE, startTestServer } from './fixtures/server.ts';

/** A stand-in response: the batch only hands it back to its writer. */
function response(name: string): ServerResponse {
  return { name } as unknown as ServerResponse;
}

function answer(text: string): HttpAnswer {
  return { status: 200, headers: {}, body: Buffer.from(text) };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('answers given in one turn are written after it, together and in order', async () => {
  const written: string[][] = [];
  let flush: string[] = [];
  const send = batchAnswers((res, reply) => {
    if (flush.length === 0) written.push(flush);
    flush.push(`${(res as unknown as { name: string }).name}:${reply.body?.toString()}`);
  });
  send(response('a'), answer('1'));
  await Promise.resolve(); // a microtask later is still the same turn
  send(response('b'), answer('2'));
  send(response('c'), answer('3'));
  assert.equal(written, [], 'nothing is written before the turn ends');
  await nextTurn();
  assert.equal(written, [['a:1', 'b:2', 'c:3']]);

  flush = [];
  send(response('d'), answer('4'));
  assert.equal(written.length, 1, 'an answer of the next turn waits for that turn to end');
  await nextTurn();
  assert.equal(written, [['a:1', 'b:2', 'c:3'], ['d:4']]);
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

test.run();
