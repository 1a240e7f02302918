// `minihub export [--out FILE]`: writes a data directory's whole catalogue as a DataHub MCP file, to
// stdout (JSON only; the summary goes to stderr) or atomically to FILE. Never creates a data directory.

import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { MinihubError } from '../errors.ts';
import { mcpFileText, type McpRecord } from '../store/export.ts';
import { LOG_FILE } from '../store/file-log.ts';
import { EXPORT_HELP } from './help.ts';
import { plural } from './report.ts';
import { dataDirOf, parse } from './options.ts';
import { withStore } from './with-store.ts';

export async function exportCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parse(
    args,
    { data: { type: 'string' }, out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    process.stdout.write(EXPORT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new MinihubError('USAGE', `export takes no arguments, got "${positionals.join(' ')}"; use --out FILE`);
  if (values.out === '') throw new MinihubError('USAGE', '--out needs a file name');
  const dataDir = dataDirOf(values.data, env);
  // Opening a store creates the directory; a mistyped --data should fail, not export an empty catalogue.
  if (!existsSync(join(dataDir, LOG_FILE))) {
    throw new MinihubError('BAD_REQUEST', `no catalogue in ${dataDir} (expected ${join(dataDir, LOG_FILE)}); nothing to export`);
  }
  // The file is written after the store is closed, so the lock is held only while reading.
  const { records, tokens } = await withStore(dataDir, async (store) => ({
    records: store.export(),
    tokens: [...store.catalogue.urnsOfType('dataHubAccessToken')].length,
  }));
  const text = mcpFileText(records);
  if (values.out === undefined) {
    process.stdout.write(text);
    process.stderr.write(`${summary(records, tokens, 'stdout')}\n`);
  } else {
    writeAtomically(values.out, text);
    process.stdout.write(`${summary(records, tokens, values.out)}\n`);
  }
  return 0;
}

function summary(records: readonly McpRecord[], tokens: number, where: string): string {
  const perType = new Map<string, Set<string>>();
  for (const { entityType, entityUrn } of records) {
    let urns = perType.get(entityType);
    if (urns === undefined) perType.set(entityType, (urns = new Set()));
    urns.add(entityUrn);
  }
  const entities = [...perType.values()].reduce((sum, urns) => sum + urns.size, 0);
  const counts = [...perType].map(([type, urns]) => `${type} ${urns.size}`).join(', ');
  const left = tokens === 0 ? '' : `; ${plural(tokens, 'access token')} left out (never exported)`;
  return `exported ${records.length} aspects of ${entities} entities to ${where}${counts === '' ? '' : ` (${counts})`}${left}`;
}

// A temp file beside the target, synced and renamed over it: a reader never sees half a file, and a
// failure leaves any earlier export in place.
function writeAtomically(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    const { code } = error as NodeJS.ErrnoException;
    const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new MinihubError('BAD_REQUEST', `cannot write ${path}: ${why}`, { cause: error });
  }
}
