// A dataset's columns read for one word at a time: the first line of a column path or description that
// holds it, in the order the document's text lists them, with no array of lines made; and a column's current
// description, which the whole column text (document-source.ts) reads too. Reads aspect JSON only.

import { isJsonObject, type JsonObject } from '../aspects/json.ts';
import { str } from '../aspects/read.ts';
import { currentDescription, editedColumnDescriptions } from '../resolvers/views/description.ts';

/** What DocumentSource.firstLine() looks for: an object with a method, so no closure is made per search. */
export interface LineTest {
  holds(line: string): boolean;
}

/**
 * A column's current description, the one rule every column text follows: its edit's (`edited`, from
 * editedColumnDescriptions), else the ingested one; null when neither. `path` is the field path as ingested.
 */
export function columnDescription(field: JsonObject, path: string, edited: ReadonlyMap<string, string>): string | null {
  return currentDescription(edited.get(path), field);
}

/** The first line of a column path that holds, in the order the document's text lists them. */
export function firstColumnPath(schema: JsonObject | null, holder: LineTest): string | undefined {
  const fields = schema?.fields;
  if (!Array.isArray(fields)) return undefined;
  for (const field of fields) {
    if (!isJsonObject(field)) continue;
    const found = firstOfLines(simplePath(str(field, 'fieldPath') ?? ''), holder);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first line of a column description that holds, in the order the text lists them (an edit's first). */
export function firstColumnDescription(
  schema: JsonObject | null,
  editable: JsonObject | null,
  holder: LineTest,
): string | undefined {
  const fields = schema?.fields;
  if (!Array.isArray(fields)) return undefined;
  const edited = editedColumnDescriptions(editable);
  for (const field of fields) {
    if (!isJsonObject(field)) continue;
    const description = columnDescription(field, str(field, 'fieldPath') ?? '', edited);
    if (description === null) continue;
    const found = firstOfLines(description, holder);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first line of `text` that holds. */
export function firstOfLines(text: string, holder: LineTest): string | undefined {
  if (!text.includes('\n')) return holder.holds(text) ? text : undefined;
  for (const line of text.split('\n')) if (holder.holds(line)) return line;
  return undefined;
}

/** A v2 field path without its `[version=2.0].[type=...]` parts, as DataHub's simplified fieldPaths. */
export function simplePath(path: string): string {
  return path.startsWith('[') ? path.replace(/\[[^\]]*\]\.?/g, '') : path;
}
