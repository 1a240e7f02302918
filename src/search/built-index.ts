// What an inverted index is made of (BuiltIndex), made from a first build's typed arrays (index-builder.ts):
// the vocabulary, one posting list per term and field over the shared arrays, each document's terms. On the
// thread that answers queries; it never tokenizes.

import { TEXT_FIELDS } from './fields.ts';
import type { LaidOut } from './index-builder.ts';
import { PostingList, PostingSlabs } from './posting-list.ts';
import { TermDictionary } from './term-dictionary.ts';

/** Terms or documents made between two yields of assemble(). */
const CHUNK = 8192;
const FIELDS = TEXT_FIELDS.length;
const EMPTY = new Uint32Array(0);

export interface BuiltIndex {
  terms: TermDictionary;
  /** [term] → its posting lists, one per field, chained in field order. */
  lists: (PostingList | null)[];
  slabs: PostingSlabs;
  /** [field][doc] → the document's distinct terms in that field, and their sum over every document. */
  fieldLength: number[][];
  totalLength: number[];
  ids: string[];
  byId: Map<string, number>;
  /** [doc] → its terms as term × 16 + field. */
  docTerms: Uint32Array[];
  postings: number;
}

/**
 * The index `laidOut` describes, document d being `ids[d]`, yielding now and then so a caller can let other
 * work run. Its lists and documents' terms are views of laidOut's arrays, which a later change copies out of.
 */
export function* assemble(laidOut: LaidOut, ids: string[]): Generator<void, BuiltIndex> {
  const { starts, docs, freqs, docTerms, chunkStarts, docEnds, fieldLength } = laidOut;
  if (ids.length !== docEnds.length) throw new Error(`${ids.length} ids for ${docEnds.length} documents`);
  const terms = new TermDictionary();
  for (let term = 0; term < laidOut.terms.length; term++) {
    // In order, into an empty dictionary: each text gets the number it had in the build.
    terms.intern(laidOut.terms[term]!);
    if (term % CHUNK === CHUNK - 1) yield;
  }
  const large = new Map<number, Map<number, number>>(); // key → doc → frequency
  for (let i = 0; i < laidOut.large.length; i += 3) {
    const key = laidOut.large[i]!;
    let exact = large.get(key);
    if (exact === undefined) large.set(key, (exact = new Map()));
    exact.set(laidOut.large[i + 1]!, laidOut.large[i + 2]!);
  }
  const slabs = new PostingSlabs();
  const lists: (PostingList | null)[] = [];
  for (let term = 0; term < laidOut.terms.length; term++) {
    let chain: PostingList | null = null;
    for (let f = FIELDS - 1; f >= 0; f--) {
      const key = term * 16 + f;
      const length = starts[key + 1]! - starts[key]!;
      if (length === 0) continue;
      chain = new PostingList(slabs, f, chain);
      chain.adopt(docs, freqs, starts[key]!, length, large.get(key) ?? null);
    }
    lists[term] = chain;
    if (term % CHUNK === CHUNK - 1) yield;
  }
  const byId = new Map<string, number>();
  const perDoc: Uint32Array[] = [];
  const lengths: number[][] = TEXT_FIELDS.map(() => []);
  let chunk = 0;
  for (let doc = 0; doc < ids.length; doc++) {
    if (byId.has(ids[doc]!)) throw new Error(`document ${ids[doc]} added twice`);
    byId.set(ids[doc]!, doc);
    const first = doc === 0 ? 0 : docEnds[doc - 1]!;
    while (chunk + 1 < chunkStarts.length && chunkStarts[chunk + 1]! <= first && first < docEnds[doc]!) chunk++;
    const from = chunkStarts[chunk] ?? 0;
    perDoc.push(first === docEnds[doc] ? EMPTY : docTerms[chunk]!.subarray(first - from, docEnds[doc]! - from));
    for (let f = 0; f < FIELDS; f++) lengths[f]!.push(fieldLength[doc * FIELDS + f]!);
    if (doc % CHUNK === CHUNK - 1) yield;
  }
  return {
    terms,
    lists,
    slabs,
    fieldLength: lengths,
    totalLength: laidOut.totalLength,
    ids,
    byId,
    docTerms: perDoc,
    postings: docs.length,
  };
}
