// One term's postings in one field: document slots and frequencies in typed arrays, which the garbage
// collector never scans and which take 5 bytes a posting instead of two tagged values. Short lists (most
// of them) share big blocks (PostingSlabs) rather than each allocating arrays of its own. It knows slots
// and counts only; which slots are live is its caller's.

/** A frequency this high or higher is kept exactly aside; the array holds this mark. */
export const FREQ_MARK = 255;
/** Lists of up to this many postings live in the shared blocks; longer ones own their arrays. */
const SHARED_UP_TO = 64;
/** Postings per shared block: 320 KB, small enough that a small catalogue's index (or a test's) costs little. */
const BLOCK_SLOTS = 1 << 16;

/** Shared blocks of room for short lists, in power-of-two pieces, each size's freed pieces reused. */
export class PostingSlabs {
  docs: Int32Array[] = [];
  freqs: Uint8Array[] = [];
  #top = BLOCK_SLOTS; // next free slot of the last block
  #free: number[][] = Array.from({ length: Math.log2(SHARED_UP_TO) + 1 }, () => []); // [log2 size] → block × BLOCK_SLOTS + slot

  /** Room for `size` (a power of two up to SHARED_UP_TO) postings: block × BLOCK_SLOTS + first slot. */
  take(size: number): number {
    const free = this.#free[Math.log2(size)]!;
    if (free.length > 0) return free.pop()!;
    if (this.#top + size > BLOCK_SLOTS) {
      this.docs.push(new Int32Array(BLOCK_SLOTS));
      this.freqs.push(new Uint8Array(BLOCK_SLOTS));
      this.#top = 0;
    }
    const at = (this.docs.length - 1) * BLOCK_SLOTS + this.#top;
    this.#top += size;
    return at;
  }

  give(size: number, at: number): void {
    this.#free[Math.log2(size)]!.push(at);
  }
}

const EMPTY_DOCS = new Int32Array(0);
const EMPTY_FREQS = new Uint8Array(0);

export class PostingList {
  /** The field, and the same term's list in the next higher field (a chain in field order). */
  readonly field: number;
  next: PostingList | null;
  /** The postings are docs[start, start + length) and freqs alike, removed documents' included. */
  docs: Int32Array = EMPTY_DOCS;
  freqs: Uint8Array = EMPTY_FREQS;
  start = 0;
  length = 0;
  /** How many of them are of documents not removed. */
  live = 0;
  #room = 0;
  #shared = -1; // where the room is in the shared blocks, when it is there
  #slabs: PostingSlabs;
  // Document → its frequency, for the rare frequencies of FREQ_MARK or more.
  #large: Map<number, number> | null = null;

  constructor(slabs: PostingSlabs, field: number, next: PostingList | null) {
    this.#slabs = slabs;
    this.field = field;
    this.next = next;
  }

  /**
   * Takes postings laid out by a first build in arrays shared with other lists: docs[start, start + length)
   * and freqs alike, `large` the exact frequencies of FREQ_MARK or more. Its room is those postings only: a
   * later add() moves them out first.
   */
  adopt(docs: Int32Array, freqs: Uint8Array, start: number, length: number, large: Map<number, number> | null): void {
    this.docs = docs;
    this.freqs = freqs;
    this.start = start;
    this.length = this.live = this.#room = length;
    this.#large = large;
  }

  add(doc: number, freq: number): void {
    if (this.length === this.#room) this.#move(roomFor(this.#room + 1));
    const at = this.start + this.length++;
    this.docs[at] = doc;
    this.freqs[at] = Math.min(freq, FREQ_MARK);
    if (freq >= FREQ_MARK) (this.#large ??= new Map()).set(doc, freq);
    this.live++;
  }

  /** The frequency of the posting at `at`, an index into docs and freqs (from start to start + length). */
  freq(at: number): number {
    const freq = this.freqs[at]!;
    return freq === FREQ_MARK ? this.#large!.get(this.docs[at]!)! : freq;
  }

  /**
   * Keeps the postings whose document `keep` says; `dropped` hears of each other one. Returns how many
   * went. A list left empty gives its room back and may not be added to again.
   */
  clean(keep: (doc: number) => boolean, dropped: (doc: number) => void): number {
    const { docs, freqs, start } = this;
    let kept = start;
    for (let i = start; i < start + this.length; i++) {
      const doc = docs[i]!;
      if (keep(doc)) {
        docs[kept] = doc;
        freqs[kept++] = freqs[i]!;
      } else {
        this.#large?.delete(doc);
        dropped(doc);
      }
    }
    const gone = this.length - (kept - start);
    this.length = kept - start;
    // A list cleaned down to a quarter of its room gives half of it back; an empty one all of it.
    if (this.length === 0) this.#move(0);
    else if (this.length * 4 <= this.#room) this.#move(roomFor(this.#room >>> 1));
    return gone;
  }

  // Moves the postings to room for `room` of them: a piece of the shared blocks, or arrays of their own.
  #move(room: number): void {
    const slabs = this.#slabs;
    let docs: Int32Array;
    let freqs: Uint8Array;
    let start = 0;
    const shared = room > 0 && room <= SHARED_UP_TO ? slabs.take(room) : -1;
    if (shared >= 0) {
      docs = slabs.docs[Math.floor(shared / BLOCK_SLOTS)]!;
      freqs = slabs.freqs[Math.floor(shared / BLOCK_SLOTS)]!;
      start = shared % BLOCK_SLOTS;
    } else if (room === 0) [docs, freqs] = [EMPTY_DOCS, EMPTY_FREQS];
    else [docs, freqs] = [new Int32Array(room), new Uint8Array(room)];
    if (this.length > SHARED_UP_TO) {
      docs.set(this.docs.subarray(this.start, this.start + this.length), start);
      freqs.set(this.freqs.subarray(this.start, this.start + this.length), start);
    } else
      for (let i = 0; i < this.length; i++) {
        docs[start + i] = this.docs[this.start + i]!;
        freqs[start + i] = this.freqs[this.start + i]!;
      }
    if (this.#shared >= 0) slabs.give(this.#room, this.#shared);
    this.#shared = shared;
    this.docs = docs;
    this.freqs = freqs;
    this.start = start;
    this.#room = room;
  }
}

// Rooms are powers of two (the shared blocks hand out no other sizes), but for a list a first build laid out.
function roomFor(postings: number): number {
  return 2 ** Math.ceil(Math.log2(postings));
}
