// `minihub export [--out FILE]`: writes a data directory's whole catalogue as a DataHub MCP file, to
// stdout (JSON only; the summary goes to stderr) or atomically to FILE, record by record so a catalogue
// of any size exports. Never creates a data directory.

import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { MinihubError } from '../errors.ts';
import type { ChunkSink } from '../store/chunked-writer.ts';
import { exportedRecordsOf, writeMcpFile, type McpRecord } from '../datahub/export.ts';
import { LOG_FILE } from '../store/file-log.ts';
import { EXPORT_HELP } from './help.ts';
import { plural } from './report.ts';
import { dataDirOf, parse } from './options.ts';
import type { CliIo, CliStream } from './io.ts';
import { withLog } from './with-store.ts';

export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    { data: { type: 'string' }, out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.stdout.write(EXPORT_HELP);
    return 0;
  }
  if (positionals.length > 0)
    throw new MinihubError('USAGE', `export takes no arguments, got "${positionals.join(' ')}"; use --out FILE`);
  if (values.out === '') throw new MinihubError('USAGE', '--out needs a file name');
  const out = values.out;
  const dataDir = dataDirOf(values.data, io.env);
  // A mistyped --data fails here, in words about exporting, before the directory is locked and read.
  if (!existsSync(join(dataDir, LOG_FILE))) {
    throw new MinihubError(
      'BAD_REQUEST',
      `no catalogue in ${dataDir} (expected ${join(dataDir, LOG_FILE)}); nothing to export`,
    );
  }
  // The records are read from the log as they are written, so the directory stays locked until the last
  // byte is out: nothing can change it meanwhile. Only where each value is is held, never the values.
  await withLog(io, dataDir, async ({ index, path, warn }) => {
    const tail = index.read.tail.length;
    if (tail > 0)
      warn(`${path}: the last line is incomplete (${tail} bytes, a write cut short by a crash); not exported`);
    const counts = new EntityCounts();
    const records = counts.counting(exportedRecordsOf(index.entities()));
    const tokens = [...index.urnsOfType('dataHubAccessToken')].length;
    if (out === undefined) {
      await writeToStream(io.stdout, (sink) => writeMcpFile(records, sink));
      io.stderr.write(`${counts.summary(tokens, 'stdout')}\n`);
    } else {
      await writeAtomically(out, (sink) => writeMcpFile(records, sink));
      io.stdout.write(`${counts.summary(tokens, out)}\n`);
    }
  });
  return 0;
}

/** Counts records and entities per type as they pass (an entity's records come together). */
class EntityCounts {
  #records = 0;
  #lastUrn: string | null = null;
  readonly #perType = new Map<string, number>();

  async *counting(records: AsyncIterable<McpRecord>): AsyncGenerator<McpRecord> {
    for await (const record of records) {
      this.#records++;
      if (record.entityUrn !== this.#lastUrn) {
        this.#lastUrn = record.entityUrn;
        this.#perType.set(record.entityType, (this.#perType.get(record.entityType) ?? 0) + 1);
      }
      yield record;
    }
  }

  summary(tokens: number, where: string): string {
    const entities = [...this.#perType.values()].reduce((sum, count) => sum + count, 0);
    const counts = [...this.#perType].map(([type, count]) => `${type} ${count}`).join(', ');
    const left = tokens === 0 ? '' : `; ${plural(tokens, 'access token')} left out (never exported)`;
    return `exported ${this.#records} aspects of ${entities} entities to ${where}${counts === '' ? '' : ` (${counts})`}${left}`;
  }
}

// Honours backpressure (a slow pipe reader holds the export back rather than filling memory), and a
// closed pipe becomes one line, not an unhandled 'error' event.
async function writeToStream(stream: CliStream, write: (sink: ChunkSink) => Promise<unknown>): Promise<void> {
  let failure: Error | null = null;
  const onError = (error: Error) => {
    failure ??= error;
  };
  stream.on('error', onError);
  try {
    await write(async (chunk) => {
      if (failure !== null) throw failure;
      if (!stream.write(chunk)) await once(stream, 'drain');
    });
  } catch (error) {
    if (error instanceof MinihubError) throw error;
    throw new MinihubError(
      'SERVER_ERROR',
      `cannot write the export to stdout: ${(error as Error).message}; use --out FILE`,
      { cause: error },
    );
  } finally {
    stream.off('error', onError);
  }
}

// A temp file beside the target, synced and renamed over it: a reader never sees half a file, and a
// failure leaves any earlier export in place.
async function writeAtomically(path: string, write: (sink: ChunkSink) => Promise<unknown>): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const file = await open(temp, 'wx', 0o644);
    try {
      await write(async (chunk) => {
        for (let done = 0; done < chunk.length;)
          done += (await file.write(chunk, done, chunk.length - done)).bytesWritten;
      });
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    if (error instanceof MinihubError) throw error;
    const { code } = error as NodeJS.ErrnoException;
    const why =
      code === 'ENOENT'
        ? 'its directory does not exist'
        : code === 'EISDIR'
          ? 'it is a directory'
          : (error as Error).message;
    throw new MinihubError('BAD_REQUEST', `cannot write ${path}: ${why}`, { cause: error });
  }
}
