// The fixture over HTTP, for test suites that start minihub as a process: POST /api/admin/reset (back to the
// seeds), GET /api/admin/snapshot (the catalogue as the MCP file `minihub export` writes, streamed) and POST
// /api/admin/restore (the catalogue replaced by an MCP file). Admin only; reset and restore only on a memory
// store (`serve --memory`), so a catalogue on disk is never wiped over HTTP. Pure of node:http.

import type { JsonValue } from '../aspects/json.ts';
import { roleOf, UNAUTHORIZED_MESSAGE } from '../auth/privileges.ts';
import type { TokenService } from '../auth/tokens.ts';
import { ROOT_USER } from '../auth/users.ts';
import { parseDataHubFile } from '../datahub/datahub-file.ts';
import { exportedRecords, mcpFileChunks } from '../datahub/export.ts';
import { withoutSecrets } from '../datahub/secrets.ts';
import { parsedChanges } from '../datahub/ingest.ts';
import { MinihubError, shown } from '../errors.ts';
import type { Limits } from '../limits.ts';
import type { Store } from '../store/store.ts';
import { authenticate } from './bearer.ts';
import { HttpError, jsonAnswer, pathOf, type HttpAnswer, type HttpRequest } from './exchange.ts';
import { readJsonText } from './json-body.ts';

export const ADMIN_PREFIX = '/api/admin/';

/** A restore body may be a whole catalogue: far above the usual body limit, but still bounded. */
export const RESTORE_MAX_BYTES = 256 * 1024 * 1024;

export interface AdminOptions {
  store: Store;
  tokens: TokenService;
  auth: boolean;
  limits: Limits;
  /** Back to the seeded state (Minihub.reset()); without it, reset empties the catalogue. */
  resetToSeed?: () => Promise<void>;
}

type Endpoint = { method: 'GET' | 'POST'; run: (request: HttpRequest) => Promise<HttpAnswer> };

export function createAdminHandler(options: AdminOptions): (request: HttpRequest) => Promise<HttpAnswer> {
  const { store, tokens, auth, limits } = options;
  const replacing = (what: string) => {
    if (store.location === 'memory') return;
    throw new HttpError(
      403,
      `${what} replaces the whole catalogue, which minihub allows only on a server started with --memory; ` +
        `this one keeps its catalogue in ${shown(store.location)}`,
    );
  };
  const endpoints: Record<string, Endpoint> = {
    reset: {
      method: 'POST',
      run: async () => {
        replacing('POST /api/admin/reset');
        await (options.resetToSeed?.() ?? store.resetTo([]));
        return jsonAnswer(200, { reset: true, entities: store.catalogue.entityCount });
      },
    },
    snapshot: {
      method: 'GET',
      run: async () => {
        // A copy of the entity list, taken at once (commits apply synchronously): the stream then serialises
        // one consistent state however long the client takes, while writes go on. Values are never changed
        // in place, only replaced, so sharing them is safe.
        const copy = [...store.catalogue.entities()].map(([urn, aspects]): [string, ReadonlyMap<string, JsonValue>] => [
          urn,
          new Map(aspects),
        ]);
        // Secrets stay, as over REST and in a push: password hashes and DataHub secret values never leave.
        const records = withoutSecrets(exportedRecords({ entities: () => copy }), new Map());
        return {
          status: 200,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Disposition': 'attachment; filename="minihub-snapshot.json"',
            'Cache-Control': 'no-store',
          },
          body: null,
          stream: mcpFileChunks(records),
        };
      },
    },
    restore: {
      method: 'POST',
      run: async (request) => {
        replacing('POST /api/admin/restore');
        const text = await readJsonText(request, Math.max(limits.maxBodyBytes, RESTORE_MAX_BYTES));
        const parsed = badFile(() => parseDataHubFile(text, 'the body'));
        if (parsed.rejected.length > 0) {
          const listed = parsed.rejected.slice(0, 3).map(({ record, reason }) => `record ${record}: ${reason}`);
          const more = parsed.rejected.length > 3 ? `; and ${parsed.rejected.length - 3} more` : '';
          throw new HttpError(
            422,
            `the catalogue was not replaced: ${parsed.rejected.length} of ${parsed.records} records cannot be read (${listed.join('; ')}${more})`,
          );
        }
        await store.resetTo(parsedChanges([parsed]));
        return jsonAnswer(200, {
          restored: true,
          records: parsed.records,
          entities: store.catalogue.entityCount,
        });
      },
    },
  };

  return async function handleAdmin(request) {
    const name = pathOf(request.url).slice(ADMIN_PREFIX.length);
    const endpoint = Object.hasOwn(endpoints, name) ? endpoints[name] : undefined;
    if (endpoint === undefined) {
      const known = Object.entries(endpoints).map(([path, { method }]) => `${method} ${ADMIN_PREFIX}${path}`);
      throw new HttpError(404, `no admin endpoint ${shown(name)}; minihub serves ${known.join(', ')}`);
    }
    if (request.method !== endpoint.method) {
      throw new HttpError(405, `${request.method} is not supported here; use ${endpoint.method}`, {
        Allow: endpoint.method,
      });
    }
    const user = auth ? authenticate(tokens, request.headers.authorization) : ROOT_USER;
    if (roleOf(store.catalogue, user) !== 'Admin') throw new HttpError(403, UNAUTHORIZED_MESSAGE);
    return endpoint.run(request);
  };
}

// A body that is not a DataHub file at all (not JSON, not an array or JSON lines) is a 400.
function badFile<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof MinihubError)) throw error;
    throw new HttpError(400, `the body is not a DataHub file: ${error.message}`);
  }
}
