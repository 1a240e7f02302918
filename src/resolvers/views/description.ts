// The specification's rule 5 ("after a write, a read returns the new description"), written once:
// every view that answers a current description asks this; none picks between edit and ingest itself.

import type { JsonObject } from '../../aspects/json.ts';
import { str } from '../../aspects/read.ts';

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
