// `minihub export --out` and then `minihub compact` of one data directory's log, each as a process of its
// own: time, peak RSS against the log's size, and the compacted log against the export. For the bench's
// 100,000 x 20 rows and `compaction.ts cli`; it changes the directory it is given (compacts its log).

import { statSync } from 'node:fs';
import { join } from 'node:path';

import { LOG } from './compaction-load.ts';
import { runSampled } from './harness.ts';

export interface OfflineCommands {
  logMib: number;
  exportMib: number;
  exportMs: number;
  exportPeakMb: number;
  compactMib: number;
  compactMs: number;
  compactPeakMb: number;
}

/** Exports `dataDir` to a file beside its log, then compacts the log, with `runner` (a RUNNERS entry). */
export async function exportThenCompact(dataDir: string, runner: readonly string[]): Promise<OfflineCommands> {
  const mib = (path: string) => statSync(path).size / 2 ** 20;
  const logMib = mib(join(dataDir, LOG));
  const out = join(dataDir, 'export.json');
  const exported = await runSampled([...runner, 'export', '--data', dataDir, '--out', out]);
  const exportMib = mib(out);
  const compacted = await runSampled([...runner, 'compact', '--data', dataDir]);
  return {
    logMib,
    exportMib,
    exportMs: exported.ms,
    exportPeakMb: exported.peakMb,
    compactMib: mib(join(dataDir, LOG)),
    compactMs: compacted.ms,
    compactPeakMb: compacted.peakMb,
  };
}
