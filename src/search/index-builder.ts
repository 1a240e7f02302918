// The first build of an inverted index from many documents at once: each document's terms counted as put()
// counts them, then every posting list laid out in one pass (a counting sort by term and field) into
// arrays shared by all lists, instead of a list grown, and a cache miss taken, per posting. It runs on
// either thread: what it makes is typed arrays and term texts (LaidOut), which built-index.ts turns into
// the index. Nothing here answers queries or removes documents.

import { BuildTerms } from './build-terms.ts';
import { TEXT_FIELDS, type DocumentText } from './fields.ts';
import { TermCounter } from './field-terms.ts';
import { FREQ_MARK } from './posting-list.ts';

/** Documents laid out between two yields of layout(): small enough to keep the event loop turning. */
const LAYOUT_CHUNK = 2048;
/**
 * Postings per chunk of the documents' keys, unless one document has more: 32 MiB, which the allocator maps on
 * its own (4 MiB chunks settled 40-80 MB higher on 100,000 datasets; test/bench/NOTES.md).
 */
const CHUNK_POSTINGS = 1 << 23;
/** Postings of the first chunk; each next one holds twice as many, up to CHUNK_POSTINGS. */
const FIRST_CHUNK_POSTINGS = 1 << 16;
const FIELDS = TEXT_FIELDS.length;
/** Offsets per document of encoded texts (addEncoded): where each field begins, and where the last ends. */
export const BOUNDS = FIELDS + 1;

/** Every posting list laid out; document d is the d-th added, term t the t-th text in `terms`. */
export interface LaidOut {
  terms: string[];
  /** The postings of key (term × 16 + field) are docs[starts[key], starts[key + 1]), freqs alike. */
  starts: Uint32Array;
  docs: Int32Array;
  freqs: Uint8Array;
  /** (key, doc, frequency) for each frequency of FREQ_MARK or more. */
  large: number[];
  /**
   * Each document's keys in put()'s order, document after document, in chunks: chunk c holds postings from
   * number chunkStarts[c] on, and no document straddles two. Document d's postings end at number docEnds[d].
   */
  docTerms: Uint32Array[];
  chunkStarts: number[];
  docEnds: Uint32Array;
  /** Distinct terms of document d in field f at d × TEXT_FIELDS.length + f, and their sums over documents. */
  fieldLength: Uint32Array;
  totalLength: number[];
}

/** The buffers of `laidOut`, to move it to another thread without a copy. */
export function buffersOf(laidOut: LaidOut): ArrayBuffer[] {
  const { starts, docs, freqs, docTerms, docEnds, fieldLength } = laidOut;
  return [starts, docs, freqs, ...docTerms, docEnds, fieldLength].map((array) => array.buffer as ArrayBuffer);
}

/** Postings counted, or term keys summed, between two yields of layout(). */
const STEP = 1 << 20;

export class IndexBuilder {
  readonly #chunkPostings: number;
  readonly #terms = new BuildTerms();
  readonly #counter = new TermCounter();
  #docs = 0;
  // Every document's keys and frequencies, document after document, in chunks (a document never straddles
  // two): no copy as they grow, and little room left unused. Chunk c's first posting is number chunkStarts[c].
  readonly #keys: Uint32Array[] = [];
  readonly #freqs: Uint8Array[] = [];
  readonly #chunkStarts: number[] = [];
  #inChunk = 0;
  #postings = 0;
  #docEnds: Uint32Array = new Uint32Array(1024);
  #fieldLength: Uint32Array = new Uint32Array(1024 * FIELDS);
  readonly #totalLength = TEXT_FIELDS.map(() => 0);
  // Posting → its frequency, for the rare ones of FREQ_MARK or more.
  readonly #large = new Map<number, number>();

  /** `chunkPostings`: postings per chunk of the documents' keys (tests make them small). */
  constructor(chunkPostings = CHUNK_POSTINGS) {
    this.#chunkPostings = chunkPostings;
  }

  /** Adds the next document (the first is document 0). */
  add(text: DocumentText): void {
    this.#addPairs(this.#counter.pairs(text, this.#terms));
  }

  /** add() of a document encoded as UTF-8: field f is bytes[bounds[at + f], bounds[at + f + 1]). */
  addEncoded(bytes: Uint8Array, bounds: Uint32Array, at: number): void {
    this.#addPairs(this.#counter.encodedPairs(bytes, bounds, at, this.#terms));
  }

  #addPairs(pairs: number[]): void {
    const doc = this.#docs++;
    const count = pairs.length / 2;
    let c = this.#keys.length - 1;
    if (c < 0 || this.#inChunk + count > this.#keys[c]!.length) {
      if (c >= 0) {
        this.#keys[c] = this.#keys[c]!.subarray(0, this.#inChunk);
        this.#freqs[c] = this.#freqs[c]!.subarray(0, this.#inChunk);
      }
      // The first chunks are small, each twice the one before up to chunkPostings: a catalogue of a few
      // entities (every test server, a laptop's) gets a few hundred KiB, not 40 MiB it would keep.
      const size = Math.max(Math.min(this.#chunkPostings, FIRST_CHUNK_POSTINGS << this.#keys.length), count);
      this.#keys.push(new Uint32Array(size));
      this.#freqs.push(new Uint8Array(size));
      this.#chunkStarts.push(this.#postings);
      this.#inChunk = 0;
      c++;
    }
    if (doc === this.#docEnds.length) {
      this.#docEnds = grown(this.#docEnds, new Uint32Array(doc * 2), doc);
      this.#fieldLength = grown(this.#fieldLength, new Uint32Array(doc * 2 * FIELDS), doc * FIELDS);
    }
    const keys = this.#keys[c]!;
    const freqs = this.#freqs[c]!;
    const lengths = this.#fieldLength;
    for (let i = 0; i < pairs.length; i += 2) {
      const key = pairs[i]!;
      const freq = pairs[i + 1]!;
      const at = this.#inChunk++;
      keys[at] = key;
      freqs[at] = Math.min(freq, FREQ_MARK);
      if (freq >= FREQ_MARK) this.#large.set(this.#postings + i / 2, freq);
      lengths[doc * FIELDS + (key & 15)]!++;
    }
    this.#postings += count;
    for (let f = 0; f < FIELDS; f++) this.#totalLength[f]! += lengths[doc * FIELDS + f]!;
    this.#docEnds[doc] = this.#postings;
  }

  /** Lays out every posting list, yielding now and then so a caller can let other work run. Spends the builder. */
  *layout(): Generator<void, LaidOut> {
    const last = this.#keys.length - 1;
    if (last >= 0) {
      this.#keys[last] = this.#keys[last]!.subarray(0, this.#inChunk);
      this.#freqs[last] = this.#freqs[last]!.subarray(0, this.#inChunk);
    }
    const postings = this.#postings;
    const keySpace = this.#terms.texts.length * 16;
    const starts = new Uint32Array(keySpace + 1);
    // Counted and summed a step of at most STEP entries at a time: 17 million postings in one go held the
    // event loop for a quarter of a second and more.
    for (const keys of this.#keys)
      for (let at = 0; at < keys.length; at++) {
        starts[keys[at]! + 1]!++;
        if (at % STEP === STEP - 1) yield;
      }
    yield;
    for (let key = 0; key < keySpace; key++) {
      starts[key + 1]! += starts[key]!;
      if (key % STEP === STEP - 1) yield;
    }
    const next = starts.slice(0, keySpace);
    const docs = new Int32Array(postings);
    const freqs = new Uint8Array(postings);
    const large: number[] = [];
    const docEnds = this.#docEnds.slice(0, this.#docs);
    let doc = 0;
    for (let c = 0; c <= last; c++) {
      const keys = this.#keys[c]!;
      const counted = this.#freqs[c]!;
      const first = this.#chunkStarts[c]!;
      for (let at = 0; at < keys.length; at++) {
        while (first + at >= docEnds[doc]!) if (++doc % LAYOUT_CHUNK === 0) yield;
        const key = keys[at]!;
        const to = next[key]!++;
        docs[to] = doc;
        if ((freqs[to] = counted[at]!) === FREQ_MARK) large.push(key, doc, this.#large.get(first + at)!);
      }
    }
    const laidOut: LaidOut = {
      terms: this.#terms.texts,
      starts,
      docs,
      freqs,
      large,
      docTerms: this.#keys,
      chunkStarts: this.#chunkStarts,
      docEnds,
      fieldLength: this.#fieldLength.slice(0, this.#docs * FIELDS),
      totalLength: this.#totalLength,
    };
    this.#docEnds = this.#fieldLength = new Uint32Array(0);
    this.#freqs.length = 0;
    return laidOut;
  }
}

function grown(from: Uint32Array, to: Uint32Array, length: number): Uint32Array {
  to.set(from.subarray(0, length));
  return to;
}
