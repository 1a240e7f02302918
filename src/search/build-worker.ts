// The index build's worker (started by engine-build.ts): counts the documents' texts it is sent, and once
// told they are all there, lays out the posting lists and posts them back, moved, not copied. It never
// sees the catalogue.

import { parentPort } from 'node:worker_threads';

import type { BuildAnswer, BuildMessage } from './engine-build.ts';
import { BOUNDS, buffersOf, IndexBuilder } from './index-builder.ts';

const builder = new IndexBuilder();
parentPort?.on('message', (message: BuildMessage) => {
  if ('bytes' in message) {
    const bytes = new Uint8Array(message.bytes, 0, message.length);
    for (let at = 0; at < message.bounds.length; at += BOUNDS) builder.addEncoded(bytes, message.bounds, at);
    parentPort?.postMessage({ counted: true } satisfies BuildAnswer);
    return;
  }
  const steps = builder.layout();
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  parentPort?.postMessage(step.value, buffersOf(step.value));
});
