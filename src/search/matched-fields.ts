// DataHub's matchedFields for one result: which fields a query's words were found in, with the value
// (the name, the column path, the tag...) that holds them. Worked out for a page's results only.

import type { AspectReader } from '../store/catalogue.ts';
import { documentFields } from './documents.ts';
import { FIELD_WEIGHTS, type TextField } from './fields.ts';
import type { Match } from './ranked-matches.ts';
import { NOT_ASCII, tokenize } from './text.ts';

export interface MatchedField {
  name: string;
  value: string;
}

/** The fields `match` was found in, heaviest first, each with the line of it that holds a matched word. */
export function matchedFields(reader: AspectReader, match: Match): MatchedField[] {
  const entries = Object.entries(match.terms());
  if (entries.length === 0) return [];
  const document = documentFields(reader, match.urn, new Set(entries.flatMap(([, fields]) => fields)));
  if (document === null) return [];
  const found = new Map<string, MatchedField>();
  const linesOf = new Map<TextField, string[]>();
  for (const [term, fields] of entries) {
    for (const field of fields) {
      let lines = linesOf.get(field);
      if (lines === undefined) linesOf.set(field, (lines = (document.get(field) ?? '').split('\n')));
      const value = lines.find((line) => holds(line, term)) ?? term;
      const key = `${field}\u0000${value}`;
      if (!found.has(key)) found.set(key, { name: field, value });
    }
  }
  return [...found.values()].sort((a, b) => FIELD_WEIGHTS[b.name as TextField] - FIELD_WEIGHTS[a.name as TextField]);
}

// Whether `term` is one of `line`'s terms. An ASCII line's terms are pieces of it in lower case, so a line
// without the term as a piece is passed over without being split into terms (most of a table's columns).
function holds(line: string, term: string): boolean {
  if (!NOT_ASCII.test(line) && !line.toLowerCase().includes(term)) return false;
  return tokenize(line).includes(term);
}
