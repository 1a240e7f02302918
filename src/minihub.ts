// One minihub opened: the store, its seeds, the token service and the request listener, with what is in
// flight; what startServer() and createRequestListener() share. It binds no port and reads no argv or env.

import type { RequestListener } from 'node:http';

import { loadSigningKey } from './auth/signing-key.ts';
import { TokenService } from './auth/tokens.ts';
import { ROOT_USER } from './auth/users.ts';
import { parsedChanges, type IngestReport, type IngestSource } from './datahub/ingest.ts';
import { HttpError } from './http/exchange.ts';
import { InFlight } from './http/in-flight.ts';
import { sendHttpError } from './http/reply.ts';
import type { Limits } from './limits.ts';
import { seedCatalogue } from './seeding.ts';
import type { AspectChange } from './store/catalogue.ts';
import type { LogFileSystem } from './store/log-fs.ts';
import { Store } from './store/store.ts';
import { corpUserUrn } from './urn.ts';
import { VERSION } from './version.ts';

/**
 * How long close() lets requests already being answered finish before dropping them.
 * @example
 * const hub = await startServer();
 * const closed = hub.close(); // resolves within SHUTDOWN_GRACE_MS even if a client never finishes
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Options of startServer() and createRequestListener(); every one is optional.
 * @example
 * const options: ServerOptions = {
 *   dataDir: 'test-data',                 // persist (default: in memory)
 *   seed: ['data/sample-catalogue.json'], // DataHub files, or records: [{ entityType: 'tag', … }]
 *   auth: false,                          // every request acts as the root user "datahub"
 *   limits: { maxDepth: 30 },
 *   logRequest: (line) => console.log(line), // "POST /api/graphql 200 1.2ms"
 *   log: (message) => console.warn(message), // warnings and unexpected errors
 * };
 * const hub = await startServer(options);
 */
export interface ServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** Data directory for the durable log; null (the default) keeps everything in memory. */
  dataDir?: string | null;
  /** DataHub files (paths) or records to load into an empty catalogue at start, in order. */
  seed?: IngestSource[];
  /** Check bearer tokens (default true); false acts as the root user `datahub` for every request. */
  auth?: boolean;
  /** Limits on requests (body size, depth, timeouts, …); each unset one keeps its default from limits.ts. */
  limits?: Partial<Limits>;
  /**
   * Origins whose browser pages may call /api/graphql, e.g. `['http://localhost:3000']`, or `['*']` for any:
   * preflights from them get 204 and answers Access-Control-Allow-Origin. Default: none, no CORS at all.
   */
  corsOrigins?: string[];
  /** Receives one line per answered request, e.g. `POST /api/graphql 200 1.2ms`. Default: silent. */
  logRequest?: (line: string) => void;
  /**
   * Receives warnings (a torn log tail cut off, a stale lock taken over) and unexpected errors with their
   * stack, which clients never see. Default: silent. Request lines go to `logRequest`, not here.
   */
  log?: (message: string) => void;
  /** The log's file operations; fault-injection tests swap in failing ones. Default: node:fs. */
  fileSystem?: LogFileSystem;
  /**
   * Logs of at least this many bytes are replayed at start on two threads, the second half on a worker
   * thread; 0 always, Infinity never. Default PARALLEL_REPLAY_MIN_BYTES (32 MiB). Only with node:fs.
   */
  parallelReplayBytes?: number;
  /**
   * A data directory whose signing.key is gone while its catalogue holds live access tokens is refused
   * (a new key would make every one of them fail with 401); true makes a new key anyway. Default false.
   */
  newSigningKey?: boolean;
}

/**
 * minihub without a port, to mount inside another `node:http` server: what createRequestListener()
 * resolves to. startServer() builds on it, so both answer the same way.
 * @example
 * const minihub: Minihub = await createRequestListener({ auth: false });
 * const server = http.createServer(minihub.listener).listen(0);
 */
export interface Minihub {
  /**
   * Answers minihub's routes (`/api/graphql`, `/api/graphiql`, `/health`, `/config`) and a JSON 404 for
   * any other path, so a host routes its own paths first and hands minihub the rest.
   */
  listener: RequestListener;
  /** A token for the root user `datahub`, valid until close(); send it as `Authorization: Bearer <token>`. */
  token: string;
  /** What each seed added; empty when the data directory already held a catalogue. */
  seeded: IngestReport[];
  /**
   * True when this start completed a seed that an earlier start began and did not finish (it crashed or
   * was killed while seeding); `seeded` then tells what was still missing. A data directory with an
   * unfinished seed is refused unless given the same seeds again.
   */
  seedResumed: boolean;
  /** The catalogue itself: `store.export()` gives it as DataHub MCP records. */
  store: Store;
  /**
   * Issues a stored personal access token for an existing user, e.g. to test what a user may do.
   * `lifetimeMs` null (the default) never expires.
   */
  createToken(username: string, options?: { name?: string; lifetimeMs?: number | null }): Promise<string>;
  /**
   * Back to the seeded state, as the seeds were read at the start, without reading or parsing them
   * again: takes well under a millisecond for the sample. Memory stores only; a data directory
   * refuses, so a catalogue on disk is never wiped by accident.
   */
  reset(): Promise<void>;
  /**
   * Lets requests in flight finish (up to SHUTDOWN_GRACE_MS), makes every acknowledged write durable and
   * releases the data directory; later requests get a JSON 503. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** The one path both entry points take: store, seeds, tokens and the listener, plus what is in flight. */
export async function openMinihub(
  options: ServerOptions,
  limits: Limits,
): Promise<{ hub: Minihub; inFlight: InFlight }> {
  const {
    dataDir = null,
    seed = [],
    auth = true,
    logRequest,
    log = () => {},
    fileSystem,
    parallelReplayBytes,
  } = options;
  // The HTTP and GraphQL code loads while the log replays (from the sources, through tsx, it takes about
  // 0.2 s): a large log's replay worker starts that much sooner. Awaited below; until then, no unhandled failure.
  const adapterLoaded = import('./http/node-adapter.ts');
  adapterLoaded.catch(() => {});
  const store = await Store.open({ dataDir, warn: log, fileSystem, parallelReplayBytes });
  try {
    const { createNodeAdapter } = await adapterLoaded;
    const tokens = new TokenService(
      loadSigningKey(dataDir, { catalogue: store.catalogue, replaceMissing: options.newSigningKey }),
      store,
    );
    // Seeds fill an empty catalogue, or complete a seed that a crash interrupted (seeding.ts); a data
    // directory that holds a catalogue keeps its changes. Each seed is read and parsed once; reset() goes
    // back to these parses, so it costs no file read or JSON parse.
    const {
      parsed: seeds,
      reports: seeded,
      resumed: seedResumed,
    } = await seedCatalogue(store, dataDir, seed, corpUserUrn(ROOT_USER));
    let seedState: readonly AspectChange[] | undefined;
    const answer = createNodeAdapter({
      store,
      tokens,
      auth,
      limits,
      version: VERSION,
      corsOrigins: options.corsOrigins,
      resetToSeed: () => hub.reset(),
      logRequest,
      logError: (error) => log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
    const inFlight = new InFlight();
    let closed = false;
    let closing: Promise<void> | undefined;
    const hub: Minihub = {
      listener(req, res) {
        if (closed) {
          sendHttpError(res, new HttpError(503, 'this minihub is closed', { Connection: 'close' }));
          return;
        }
        inFlight.track(res);
        answer(req, res);
      },
      token: tokens.createSessionToken(ROOT_USER),
      seeded,
      seedResumed,
      store,
      async createToken(username, { name = 'minihub library token', lifetimeMs = null } = {}) {
        const issued = await tokens.createPersonalToken({
          username,
          name,
          lifetimeMs,
          requestedBy: corpUserUrn(ROOT_USER),
        });
        return issued.token;
      },
      reset() {
        // The catalogue keeps the values it is given and writes replace rather than change them; frozen,
        // a write that changed one in place would throw instead of quietly altering every later reset.
        seedState ??= deepFreeze(parsedChanges(seeds.map(({ parsed }) => parsed)));
        return store.resetTo(seedState);
      },
      close() {
        closing ??= (async () => {
          await inFlight.drained(SHUTDOWN_GRACE_MS);
          closed = true;
          await store.close();
        })();
        return closing;
      },
    };
    return { hub, inFlight };
  } catch (error) {
    await store.close();
    throw error;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
