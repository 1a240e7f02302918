// The vocabulary of a first build (index-builder.ts): term text → number in order of first sight, looked up
// by a string or by a word's place in a longer text (ASCII, lowered on the fly). Each slot holds the hash,
// the number and where the term's characters are in one flat pool, so a lookup reads a slot and a few
// pooled characters instead of chasing a string per word. Terms are only added, never removed.

const EMPTY = -1;
/** Int32s per slot: hash, term, first character in the pool, length. */
const SLOT = 4;

export class BuildTerms {
  /** Term number → text, in order of first sight. */
  readonly texts: string[] = [];
  #slots = new Int32Array(1024 * SLOT).fill(EMPTY);
  #mask = 1023;
  #pool = new Uint16Array(1 << 16);
  #poolLength = 0;

  /** The number of `text`, which becomes a term when it is not one yet. */
  intern(text: string): number {
    const hash = hashOf(text, 0, text.length, false);
    const slots = this.#slots;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = slot * SLOT;
      if (slots[at + 1] === EMPTY) return this.#add(at, hash, text, 0, text.length, false);
      if (slots[at] === hash && this.#same(at, text, 0, text.length, false)) return slots[at + 1]!;
    }
  }

  /** The number of `text[start, end)` in lower case (ASCII text only), as intern() of it would give. */
  internLowered(text: string, start: number, end: number): number {
    const hash = hashOf(text, start, end, true);
    const slots = this.#slots;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = slot * SLOT;
      if (slots[at + 1] === EMPTY) return this.#add(at, hash, text, start, end, true);
      if (slots[at] === hash && this.#same(at, text, start, end, true)) return slots[at + 1]!;
    }
  }

  /** The number of the ASCII word bytes[start, end) in lower case, as intern() of it would give. */
  internAsciiBytes(bytes: Uint8Array, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      const c = bytes[i]!;
      hash = Math.imul(hash ^ (c >= 65 && c <= 90 ? c | 32 : c), 0x01000193);
    }
    hash |= 0;
    const slots = this.#slots;
    const pool = this.#pool;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = slot * SLOT;
      if (slots[at + 1] === EMPTY) {
        const word = String.fromCharCode(...bytes.subarray(start, end)).toLowerCase();
        return this.#add(at, hash, word, 0, word.length, false);
      }
      if (slots[at] !== hash || slots[at + 3] !== end - start) continue;
      let i = start;
      for (let from = slots[at + 2]! - start; i < end; i++) {
        const c = bytes[i]!;
        if (pool[from + i] !== (c >= 65 && c <= 90 ? c | 32 : c)) break;
      }
      if (i === end) return slots[at + 1]!;
    }
  }

  #same(at: number, text: string, start: number, end: number, lower: boolean): boolean {
    if (this.#slots[at + 3] !== end - start) return false;
    const pool = this.#pool;
    let from = this.#slots[at + 2]! - start;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (pool[from + i] !== (lower && c >= 65 && c <= 90 ? c | 32 : c)) return false;
    }
    return true;
  }

  #add(at: number, hash: number, text: string, start: number, end: number, lower: boolean): number {
    const term = this.texts.length;
    const word = lower ? text.slice(start, end).toLowerCase() : text.slice(start, end);
    this.texts.push(word);
    if (this.#poolLength + word.length > this.#pool.length) {
      const pool = new Uint16Array(Math.max(this.#pool.length * 2, this.#poolLength + word.length));
      pool.set(this.#pool);
      this.#pool = pool;
    }
    const first = this.#poolLength;
    for (let i = 0; i < word.length; i++) this.#pool[first + i] = word.charCodeAt(i);
    this.#poolLength += word.length;
    const slots = this.#slots;
    slots[at] = hash;
    slots[at + 1] = term;
    slots[at + 2] = first;
    slots[at + 3] = word.length;
    // At most half the slots used: probes stay short.
    if (this.texts.length * 2 > this.#mask + 1) this.#grow();
    return term;
  }

  #grow(): void {
    const old = this.#slots;
    const size = (this.#mask + 1) * 2;
    const slots = new Int32Array(size * SLOT).fill(EMPTY);
    const mask = size - 1;
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 1] === EMPTY) continue;
      let slot = old[at]! & mask;
      while (slots[slot * SLOT + 1] !== EMPTY) slot = (slot + 1) & mask;
      slots.set(old.subarray(at, at + SLOT), slot * SLOT);
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

/** FNV-1a of `text[start, end)`, A-Z lowered when `lower`, as a signed 32-bit number. */
function hashOf(text: string, start: number, end: number, lower: boolean): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    hash = Math.imul(hash ^ (lower && c >= 65 && c <= 90 ? c | 32 : c), 0x01000193);
  }
  return hash | 0;
}
