// Gathers text into Buffers of at most `maxChunkBytes` and hands each to a sink, so whatever writes
// the whole catalogue (compaction, export) never holds it in one string or Buffer (V8 caps a string
// at 512 MiB). It neither opens, syncs nor renames anything: the sink owns the destination.

import { nextTurn } from '../next-turn.ts';

/**
 * The default largest Buffer a writer builds: few system calls (2,000 for a GiB), and the event loop
 * waits at most for one chunk's worth of serialising (see test/bench/NOTES.md).
 */
export const MAX_CHUNK_BYTES = 512 * 1024;

/** Takes one chunk; resolves once the chunk is handed on (written, or queued with backpressure). */
export type ChunkSink = (chunk: Buffer) => Promise<void>;

export class ChunkedWriter {
  readonly #sink: ChunkSink;
  readonly #maxChunkBytes: number;
  #parts: string[] = [];
  #bytes = 0;
  #written = 0;

  constructor(sink: ChunkSink, maxChunkBytes: number = MAX_CHUNK_BYTES) {
    if (!(maxChunkBytes >= 1)) throw new RangeError(`maxChunkBytes must be at least 1, got ${maxChunkBytes}`);
    this.#sink = sink;
    this.#maxChunkBytes = maxChunkBytes;
  }

  /** Bytes handed to the sink so far. */
  get bytesWritten(): number {
    return this.#written;
  }

  /**
   * Adds `text`, first writing out what is gathered when `text` would not fit beside it. One piece
   * larger than the limit (a single huge record) goes out alone: it is a string already.
   */
  async add(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text);
    if (this.#bytes > 0 && this.#bytes + bytes > this.#maxChunkBytes) await this.flush();
    this.#parts.push(text);
    this.#bytes += bytes;
    if (this.#bytes >= this.#maxChunkBytes) await this.flush();
  }

  /** Writes out whatever is gathered, then lets the event loop run before the next chunk is built. */
  async flush(): Promise<void> {
    if (this.#bytes === 0) return;
    const chunk = Buffer.allocUnsafe(this.#bytes);
    let at = 0;
    for (const part of this.#parts) at += chunk.write(part, at);
    this.#parts = [];
    this.#bytes = 0;
    await this.#sink(chunk);
    this.#written += chunk.length;
    // A sink that writes synchronously would otherwise hold the event loop for the whole catalogue.
    await nextTurn();
  }
}
