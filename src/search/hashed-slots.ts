// Open addressing over typed arrays: slots of (32-bit hash, term number) with linear probing, removed slots
// marked and dropped when the table grows. The term table and the one-edit index both file terms here and
// probe the arrays themselves; it holds numbers only, never texts.

/** A slot never used: a probe stops here. */
export const EMPTY = -1;
/** A slot whose term was removed: a probe goes on past it. */
const REMOVED = -2;

export class HashedSlots {
  /** Slot → hash, and slot → term (EMPTY or REMOVED where none is); a probe starts at `hash & (length - 1)`. */
  hashes = new Uint32Array(1024);
  terms = new Int32Array(1024).fill(EMPTY);
  #used = 0; // slots holding a term or REMOVED
  #live = 0;

  /** How many (hash, term) pairs are filed. */
  get size(): number {
    return this.#live;
  }

  /** Files (`hash`, `term`), making room first when the table is half used. */
  insert(hash: number, term: number): void {
    if ((this.#used + 1) * 2 > this.terms.length) this.#resize();
    this.#put(hash, term);
    this.#live++;
  }

  /** Unfiles (`hash`, `term`); nothing when it is not filed. */
  delete(hash: number, term: number): void {
    const mask = this.terms.length - 1;
    for (let slot = hash & mask; this.terms[slot] !== EMPTY; slot = (slot + 1) & mask) {
      if (this.terms[slot] === term && this.hashes[slot] === hash) {
        this.terms[slot] = REMOVED;
        this.#live--;
        return;
      }
    }
  }

  #put(hash: number, term: number): void {
    const mask = this.terms.length - 1;
    let slot = hash & mask;
    while (this.terms[slot]! >= 0) slot = (slot + 1) & mask;
    if (this.terms[slot] === EMPTY) this.#used++;
    this.hashes[slot] = hash;
    this.terms[slot] = term;
  }

  // Room for four times the live pairs, REMOVED slots dropped: each pair moves once per doubling.
  #resize(): void {
    const hashes = this.hashes;
    const terms = this.terms;
    let size = 1024;
    while (size < this.#live * 4) size *= 2;
    this.hashes = new Uint32Array(size);
    this.terms = new Int32Array(size).fill(EMPTY);
    this.#used = 0;
    for (let slot = 0; slot < terms.length; slot++) if (terms[slot]! >= 0) this.#put(hashes[slot]!, terms[slot]!);
  }
}
