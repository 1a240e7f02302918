// A document's search terms, field by field, as the index keeps them: each word in its heaviest field only.
// Text in, numbered terms and their counts out; no index here.

import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from './fields.ts';
import { tokenize } from './text.ts';

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

  /** `text`'s (term × 16 + field, frequency) pairs, each word numbered by `intern`. */
  pairs(text: DocumentText, intern: (word: string) => number): number[] {
    if (this.#count === 0xffffffff) {
      this.#countOf.fill(0);
      this.#count = 0;
    }
    const count = ++this.#count;
    const pairs: number[] = [];
    for (const f of BY_WEIGHT) {
      const once = COUNTED_ONCE[f]!;
      for (const word of tokenize(text[TEXT_FIELDS[f]!])) {
        const term = intern(word);
        if (term >= this.#countOf.length) this.#grow(term);
        if (this.#countOf[term] !== count) {
          this.#countOf[term] = count;
          this.#pairOf[term] = pairs.length;
          pairs.push(term * 16 + f, 1);
        } else if (!once && (pairs[this.#pairOf[term]!]! & 15) === f) pairs[this.#pairOf[term]! + 1]!++;
      }
    }
    return pairs;
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
  const pairs = new TermCounter().pairs(text, (word) => {
    let term = numbers.get(word);
    if (term === undefined) numbers.set(word, (term = words.push(word) - 1));
    return term;
  });
  const terms: string[][] = TEXT_FIELDS.map(() => []);
  for (let i = 0; i < pairs.length; i += 2)
    for (let n = 0; n < pairs[i + 1]!; n++) terms[pairs[i]! & 15]!.push(words[pairs[i]! >>> 4]!);
  return terms;
}
