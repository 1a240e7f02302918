// A document's search terms, field by field, as the index keeps them: each word in its heaviest field only.
// Text in, terms out; no index here.

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

/**
 * Each field's terms (in TEXT_FIELDS' order), a word kept only in the heaviest field that holds it: a
 * dataset's name words are found by its name, not again in its description and twenty column
 * descriptions. Ranking loses little (the heaviest match dominates the score) and a word common to every
 * dataset costs one posting each, not four. A field of many values (columns, tags...) also counts each
 * word once: twenty columns described alike are not twenty times as relevant.
 */
export function fieldTerms(text: DocumentText): string[][] {
  const seen = new Set<string>();
  const terms: string[][] = TEXT_FIELDS.map(() => []);
  for (const f of BY_WEIGHT) {
    const field = TEXT_FIELDS[f]!;
    const all = tokenize(text[field]);
    const kept = (LIST_FIELDS.has(field) ? [...new Set(all)] : all).filter((term) => !seen.has(term));
    for (const term of kept) seen.add(term);
    terms[f] = kept;
  }
  return terms;
}
