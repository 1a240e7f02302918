// The specification's rule 5 ("after a write, a read returns the new description"), written once:
// every view that answers a current description asks this; none picks between edit and ingest itself.

import type { JsonObject } from '../../aspects/json.ts';
import { objects, str } from '../../aspects/read.ts';

/**
 * The current description of an entity or a column: the latest edit (the editable aspect's text), else
 * the ingested text (`description` of the ingested aspect or field), else null. DataHub shows only the
 * ingested text there; minihub differs on purpose (decisions: differences from DataHub). An edit to ""
 * counts: a user who cleared a description sees it cleared, whatever was ingested.
 * @example
 * currentDescription(str(editable, 'description'), datasetProperties);
 */
export function currentDescription(edited: string | null | undefined, ingested: JsonObject | null): string | null {
  return edited ?? str(ingested, 'description');
}

/**
 * fieldPath -> a column's edited description, for currentDescription: the last of the dataset's column edits
 * for that path that sets one (an edit that only tags a column leaves its description as it was). Search's
 * column text and GraphQL's columns both read it, so what a user sees is what a search finds.
 */
export function editedColumnDescriptions(editable: JsonObject | null): Map<string, string> {
  const edits = new Map<string, string>();
  for (const info of objects(editable, 'editableSchemaFieldInfo')) {
    const fieldPath = str(info, 'fieldPath');
    const description = str(info, 'description');
    if (fieldPath !== null && description !== null) edits.set(fieldPath, description);
  }
  return edits;
}
