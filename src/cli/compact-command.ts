// `minihub compact`: rewrites a data directory's log as its current state, atomically.

import { MinihubError } from '../errors.ts';
import { COMPACT_HELP } from './help.ts';
import { dataDirOf, parse } from './options.ts';
import { plural } from './report.ts';
import type { CliIo } from './io.ts';
import { compactOffline } from '../store/offline.ts';
import { withLog } from './with-store.ts';

export async function compactCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.stdout.write(COMPACT_HELP);
    return 0;
  }
  if (positionals.length > 0)
    throw new MinihubError('USAGE', `compact takes no arguments, got "${positionals.join(' ')}"`);
  // Streamed from the log, never replayed into a catalogue: memory stays bounded on a log of any size.
  const report = await withLog(io, dataDirOf(values.data, io.env), compactOffline);
  const history = report.historyRecords > 0 ? `, plus ${report.historyRecords} of change history` : '';
  io.stdout.write(
    `compacted: ${report.bytesBefore} → ${report.bytesAfter} bytes, ${plural(report.entities, 'entity', 'entities')} in ${plural(report.records, 'record')}${history}\n`,
  );
  return 0;
}
