// `minihub ingest FILE...`: loads DataHub files into a data directory, one line of counts per file.

import { statSync } from 'node:fs';

import { ROOT_USER } from '../auth/users.ts';
import { MinihubError } from '../errors.ts';
import { ingest } from '../datahub/ingest.ts';
import { corpUserUrn } from '../urn.ts';
import { INGEST_HELP } from './help.ts';
import { dataDirOf, parse } from './options.ts';
import { ingestProgress, PROGRESS_MIN_BYTES } from './progress.ts';
import { describeReport } from './report.ts';
import type { CliIo } from './io.ts';
import { withStore } from './with-store.ts';

export async function ingestCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.stdout.write(INGEST_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new MinihubError('USAGE', 'ingest needs at least one FILE');
  let rejected = 0;
  // ingest is one of the two commands that may make a data directory (serve is the other).
  await withStore(
    io,
    dataDirOf(values.data, io.env),
    async (store) => {
      for (const file of positionals) {
        io.stdout.write(`ingesting ${file}\n`);
        const bytes = sizeOf(file);
        const progress =
          bytes > PROGRESS_MIN_BYTES ? ingestProgress(file, bytes, (line) => io.stderr.write(line)) : undefined;
        const report = await ingest(store, file, corpUserUrn(ROOT_USER), progress);
        io.stdout.write(`  ${describeReport(report)}\n`);
        for (const { record, reason } of report.rejected)
          io.stderr.write(`  rejected ${file} record ${record}: ${reason}\n`);
        rejected += report.rejected.length;
      }
    },
    // What ingest writes it does not read again (but to skip unchanged aspects): held as the log's text.
    { create: true, keepValuesAsText: true },
  );
  if (rejected > 0)
    io.stderr.write(
      `minihub: ${rejected === 1 ? '1 record was' : `${rejected} records were`} rejected; the others were ingested\n`,
    );
  return rejected > 0 ? 1 : 0;
}

/** The file's size, or 0 when it cannot be read: ingest() then names the problem itself. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
