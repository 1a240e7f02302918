// A document's search terms, field by field, as the index keeps them: each word in its heaviest field only.
// Text in, numbered terms and their counts out; no index here.

import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from './fields.ts';
import { tokenize, visitAsciiBytes, visitAsciiTerms } from './text.ts';

const DECODER = new TextDecoder();
const NO_BYTES: Uint8Array = new Uint8Array(0);

// Heaviest first; fields of equal weight in the table's order.
const BY_WEIGHT = TEXT_FIELDS.map((_, f) => f).sort(
  (a, b) => FIELD_WEIGHTS[TEXT_FIELDS[b]!] - FIELD_WEIGHTS[TEXT_FIELDS[a]!],
);
const LIST_FIELDS: ReadonlySet<TextField> = new Set<TextField>([
  'fieldPaths',
  'fieldDescriptions',
  'tags',
  'owners',
  'typeNames',
  'customProperties',
  'links',
]);
const COUNTED_ONCE = TEXT_FIELDS.map((field) => LIST_FIELDS.has(field));

/** How words become term numbers: a word, or a word in lower case at its place in a text (ASCII only). */
export interface TermNumbers {
  intern(word: string): number;
  internLowered(text: string, start: number, end: number): number;
}

/** TermNumbers that also number a word of ASCII bytes, in lower case, where it stands. */
export interface ByteTermNumbers extends TermNumbers {
  internAsciiBytes(bytes: Uint8Array, start: number, end: number): number;
}

/**
 * Counts a document's terms. A word is kept only in the heaviest field that holds it: a dataset's name
 * words are found by its name, not again in its description and twenty column descriptions. Ranking
 * loses little (the heaviest match dominates the score) and a word common to every dataset costs one
 * posting each, not four. A field of many values (columns, tags...) also counts each word once: twenty
 * columns described alike are not twenty times as relevant.
 */
export class TermCounter {
  // Scratch reused by every count: the count that last met a term, and where its pair is.
  #count = 0;
  #countOf = new Uint32Array(0);
  #pairOf = new Uint32Array(0);
  // The count under way: its pairs, the field and its text, how words are numbered.
  #pairs: number[] = [];
  #field = 0;
  #text = '';
  #terms: TermNumbers = { intern: () => 0, internLowered: () => 0 };

  /** `text`'s (term × 16 + field, frequency) pairs, each word numbered by `terms`. */
  pairs(text: DocumentText, terms: TermNumbers): number[] {
    if (this.#count === 0xffffffff) {
      this.#countOf.fill(0);
      this.#count = 0;
    }
    this.#count++;
    const pairs: number[] = (this.#pairs = []);
    this.#terms = terms;
    for (const f of BY_WEIGHT) {
      this.#field = f;
      this.#text = text[TEXT_FIELDS[f]!];
      // ASCII text's words are numbered where they stand, without a string each.
      if (!visitAsciiTerms(this.#text, this.#visit))
        for (const word of tokenize(this.#text)) this.#add(terms.intern(word));
    }
    this.#pairs = [];
    this.#text = '';
    return pairs;
  }

  #visit = (start: number, end: number): void => this.#add(this.#terms.internLowered(this.#text, start, end));

  /**
   * pairs() of a document encoded as UTF-8 in `bytes`: field f (TEXT_FIELDS' order) is
   * bytes[bounds[at + f], bounds[at + f + 1]).
   */
  encodedPairs(bytes: Uint8Array, bounds: Uint32Array, at: number, terms: ByteTermNumbers): number[] {
    if (this.#count === 0xffffffff) {
      this.#countOf.fill(0);
      this.#count = 0;
    }
    this.#count++;
    const pairs: number[] = (this.#pairs = []);
    this.#bytes = bytes;
    this.#byteTerms = terms;
    for (const f of BY_WEIGHT) {
      this.#field = f;
      const start = bounds[at + f]!;
      const end = bounds[at + f + 1]!;
      // Text that is not ASCII (rare) is decoded and counted as pairs() counts it.
      if (!visitAsciiBytes(bytes, start, end, this.#visitBytes))
        for (const word of tokenize(DECODER.decode(bytes.subarray(start, end)))) this.#add(terms.intern(word));
    }
    this.#pairs = [];
    this.#bytes = NO_BYTES;
    return pairs;
  }

  #bytes: Uint8Array = NO_BYTES;
  #byteTerms: ByteTermNumbers | null = null;
  #visitBytes = (start: number, end: number): void =>
    this.#add(this.#byteTerms!.internAsciiBytes(this.#bytes, start, end));

  #add(term: number): void {
    const pairs = this.#pairs;
    const f = this.#field;
    if (term >= this.#countOf.length) this.#grow(term);
    if (this.#countOf[term] !== this.#count) {
      this.#countOf[term] = this.#count;
      this.#pairOf[term] = pairs.length;
      pairs.push(term * 16 + f, 1);
    } else if (!COUNTED_ONCE[f]! && (pairs[this.#pairOf[term]!]! & 15) === f) pairs[this.#pairOf[term]! + 1]!++;
  }

  #grow(term: number): void {
    const size = Math.max(1024, (term + 1) * 2);
    const countOf = new Uint32Array(size);
    countOf.set(this.#countOf);
    const pairOf = new Uint32Array(size);
    pairOf.set(this.#pairOf);
    this.#countOf = countOf;
    this.#pairOf = pairOf;
  }
}

/** The same terms as words, field by field (in TEXT_FIELDS' order), a word repeated as often as it counts. */
export function fieldTerms(text: DocumentText): string[][] {
  const numbers = new Map<string, number>();
  const words: string[] = [];
  const intern = (word: string): number => {
    let term = numbers.get(word);
    if (term === undefined) numbers.set(word, (term = words.push(word) - 1));
    return term;
  };
  const pairs = new TermCounter().pairs(text, {
    intern,
    internLowered: (source, start, end) => intern(source.slice(start, end).toLowerCase()),
  });
  const terms: string[][] = TEXT_FIELDS.map(() => []);
  for (let i = 0; i < pairs.length; i += 2)
    for (let n = 0; n < pairs[i + 1]!; n++) terms[pairs[i]! & 15]!.push(words[pairs[i]! >>> 4]!);
  return terms;
}
