// SchemaMetadata.foreignKeys from the ingested schemaMetadata's foreignKeys: each constraint's name, its
// fields as SchemaFieldEntity (parsed from schemaField URNs) and the foreign dataset. Absent keys: [].

import type { AspectReader } from '../../store/catalogue.ts';
import type { JsonObject } from '../../aspects/json.ts';
import { objects, str, strings } from '../../aspects/read.ts';
import { entityView } from './entity-registry.ts';

export function foreignKeysView(reader: AspectReader, schema: JsonObject) {
  return objects(schema, 'foreignKeys').map((constraint) => {
    const dataset = str(constraint, 'foreignDataset');
    const view = dataset === null ? null : entityView(reader, dataset);
    return {
      name: str(constraint, 'name'),
      sourceFields: schemaFields(reader, strings(constraint, 'sourceFields')),
      foreignFields: schemaFields(reader, strings(constraint, 'foreignFields')),
      foreignDataset: view?.__typename === 'Dataset' ? view : null,
    };
  });
}

function schemaFields(reader: AspectReader, urns: string[] | null) {
  if (urns === null) return null;
  return urns.flatMap((urn) => {
    const parts = schemaFieldParts(urn);
    const parent = parts === null ? null : entityView(reader, parts.parent);
    if (parts === null || parent === null) return [];
    return [{ __typename: 'SchemaFieldEntity', urn, type: 'SCHEMA_FIELD', fieldPath: parts.fieldPath, parent }];
  });
}

/**
 * `urn:li:schemaField:(<parent urn>,<fieldPath>)` → its parts. The parent URN holds commas of its own,
 * so the split is at the first comma outside its parentheses.
 */
export function schemaFieldParts(urn: string): { parent: string; fieldPath: string } | null {
  const prefix = 'urn:li:schemaField:(';
  if (!urn.startsWith(prefix) || !urn.endsWith(')')) return null;
  const body = urn.slice(prefix.length, -1);
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) return { parent: body.slice(0, i), fieldPath: body.slice(i + 1) };
  }
  return null;
}
