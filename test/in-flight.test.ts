// The count of responses in flight that closing minihub waits for: it drains when the last one closes,
// or when its grace period ends.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

import { InFlight } from '../src/http/in-flight.ts';

/** A stand-in for a ServerResponse: InFlight only listens for its one 'close'. */
function response(): ServerResponse & EventEmitter {
  return new EventEmitter() as ServerResponse & EventEmitter;
}

/** Whether `promise` has settled by the end of this turn's microtasks and one macrotask. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('drains at once when nothing is in flight', async () => {
  assert.ok(await settled(new InFlight().drained(60_000)));
});

test('waits until the last response in flight closes', async () => {
  const inFlight = new InFlight();
  const first = response();
  const second = response();
  inFlight.track(first);
  inFlight.track(second);
  const drained = inFlight.drained(60_000);
  first.emit('close');
  assert.not.ok(await settled(drained), 'one response is still open');
  second.emit('close');
  assert.ok(await settled(drained));
  assert.ok(await settled(inFlight.drained(60_000)), 'nothing is left in flight');
});

test('gives up waiting after the grace period', async () => {
  const inFlight = new InFlight();
  inFlight.track(response());
  const started = performance.now();
  await inFlight.drained(20);
  assert.ok(performance.now() - started >= 15);
});

test.run();
