// minihub as a library: startServer() runs the catalogue on a port and hands back its URL, a root
// token and reset()/close(). It never reads argv or env, never exits and logs only through options.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { loadSigningKey } from './auth/signing-key.ts';
import { TokenService } from './auth/tokens.ts';
import { ROOT_USER } from './auth/users.ts';
import { corpUserUrn } from './urn.ts';
import { createRequestListener } from './http/listener.ts';
import { ingest, type IngestReport, type IngestSource } from './ingest/ingest.ts';
import type { LogFileSystem } from './store/log-fs.ts';
import { Store } from './store/store.ts';
import { VERSION } from './version.ts';

export { MinihubError } from './errors.ts';
export type { IngestReport, IngestSource } from './ingest/ingest.ts';
export type { LogFile, LogFileSystem } from './store/log-fs.ts';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

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
  /** Largest accepted request body in bytes; default 1 MiB. */
  maxBodyBytes?: number;
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
  /** Stops listening, drops open connections and closes the store. */
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
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    logRequest,
    log = () => {},
    fileSystem,
  } = options;

  const store = await Store.open({ dataDir, warn: log, fileSystem });
  let server: Server | undefined;
  try {
    const tokens = new TokenService(loadSigningKey(dataDir), store);
    const seedAll = async () => {
      const reports: IngestReport[] = [];
      for (const source of seed) reports.push(await ingest(store, source, corpUserUrn(ROOT_USER)));
      return reports;
    };
    const seeded = store.catalogue.entityCount === 0 ? await seedAll() : [];
    const token = tokens.createSessionToken(ROOT_USER);

    server = createServer(
      createRequestListener({
        store,
        tokens,
        auth,
        maxBodyBytes,
        version: VERSION,
        logRequest,
        logError: (error) => log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      }),
    );
    await listen(server, port, host);
    const { port: boundPort } = server.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
    const running = server;
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
      async reset() {
        store.clear();
        await seedAll();
      },
      async close() {
        await new Promise<void>((resolve) => {
          running.close(() => resolve());
          running.closeAllConnections();
        });
        await store.close();
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
