// minihub as a library: startServer() runs the catalogue on a port and hands back its URL, a root
// token and reset()/close(). It never reads argv or env, never exits and logs only through options.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { loadSigningKey } from './auth/signing-key.ts';
import { TokenService } from './auth/tokens.ts';
import { ROOT_USER } from './auth/users.ts';
import { corpUserUrn } from './urn.ts';
import { answerClientError, answerExpectationFailed } from './http/client-error.ts';
import { createRequestListener } from './http/listener.ts';
import { ingest, sourceChanges, type IngestReport, type IngestSource } from './ingest/ingest.ts';
import { resolveLimits, type Limits } from './limits.ts';
import type { LogFileSystem } from './store/log-fs.ts';
import { Store } from './store/store.ts';
import { VERSION } from './version.ts';

export { MinihubError } from './errors.ts';
export type { IngestReport, IngestSource } from './ingest/ingest.ts';
export { DEFAULT_LIMITS, type Limits } from './limits.ts';
export type { LogFile, LogFileSystem } from './store/log-fs.ts';

/** How long close() lets requests already being answered finish before dropping them. */
export const SHUTDOWN_GRACE_MS = 10_000;

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
  /** Receives one line per answered request. Default: silent. */
  logRequest?: (line: string) => void;
  /** Receives warnings and unexpected errors. Default: silent. */
  log?: (message: string) => void;
  /** The log's file operations; fault-injection tests swap in failing ones. Default: node:fs. */
  fileSystem?: LogFileSystem;
}

export interface RunningServer {
  /** Base URL with the bound port, e.g. http://127.0.0.1:39123 */
  url: string;
  /** `${url}/api/graphql` */
  graphqlUrl: string;
  /** A token for the root user `datahub`, valid until close(); send it as `Authorization: Bearer <token>`. */
  token: string;
  /** What each seed added; empty when the data directory already held a catalogue. */
  seeded: IngestReport[];
  store: Store;
  /**
   * Issues a stored personal access token for an existing user, e.g. to test what a user may do.
   * `lifetimeMs` null (the default) never expires.
   */
  createToken(username: string, options?: { name?: string; lifetimeMs?: number | null }): Promise<string>;
  /** Back to the seeded state (memory stores only). */
  reset(): Promise<void>;
  /**
   * Stops accepting connections, lets requests in flight finish (up to SHUTDOWN_GRACE_MS), makes every
   * acknowledged write durable and releases the data directory. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * Starts minihub.
 * @example
 * const hub = await startServer({ seed: ['data/sample-catalogue.json'] });
 * await fetch(hub.graphqlUrl, { method: 'POST', headers: { Authorization: `Bearer ${hub.token}`,
 *   'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ me { corpUser { username } } }' }) });
 * await hub.close();
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const {
    port = 0,
    host = '127.0.0.1',
    dataDir = null,
    seed = [],
    auth = true,
    limits: limitOverrides,
    logRequest,
    log = () => {},
    fileSystem,
  } = options;

  const limits = resolveLimits(limitOverrides);
  const store = await Store.open({ dataDir, warn: log, fileSystem });
  let server: Server | undefined;
  try {
    const tokens = new TokenService(loadSigningKey(dataDir), store);
    // Seeds fill an empty catalogue only: a data directory that holds one keeps its changes.
    const seeded: IngestReport[] = [];
    if (store.catalogue.entityCount === 0) for (const source of seed) seeded.push(await ingest(store, source, corpUserUrn(ROOT_USER)));
    const token = tokens.createSessionToken(ROOT_USER);

    const listener = createRequestListener({
      store,
      tokens,
      auth,
      limits,
      version: VERSION,
      logRequest,
      logError: (error) => log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
    const inFlight = new InFlight();
    const requestTimeout = limits.requestTimeoutMs;
    server = createServer(
      {
        requestTimeout,
        // node:http refuses a headers timeout longer than the request timeout.
        headersTimeout: Math.min(limits.headersTimeoutMs, requestTimeout),
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        // Timeouts are enforced only when node:http checks, every this many ms.
        connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, requestTimeout) / 2))),
        // The listener refuses a missing Host itself, with a JSON body; node's refusal has none.
        requireHostHeader: false,
      },
      (req, res) => {
        inFlight.track(res);
        listener(req, res);
      },
    );
    server.maxConnections = limits.maxConnections;
    server.on('clientError', answerClientError);
    server.on('checkExpectation', answerExpectationFailed);
    await listen(server, port, host);
    const { port: boundPort } = server.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
    const running = server;
    let closing: Promise<void> | undefined;
    return {
      url,
      graphqlUrl: `${url}/api/graphql`,
      token,
      seeded,
      store,
      async createToken(username, { name = 'minihub library token', lifetimeMs = null } = {}) {
        const issued = await tokens.createPersonalToken({ username, name, lifetimeMs, requestedBy: corpUserUrn(ROOT_USER) });
        return issued.token;
      },
      reset() {
        return store.resetTo(sourceChanges(seed));
      },
      close() {
        closing ??= (async () => {
          const stopped = new Promise<void>((resolve) => running.close(() => resolve()));
          running.closeIdleConnections();
          await inFlight.drained(SHUTDOWN_GRACE_MS);
          running.closeAllConnections();
          await stopped;
          await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    server?.close();
    await store.close();
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Responses not yet finished, so close() can wait for them. */
class InFlight {
  readonly #open = new Set<ServerResponse>();
  #onEmpty: (() => void) | null = null;

  track(res: ServerResponse): void {
    this.#open.add(res);
    res.once('close', () => {
      this.#open.delete(res);
      if (this.#open.size === 0) this.#onEmpty?.();
    });
  }

  /** Resolves when no response is open, or after `timeoutMs`, whichever is first. */
  drained(timeoutMs: number): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#onEmpty = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
