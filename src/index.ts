// minihub as a library: startServer() runs the catalogue on a port and hands back its URL, a root
// token and reset()/close(); createRequestListener() gives the same catalogue as a listener to mount in
// another node:http server. It never reads argv or env, never exits and logs only through options.

import type { AddressInfo } from 'node:net';

import { createNodeServer, listen } from './http/node-server.ts';
import { resolveLimits } from './limits.ts';
import { openMinihub, SHUTDOWN_GRACE_MS, type Minihub, type ServerOptions } from './minihub.ts';

export { MinihubError } from './errors.ts';
export type { IngestReport, IngestSource } from './datahub/ingest.ts';
export { DEFAULT_LIMITS, type Limits } from './limits.ts';
export type { McpRecord } from './datahub/export.ts';
export type { ByteRange, LogFile, LogFileSystem } from './store/log-fs.ts';
export { PARALLEL_REPLAY_MIN_BYTES } from './store/replay.ts';
export { sampleCatalogue } from './package-files.ts';
export type { Store } from './store/store.ts';
export { SHUTDOWN_GRACE_MS, type Minihub, type ServerOptions } from './minihub.ts';

/**
 * A minihub listening on a port: what startServer() resolves to.
 * @example
 * const hub: RunningServer = await startServer();
 * console.log(hub.url, hub.graphqlUrl, hub.token);
 * await hub.close();
 */
export interface RunningServer extends Minihub {
  /** Base URL with the bound port, e.g. http://127.0.0.1:39123 */
  url: string;
  /** `${url}/api/graphql` */
  graphqlUrl: string;
  /**
   * Stops accepting connections, lets requests in flight finish (up to SHUTDOWN_GRACE_MS), drops every
   * socket, makes every acknowledged write durable and releases the data directory. Resolves only once
   * the port is free. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * Starts minihub on a port: by default a free port on 127.0.0.1, a memory store and tokens on.
 * Silent unless `logRequest` or `log` is given.
 * @example
 * import { startServer } from 'minihub';
 *
 * const hub = await startServer({ seed: ['data/sample-catalogue.json'] });
 * const response = await fetch(hub.graphqlUrl, {
 *   method: 'POST',
 *   headers: { Authorization: `Bearer ${hub.token}`, 'Content-Type': 'application/json' },
 *   body: JSON.stringify({ query: '{ me { corpUser { username } } }' }),
 * });
 * await hub.reset(); // back to the seed, between tests
 * await hub.close(); // the port is free when this resolves
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const { port = 0, host = '127.0.0.1' } = options;
  const limits = resolveLimits(options.limits);
  const core = await openMinihub(options, limits);
  const { hub } = core;
  const server = createNodeServer(limits, hub.listener);
  try {
    await listen(server, port, host);
  } catch (error) {
    await hub.close();
    throw error;
  }
  const { port: boundPort } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
  let closing: Promise<void> | undefined;
  return {
    ...hub,
    url,
    graphqlUrl: `${url}/api/graphql`,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await core.inFlight.drained(SHUTDOWN_GRACE_MS);
        // Whatever is still open after the grace period is dropped, so the port is free when close() resolves.
        server.closeAllConnections();
        await stopped;
        await hub.close();
      })();
      return closing;
    },
  };
}

/**
 * Opens minihub's catalogue and returns a `node:http` request listener for it, to mount minihub inside
 * another server (one port for your app and a stand-in DataHub). Takes the options of startServer()
 * except `port` and `host`. The host server owns the sockets: the connection limits and timeouts in
 * `limits` (requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, maxConnections) are its to set;
 * the body and document limits apply here. Call close() when the host server has stopped.
 * @example
 * import { createServer } from 'node:http';
 * import { createRequestListener } from 'minihub';
 *
 * const minihub = await createRequestListener({ seed: ['data/sample-catalogue.json'] });
 * const host = createServer((req, res) => {
 *   if (req.url === '/app') res.end('my app');
 *   else minihub.listener(req, res); // /api/graphql, /api/graphiql, /health, /config
 * });
 * host.listen(3000);
 * // later: host.close(); await minihub.close();
 */
export async function createRequestListener(options: Omit<ServerOptions, 'port' | 'host'> = {}): Promise<Minihub> {
  const { hub } = await openMinihub(options, resolveLimits(options.limits));
  return hub;
}
