// `minihub push --to URL`: sends a data directory's catalogue (or what changed --since a time) to a DataHub
// GMS, or another minihub, as ingestProposalBatch requests; a progress line on stderr, the summary on
// stdout. Secrets never leave (datahub/secrets.ts). Holds the data directory, as export does.

import { exportedRecords } from '../datahub/export.ts';
import { withoutSecrets, type LeftOut } from '../datahub/secrets.ts';
import { MinihubError } from '../errors.ts';
import { DEFAULT_BATCH, type PushRecord } from '../push/batches.ts';
import { push, type PushCounts } from '../push/push.ts';
import { changedSince, parseSince } from '../push/since.ts';
import { nodeLogFileSystem } from '../store/node-log-fs.ts';
import { PUSH_HELP } from './help.ts';
import { dataDirOf, parse, parsePositiveInteger, quoted } from './options.ts';
import { plural } from './report.ts';
import type { CliIo, CliStream } from './io.ts';
import { withStore } from './with-store.ts';

const DEFAULT_RETRIES = 3;
const PROGRESS_INTERVAL_MS = 1000;

export async function pushCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      to: { type: 'string' },
      token: { type: 'string' },
      since: { type: 'string' },
      data: { type: 'string' },
      batch: { type: 'string' },
      retries: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(PUSH_HELP);
    return 0;
  }
  if (positionals.length > 0)
    throw new MinihubError('USAGE', `push takes no arguments, got "${positionals.join(' ')}"; use --to URL`);
  const url = targetUrl(values.to);
  const batch = values.batch === undefined ? DEFAULT_BATCH : parsePositiveInteger('--batch', values.batch);
  const retries = values.retries === undefined ? DEFAULT_RETRIES : retriesOf(values.retries);
  const started = Date.now();
  const since = values.since === undefined ? null : parseSince(values.since, started);
  // An empty --token is a mistake (an unset variable), not "no token".
  if (values.token === '') throw new MinihubError('USAGE', '--token is empty; give the token, or leave the flag out');
  const token = values.token ?? (io.env.MINIHUB_TOKEN || undefined) ?? (io.env.DATAHUB_GMS_TOKEN || undefined);
  const run = { lastObserved: started, runId: `minihub-push-${new Date(started).toISOString()}` };

  await withStore(io, dataDirOf(values.data, io.env), async (store) => {
    const leftOut: LeftOut = new Map();
    let total: number;
    let records: () => Iterable<PushRecord>;
    if (since === null) {
      // export.ts leaves the access tokens out before withoutSecrets() sees them: counted here.
      const tokens = [...store.catalogue.urnsOfType('dataHubAccessToken')].length;
      if (tokens > 0) leftOut.set('access token', tokens);
      const all = () => withoutSecrets(exportedRecords(store.catalogue), new Map());
      total = count(all());
      records = () => withoutSecrets(exportedRecords(store.catalogue), leftOut);
    } else {
      const { records: changed, compactedAt } = await changedSince(
        nodeLogFileSystem,
        store.location,
        store.catalogue,
        since,
      );
      if (compactedAt !== null)
        io.stderr.write(
          `minihub: the log was compacted at ${new Date(compactedAt).toISOString()}, after --since: what was removed between them is no longer known and is not sent as DELETEs\n`,
        );
      const kept = [...withoutSecrets(changed, leftOut)];
      total = kept.length;
      records = () => kept;
    }
    const what = since === null ? 'the catalogue' : `what changed since ${new Date(since).toISOString()}`;
    io.stdout.write(`pushing ${what} (${plural(total, 'aspect')}) to ${url}\n`);
    const progress = progressLine(total, io.stderr);
    const counts = await push(records(), { url, token, retries, batch, run, onProgress: progress.update });
    progress.done();
    io.stdout.write(`${summary(counts, url, run.runId, leftOut)}\n`);
  });
  return 0;
}

function targetUrl(value: string | undefined): string {
  if (value === undefined || value === '')
    throw new MinihubError('USAGE', 'push needs --to URL, the DataHub GMS (or minihub) to send to');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MinihubError('USAGE', `--to ${quoted(value)} is not a URL; expected http(s)://host[:port][/path]`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new MinihubError('USAGE', `--to ${quoted(value)} is not an http or https URL`);
  if (url.search !== '' || url.hash !== '')
    throw new MinihubError('USAGE', `--to ${quoted(value)} has a query or fragment; give the server's base URL`);
  return url.href.replace(/\/+$/, '');
}

function retriesOf(value: string): number {
  if (!/^\d+$/.test(value)) throw new MinihubError('USAGE', `--retries ${value} is not a whole number`);
  return Number(value);
}

function count(records: Iterable<unknown>): number {
  let total = 0;
  for (const _ of records) total++;
  return total;
}

/** At most one progress line a second on stderr; a terminal gets it rewritten in place. */
function progressLine(total: number, stderr: CliStream): { update: (counts: PushCounts) => void; done: () => void } {
  const tty = stderr.isTTY === true;
  let last = performance.now();
  let shown = false;
  return {
    update(counts) {
      const at = performance.now();
      if (at - last < PROGRESS_INTERVAL_MS || counts.aspects >= total) return;
      last = at;
      shown = true;
      const rate = Math.round(counts.aspects / (counts.elapsedMs / 1000));
      const line = `  ${counts.aspects} of ${total} aspects sent (${Math.floor((100 * counts.aspects) / total)}%), ${rate} aspects/s`;
      stderr.write(tty ? `\r${line}\u001b[K` : `${line}\n`);
    },
    done() {
      if (tty && shown) stderr.write('\n');
    },
  };
}

function summary(counts: PushCounts, url: string, runId: string, leftOut: LeftOut): string {
  const seconds = counts.elapsedMs / 1000;
  const rate = seconds > 0 ? `, ${Math.round(counts.aspects / seconds)} aspects/s` : '';
  const retried = counts.retried === 0 ? '' : `, ${plural(counts.retried, 'request')} retried`;
  const kinds = [...leftOut].map(([kind, n]) => plural(n, kind));
  const left = kinds.length === 0 ? '' : `; left out (never pushed): ${kinds.join(', ')}`;
  return (
    `pushed ${plural(counts.aspects, 'aspect')} of ${plural(counts.entities, 'entity', 'entities')} in ` +
    `${plural(counts.batches, 'batch', 'batches')} to ${url} in ${seconds.toFixed(1)} s${rate}${retried} ` +
    `(run id ${runId})${left}`
  );
}
