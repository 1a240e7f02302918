// The first build of the search engine from many documents at once, with the answers a put() per document
// would give, and faster: counted, then laid out in one pass (index-builder.ts). A large build counts and
// lays out on a worker thread (build-worker.ts) while this one reads the catalogue; its texts go there in
// batches and the typed arrays come back without a copy. It never reads the catalogue itself.

import { Worker } from 'node:worker_threads';

import { workerEntry } from '../worker-entry.ts';
import { assemble } from './built-index.ts';
import { TEXT_FIELDS, type DocumentText } from './fields.ts';
import { IndexBuilder, type LaidOut } from './index-builder.ts';
import { InvertedIndex } from './inverted-index.ts';
import type { SearchEngine } from './search-engine.ts';
import { nextTurn } from '../next-turn.ts';
import { performance } from '../own-timers.ts';

/** Bytes of text sent to the worker at once: few messages, little text waiting on either side. */
const BATCH_BYTES = 1 << 20;
/** Batches sent and not counted yet, at most, before room() asks the caller to wait. */
const IN_FLIGHT = 4;

export interface EngineBuilder<T> {
  /** Adds the document `id` with what its hits carry back (as put()'s), which must not have been added before. */
  add(id: string, text: DocumentText, payload?: T): void;
  /** Null when add() may go on at once, else a promise of when: the worker has that much text still to count. */
  room(): Promise<void> | null;
  /**
   * The engine, made in slices of `sliceMs` of this thread's time between which other work runs. Rejects
   * when the worker fails (the builder is spent either way: build again without one).
   */
  build(sliceMs: number): Promise<SearchEngine<T>>;
  /** Gives up the build: its worker, if any, stops. */
  cancel(): void;
}

/** A first build, its counting and layout on a worker thread when `onWorker`, else on this one. */
export function engineBuilder<T>(onWorker: boolean): EngineBuilder<T> {
  const ids: string[] = [];
  const payloads: (T | undefined)[] = [];
  const made = async (laidOut: LaidOut, sliceMs: number) =>
    new InvertedIndex<T>(await sliced(assemble(laidOut, ids), sliceMs), payloads);
  if (!onWorker) {
    const builder = new IndexBuilder();
    return {
      add: (id, text, payload) => void (ids.push(id), payloads.push(payload), builder.add(text)),
      room: () => null,
      build: async (sliceMs) => made(await sliced(builder.layout(), sliceMs), sliceMs),
      cancel: () => undefined,
    };
  }
  const worker = startWorker();
  // The texts go as UTF-8 bytes, moved, not copied: no string of them outlives add() on this thread, and
  // the worker counts words where they stand in the bytes.
  let bytes = Buffer.from(new ArrayBuffer(BATCH_BYTES));
  let length = 0;
  let bounds: number[] = [];
  const send = () => {
    if (bounds.length === 0) return;
    const message: BuildMessage = { bytes: bytes.buffer as ArrayBuffer, length, bounds: Uint32Array.from(bounds) };
    worker.post(message, [message.bytes, message.bounds.buffer as ArrayBuffer]);
    bytes = Buffer.from(new ArrayBuffer(BATCH_BYTES));
    length = 0;
    bounds = [];
  };
  return {
    add: (id, text, payload) => {
      ids.push(id);
      payloads.push(payload);
      for (const field of TEXT_FIELDS) {
        const value = text[field];
        // A UTF-16 code unit is at most 3 bytes of UTF-8.
        if (length + value.length * 3 > bytes.length) {
          const larger = Buffer.from(new ArrayBuffer(Math.max(bytes.length * 2, length + value.length * 3)));
          bytes.copy(larger, 0, 0, length);
          bytes = larger;
        }
        bounds.push(length);
        length += bytes.write(value, length, 'utf8');
      }
      bounds.push(length);
      if (length >= BATCH_BYTES / 2) send();
    },
    room: () => worker.room(),
    build: async (sliceMs) => {
      send();
      worker.post({ done: true }, []);
      try {
        return await made(await worker.laidOut, sliceMs);
      } finally {
        worker.stop();
      }
    },
    cancel: () => worker.stop(),
  };
}

/**
 * What the worker is sent: documents' texts as UTF-8, document d's field f at
 * bytes[bounds[d × BOUNDS + f], bounds[d × BOUNDS + f + 1]), or the end of them.
 */
export type BuildMessage = { bytes: ArrayBuffer; length: number; bounds: Uint32Array } | { done: true };
/** What it answers: a batch counted, or at the end every list laid out. */
export type BuildAnswer = { counted: true } | LaidOut;

interface BuildWorker {
  post(message: BuildMessage, transfer: ArrayBuffer[]): void;
  room(): Promise<void> | null;
  laidOut: Promise<LaidOut>;
  stop(): void;
}

function startWorker(): BuildWorker {
  const worker = new Worker(...workerEntry(import.meta.url, 'build-worker'));
  // An idle worker never keeps the process alive: a server that stops mid-build just ends.
  worker.unref();
  let unanswered = 0;
  let waiting: (() => void) | null = null;
  const laidOut = new Promise<LaidOut>((resolve, reject) => {
    worker.on('message', (answer: BuildAnswer) => {
      if (!('counted' in answer)) return resolve(answer);
      unanswered--;
      waiting?.();
      waiting = null;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index build's worker exited with code ${code}`)));
  });
  laidOut.catch(() => undefined); // a failure is the build()'s to report, and a cancelled build has none
  // A failed worker lets the caller go on (to build() and its rejection) rather than wait forever.
  const failed = laidOut.then(
    () => undefined,
    () => undefined,
  );
  return {
    post: (message, transfer) => {
      if ('bytes' in message) unanswered++;
      worker.postMessage(message, transfer);
    },
    room: () =>
      unanswered <= IN_FLIGHT ? null : Promise.race([new Promise<void>((resolve) => (waiting = resolve)), failed]),
    laidOut,
    stop: () => void worker.terminate(),
  };
}

/** Runs `steps` to its end in slices of `sliceMs`, letting the event loop turn between them. */
export async function sliced<T>(steps: Generator<void, T>, sliceMs: number): Promise<T> {
  for (;;) {
    const until = performance.now() + sliceMs;
    let step = steps.next();
    while (step.done !== true && performance.now() < until) step = steps.next();
    if (step.done === true) return step.value;
    await nextTurn();
  }
}
