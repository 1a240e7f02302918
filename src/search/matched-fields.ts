// DataHub's matchedFields for one result: which fields a query's words were found in, with the value
// (the name, the column path, the tag...) that holds them. Worked out for a page's results only.

import type { AspectReader } from '../store/catalogue.ts';
import { documentLines } from './documents.ts';
import { FIELD_WEIGHTS, type TextField } from './fields.ts';
import type { Match } from './ranked-matches.ts';
import { NOT_ASCII, tokenize, visitAsciiTerms } from './text.ts';

export interface MatchedField {
  name: string;
  value: string;
}

/** The fields `match` was found in, heaviest first, each with the line of it that holds a matched word. */
export function matchedFields(reader: AspectReader, match: Match): MatchedField[] {
  const terms = match.terms();
  const fields = new Set<TextField>();
  for (const term in terms) for (const field of terms[term]!) fields.add(field);
  if (fields.size === 0) return [];
  const document = documentLines(reader, match.urn, fields);
  if (document === null) return [];
  const found = new Map<string, MatchedField>();
  for (const term in terms) {
    for (const field of terms[term]!) {
      const value = firstHolding(document.get(field)!, term) ?? term;
      const key = `${field}\u0000${value}`;
      if (!found.has(key)) found.set(key, { name: field, value });
    }
  }
  return [...found.values()].sort((a, b) => FIELD_WEIGHTS[b.name as TextField] - FIELD_WEIGHTS[a.name as TextField]);
}

/** The first of `lines` of which `term` is one of the terms. */
function firstHolding(lines: readonly string[], term: string): string | undefined {
  for (const line of lines) if (holds(line, term)) return line;
  return undefined;
}

// Whether `term` is one of `line`'s terms. An ASCII line's terms are pieces of it in lower case, so a line
// without the term as a piece is passed over (most of a table's columns), and one with it is checked where
// its terms stand, none of them made into a string.
function holds(line: string, term: string): boolean {
  if (NOT_ASCII.test(line)) return tokenize(line).includes(term);
  const lower = line.toLowerCase();
  if (!lower.includes(term)) return false;
  let held = false;
  visitAsciiTerms(line, (start, end) => {
    if (!held && end - start === term.length && lower.startsWith(term, start)) held = true;
  });
  return held;
}
