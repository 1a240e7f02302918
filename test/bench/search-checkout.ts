// One checkout's GraphQL handler over a search-load.ts catalogue, loaded from that checkout's own sources, so
// two checkouts can answer side by side in one process (search-ab.ts) or one alone (search-in-process.ts).
// Opens (and locks) the directory; no sockets.

import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const from = <T>(root: string, path: string): Promise<T> =>
  import(pathToFileURL(resolve(root, path)).href) as Promise<T>;

export interface SearchCheckout {
  /** The answer's body to a POST of `body` to /api/graphql. */
  ask(body: string): Promise<string>;
  close(): Promise<void>;
}

/** The checkout at `root` (its modules load apart from any other's, with their own state) over `dir`. */
export async function searchCheckout(root: string, dir: string): Promise<SearchCheckout> {
  await from(root, 'src/cli/production-mode.ts');
  const { TokenService } = await from<typeof import('../../src/auth/tokens.ts')>(root, 'src/auth/tokens.ts');
  const { loadSigningKey } = await from<typeof import('../../src/auth/signing-key.ts')>(
    root,
    'src/auth/signing-key.ts',
  );
  const { bufferedBody } = await from<typeof import('../../src/http/body.ts')>(root, 'src/http/body.ts');
  const { createRoutes } = await from<typeof import('../../src/http/routes.ts')>(root, 'src/http/routes.ts');
  const { resolveLimits } = await from<typeof import('../../src/limits.ts')>(root, 'src/limits.ts');
  const { Store } = await from<typeof import('../../src/store/store.ts')>(root, 'src/store/store.ts');
  const dataDir = join(dir, 'data');
  const store = await Store.open({ dataDir });
  const routes = createRoutes({
    store,
    tokens: new TokenService(loadSigningKey(dataDir), store),
    auth: false,
    limits: resolveLimits({}),
    version: 'bench',
    resetToSeed: () => Promise.resolve(),
    logError: (error) => console.error(error),
  });
  return {
    async ask(body: string): Promise<string> {
      const answer = await routes({
        method: 'POST',
        url: '/api/graphql',
        headers: { 'content-type': 'application/json' },
        body: bufferedBody(Buffer.from(body)),
      });
      return answer.body?.toString('utf8') ?? '';
    },
    close: () => store.close(),
  };
}
