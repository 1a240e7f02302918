// Generates synthetic catalogues for the benchmark: DataHub MCP files of N datasets x C columns,
// written in pieces so no single string grows too large, and a raw log of many small records.
// Every dataset's words are a pure function of its index (catalogue-words.ts), so the bench can ask for them.

import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

import { columnDescription, columnPath, datasetText, platformOf } from './catalogue-words.ts';

export function datasetUrn(index: number): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platformOf(index)},bench.public.table_${index},PROD)`;
}

function mcp(entityUrn: string, aspectName: string, json: unknown): string {
  return JSON.stringify({ entityType: 'dataset', entityUrn, changeType: 'UPSERT', aspectName, aspect: { json } });
}

/** How a bench table's columns are named, and on which platform it is; by default `column_N` on postgres. */
export interface SchemaShape {
  platform?: string;
  path?: (column: number) => string;
}

/** The schemaMetadata of bench table `index`: `columns` columns, alternately strings and numbers, described by `describe`. */
export function tableSchema(
  index: number,
  columns: number,
  describe: (column: number) => string,
  shape: SchemaShape = {},
): object {
  const fields = Array.from({ length: columns }, (_, column) => ({
    fieldPath: shape.path?.(column) ?? `column_${column}`,
    nullable: column % 3 === 0,
    description: describe(column),
    type: { type: { [column % 2 === 0 ? 'com.linkedin.schema.StringType' : 'com.linkedin.schema.NumberType']: {} } },
    nativeDataType: column % 2 === 0 ? 'varchar(255)' : 'bigint',
    recursive: false,
  }));
  return {
    schemaName: `table_${index}`,
    platform: `urn:li:dataPlatform:${shape.platform ?? 'postgres'}`,
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
    fields,
  };
}

function datasetRecords(index: number, columns: number): string[] {
  const urn = datasetUrn(index);
  const text = datasetText(index);
  return [
    mcp(urn, 'datasetProperties', {
      name: text.name,
      description: text.description,
      customProperties: { owner_team: `team_${index % 50}` },
    }),
    mcp(
      urn,
      'schemaMetadata',
      tableSchema(index, columns, (column) => columnDescription(index, column), {
        platform: platformOf(index),
        path: (column) => columnPath(index, column),
      }),
    ),
    mcp(urn, 'ownership', {
      owners: [{ owner: `urn:li:corpuser:user_${index % 100}`, type: 'TECHNICAL_OWNER' }],
      lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
    }),
  ];
}

/** Writes `datasets` datasets as JSON-array MCP files of at most `perFile` datasets each; returns their paths. */
export async function writeCatalogueFiles(
  dir: string,
  datasets: number,
  columns: number,
  perFile = 10_000,
): Promise<string[]> {
  const files: string[] = [];
  for (let first = 0; first < datasets; first += perFile) {
    const path = join(dir, `catalogue-${files.length}.json`);
    const out = createWriteStream(path);
    out.write('[\n');
    const last = Math.min(datasets, first + perFile);
    for (let index = first; index < last; index++) {
      const lines = datasetRecords(index, columns).join(',\n');
      if (!out.write(index === first ? lines : `,\n${lines}`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    out.write('\n]\n');
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    files.push(path);
  }
  return files;
}

/** Writes a minihub log of `records` small records straight away (what a long-running server leaves behind). */
export async function writeLog(path: string, records: number): Promise<void> {
  const out = createWriteStream(path);
  for (let seq = 1; seq <= records; seq++) {
    const urn = `urn:li:tag:bench_${seq % 100_000}`;
    const line = JSON.stringify({
      seq,
      time: 1_700_000_000_000 + seq,
      actor: 'urn:li:corpuser:datahub',
      op: 'createTag',
      changes: [
        {
          urn,
          aspect: 'tagProperties',
          value: { name: `bench ${seq}`, description: 'a tag written by the benchmark' },
        },
      ],
    });
    if (!out.write(line + '\n')) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}
