// The count of responses in flight that closing minihub waits for: it drains when the last one closes,
// or when its grace period ends, fake timers or not.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

import { InFlight } from '../src/http/in-flight.ts';
import { withFakeTimers } from './fixtures/fake-timers.ts';

// Long enough that no test ends by it unless it means to; short enough that a failing test's timer
// does not hold the run for long.
const GRACE_MS = 2000;

/** A stand-in for a ServerResponse: InFlight only listens for its one 'close'. */
function response(): ServerResponse & EventEmitter {
  return new EventEmitter() as ServerResponse & EventEmitter;
}

/** Whether `promise` has settled once this turn's microtasks and one macrotask have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('drains at once when nothing is in flight', async () => {
  assert.ok(await settled(new InFlight().drained(GRACE_MS)));
});

test('waits until the last response in flight closes', async () => {
  const inFlight = new InFlight();
  const first = response();
  const second = response();
  inFlight.track(first);
  inFlight.track(second);
  const drained = inFlight.drained(GRACE_MS);
  first.emit('close');
  assert.not.ok(await settled(drained), 'one response is still open');
  second.emit('close');
  assert.ok(await settled(drained));
});

test('drains at once when what was in flight closed before it was asked', async () => {
  const inFlight = new InFlight();
  const res = response();
  inFlight.track(res);
  res.emit('close');
  assert.ok(await settled(inFlight.drained(GRACE_MS)));
});

test('releases every caller waiting, and counts responses tracked after a drain', async () => {
  const inFlight = new InFlight();
  const res = response();
  inFlight.track(res);
  const waiting = [inFlight.drained(GRACE_MS), inFlight.drained(GRACE_MS)];
  res.emit('close');
  assert.equal(await Promise.all(waiting.map(settled)), [true, true]);
  const later = response();
  inFlight.track(later);
  const drained = inFlight.drained(GRACE_MS);
  assert.not.ok(await settled(drained), 'a response tracked after the drain is waited for');
  later.emit('close');
  assert.ok(await settled(drained));
});

test('gives up waiting after the grace period', async () => {
  const inFlight = new InFlight();
  inFlight.track(response());
  const started = performance.now();
  const gaveUp = await Promise.race([
    inFlight.drained(20).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(resolve, GRACE_MS, false).unref()),
  ]);
  assert.ok(gaveUp, 'drained() resolved after its grace period');
  assert.ok(performance.now() - started >= 15);
});

test("gives up after the grace period under a test suite's fake timers too", async () => {
  const inFlight = new InFlight();
  inFlight.track(response());
  const started = performance.now();
  // Fails after 1 s of real time if the grace period waits on the faked global setTimeout.
  await withFakeTimers(() => inFlight.drained(20), 1000);
  assert.ok(performance.now() - started >= 15);
});

test.run();
