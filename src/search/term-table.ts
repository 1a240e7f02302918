// Term text → term number, looked up either by a string or by a word's place in a longer text (ASCII,
// lowered on the fly), so indexing a document makes no string per word: only a new term becomes one.
// Open addressing over typed arrays; it holds numbers and hashes, the texts are its caller's.

const EMPTY = -1;
const REMOVED = -2;

export class TermTable {
  #hashes = new Uint32Array(1024);
  #terms = new Int32Array(1024).fill(EMPTY);
  #used = 0; // slots holding a term or REMOVED
  #size = 0;
  readonly #texts: readonly string[];

  /** `texts` is the caller's term number → text, read to tell terms of one hash apart. */
  constructor(texts: readonly string[]) {
    this.#texts = texts;
  }

  get size(): number {
    return this.#size;
  }

  /** The number of the term `text`, or -1. */
  get(text: string): number {
    const hash = hashOf(text, 0, text.length);
    const mask = this.#terms.length - 1;
    for (let slot = hash & mask; this.#terms[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const term = this.#terms[slot]!;
      if (term >= 0 && this.#hashes[slot] === hash && this.#texts[term] === text) return term;
    }
    return -1;
  }

  /** The number of the term `text[start, end)` in lower case (ASCII text only), or -1. */
  getLowered(text: string, start: number, end: number): number {
    const hash = hashOf(text, start, end);
    const mask = this.#terms.length - 1;
    for (let slot = hash & mask; this.#terms[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const term = this.#terms[slot]!;
      if (term >= 0 && this.#hashes[slot] === hash && sameLowered(this.#texts[term]!, text, start, end)) return term;
    }
    return -1;
  }

  /** Files `term` (its text already in the caller's texts), which is not here yet. */
  add(term: number, text: string): void {
    if ((this.#used + 1) * 2 > this.#terms.length) this.#resize();
    this.#insert(hashOf(text, 0, text.length), term);
    this.#size++;
  }

  remove(term: number, text: string): void {
    const hash = hashOf(text, 0, text.length);
    const mask = this.#terms.length - 1;
    for (let slot = hash & mask; this.#terms[slot] !== EMPTY; slot = (slot + 1) & mask) {
      if (this.#terms[slot] === term) {
        this.#terms[slot] = REMOVED;
        this.#size--;
        return;
      }
    }
  }

  #insert(hash: number, term: number): void {
    const mask = this.#terms.length - 1;
    let slot = hash & mask;
    while (this.#terms[slot]! >= 0) slot = (slot + 1) & mask;
    if (this.#terms[slot] === EMPTY) this.#used++;
    this.#hashes[slot] = hash;
    this.#terms[slot] = term;
  }

  // Room for four times the live terms, REMOVED slots dropped.
  #resize(): void {
    const hashes = this.#hashes;
    const terms = this.#terms;
    let size = 1024;
    while (size < this.#size * 4) size *= 2;
    this.#hashes = new Uint32Array(size);
    this.#terms = new Int32Array(size).fill(EMPTY);
    this.#used = 0;
    for (let slot = 0; slot < terms.length; slot++) if (terms[slot]! >= 0) this.#insert(hashes[slot]!, terms[slot]!);
  }
}

/** FNV-1a of `text[start, end)` with A-Z lowered, as an unsigned 32-bit number. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    hash = Math.imul(hash ^ (c >= 65 && c <= 90 ? c | 32 : c), 0x01000193);
  }
  return hash >>> 0;
}

function sameLowered(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (term.charCodeAt(i - start) !== (c >= 65 && c <= 90 ? c | 32 : c)) return false;
  }
  return true;
}
