// DataHub's matchedFields for one result: which fields a query's words were found in, with the value
// (the name, the column path, the tag...) that holds them. Worked out for a page's results only.

import type { AspectReader } from '../store/catalogue.ts';
import type { LineTest } from './column-lines.ts';
import type { DocumentSource } from './document-source.ts';
import { documentSource } from './documents.ts';
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
  const found: MatchedField[] = [];
  let source: DocumentSource | null | undefined;
  for (const term in terms) {
    let holder: LineHolder | null = null;
    for (const field of terms[term]!) {
      // Read only once a term was found somewhere: a result matched on nothing (`*`) reads no aspect.
      if (source === undefined) source = documentSource(reader, match.urn);
      if (source === null) return [];
      holder ??= new LineHolder(term);
      const value = source.firstLine(field, holder) ?? term;
      if (!found.some((entry) => entry.name === field && entry.value === value)) found.push({ name: field, value });
    }
  }
  // Most results match in one field: nothing to sort.
  if (found.length < 2) return found;
  return found.sort((a, b) => FIELD_WEIGHTS[b.name as TextField] - FIELD_WEIGHTS[a.name as TextField]);
}

/** Whether a line holds one term, as one of the line's terms (tokenize's). */
class LineHolder implements LineTest {
  readonly #term: string;

  constructor(term: string) {
    this.#term = term;
  }

  // An ASCII line's terms are pieces of it in lower case, so a line without the term as a piece is passed
  // over (most of a table's columns), and one with it is checked where its terms stand, none of them made
  // into a string. (A case-insensitive RegExp per term instead costs more to compile than it saves.)
  holds(line: string): boolean {
    const term = this.#term;
    if (NOT_ASCII.test(line)) return tokenize(line).includes(term);
    const lower = line.toLowerCase();
    if (!lower.includes(term)) return false;
    let held = false;
    visitAsciiTerms(line, (start, end) => {
      if (!held && end - start === term.length && lower.startsWith(term, start)) held = true;
    });
    return held;
  }
}
