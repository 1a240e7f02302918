// `minihub serve`: starts the server, prints the banner and request lines, and hands the running server to
// io.serving (the process closes it on SIGINT/SIGTERM); it installs no handler of the process's itself.

import type { RunningServer, ServerOptions } from '../index.ts';
import { SERVE_HELP } from './help.ts';
import type { CliIo } from './io.ts';
import {
  dataDirOf,
  DEFAULT_DATA_DIR,
  hostOf,
  parse,
  parseCorsOrigins,
  parseLimits,
  parsePort,
  refuseTogether,
} from './options.ts';
import { runsFromSources } from '../worker-entry.ts';
import { describeReport, plural } from './report.ts';

export async function serve(args: string[], io: CliIo): Promise<number | 'running'> {
  const { values } = parse(
    args,
    {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      data: { type: 'string' },
      memory: { type: 'boolean' },
      seed: { type: 'string', multiple: true },
      'no-auth': { type: 'boolean' },
      'new-signing-key': { type: 'boolean' },
      'cors-origin': { type: 'string', multiple: true },
      'max-body-bytes': { type: 'string' },
      limit: { type: 'string', multiple: true },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
    false,
  );
  if (values.help) {
    io.stdout.write(SERVE_HELP);
    return 0;
  }
  refuseTogether(
    values,
    'memory',
    ['data', 'new-signing-key'],
    'a memory catalogue has no data directory and signs with a fresh key each start',
  );
  const auth = !values['no-auth'];
  // Every option is checked before the server's code is loaded, so a mistyped one is refused quickly.
  const options: ServerOptions = {
    port: parsePort(values.port, io.env),
    host: hostOf(values.host, io.env),
    dataDir: values.memory ? null : dataDirOf(values.data, io.env),
    newSigningKey: values['new-signing-key'],
    seed: values.seed ?? [],
    auth,
    limits: parseLimits(values.limit ?? [], values['max-body-bytes']),
    corsOrigins: parseCorsOrigins(values['cors-origin'] ?? []),
    logRequest: values.quiet ? undefined : (line) => io.stdout.write(`${line}\n`),
    log: (message) => io.stderr.write(`minihub: ${message}\n`),
  };
  const { startServer } = await import('../index.ts');
  const started = performance.now();
  const hub = await startServer(options);
  // Told before the banner is out: a tool that waits for the banner may stop us at once.
  io.serving?.(hub);
  io.stdout.write(banner(hub, auth, values.seed ?? [], performance.now() - started, options.dataDir ?? null));
  return 'running';
}

// Below this, how long the start took is not worth a word.
const SLOW_START_MS = 1000;

// How this user runs minihub again: the sources run through tsx in a checkout, the compiled dist/ of an
// installed package through its bin, and a hint naming the other would not work where it is read.
const SELF = runsFromSources(import.meta.url) ? 'npx tsx src/cli.ts' : 'npx minihub';

/** Where a token outliving this server comes from: the data directory's own key, so never a memory catalogue. */
function lastingTokensHint(dataDir: string | null): string {
  if (dataDir === null) return 'Lasting tokens need a data directory: serve with --data DIR instead of --memory.';
  const data =
    dataDir === DEFAULT_DATA_DIR ? '' : ` --data ${/^[\w./-]+$/.test(dataDir) ? dataDir : shellQuote(dataDir)}`;
  return `Lasting tokens: stop the server, then run "${SELF} token create --user datahub${data}".`;
}

function banner(hub: RunningServer, auth: boolean, seeds: string[], startMs: number, dataDir: string | null): string {
  const lines = [`minihub listening on ${hub.url}`];
  const { store } = hub;
  const took =
    startMs < SLOW_START_MS
      ? ''
      : `; ready in ${(startMs / 1000).toFixed(1)} s${store.replayedInWorker ? ', the log replayed on two threads' : ''}`;
  lines.push(
    store.location === 'memory'
      ? '  store   in memory: nothing is written to disk'
      : `  store   ${store.location} (${plural(store.recordCount, 'record')}, ${plural(store.catalogue.entityCount, 'entity', 'entities')}${took})`,
  );
  if (hub.seedResumed)
    lines.push('  seed    resumed: an earlier start stopped while seeding; this one completed the seed');
  for (const report of hub.seeded) lines.push(`  seeded  ${describeReport(report)}`);
  if (seeds.length > 0 && hub.seeded.length === 0)
    lines.push('  seed    skipped: the data directory already holds a catalogue');
  const query = sampleQuery(hub);
  const headers = auth ? `-H ${shellQuote(`Authorization: Bearer ${hub.token}`)} ` : '';
  if (auth) {
    lines.push('  auth    on. A token for the root user "datahub", valid until this server stops:');
    lines.push(`          ${hub.token}`);
    lines.push(`          ${lastingTokensHint(dataDir)}`);
  } else {
    lines.push('  auth    OFF (--no-auth): every request acts as the root user "datahub"');
  }
  lines.push(
    `  try     curl -s ${hub.graphqlUrl} ${headers}-H 'Content-Type: application/json' -d ${shellQuote(JSON.stringify({ query }))}`,
  );
  return lines.join('\n') + '\n';
}

/** A query that shows something real: the first dataset's description, else who you are. */
function sampleQuery(hub: RunningServer): string {
  for (const urn of hub.store.catalogue.urnsOfType('dataset')) {
    return `{ dataset(urn: ${JSON.stringify(urn)}) { properties { description } } }`;
  }
  return '{ me { corpUser { username } } }';
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
