// `minihub token create | list | revoke`: the token lifecycle from the command line, acting as the
// root user on a data directory no server is using. `create` prints only the token.

import { loadSigningKey } from '../auth/signing-key.ts';
import { listTokens, TokenService, type TokenMetadata } from '../auth/tokens.ts';
import { ROOT_USER } from '../auth/users.ts';
import { MinihubError } from '../errors.ts';
import { urnId } from '../aspects/read.ts';
import { corpUserUrn } from '../urn.ts';
import { TOKEN_HELP } from './help.ts';
import { dataDirOf, parse, parseLifetime, quoted, refuseFlagsOutside } from './options.ts';
import type { CliIo } from './io.ts';
import { withStore } from './with-store.ts';

export async function tokenCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      user: { type: 'string' },
      name: { type: 'string' },
      expires: { type: 'string' },
      data: { type: 'string' },
      create: { type: 'boolean' },
      'new-signing-key': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help || positionals.length === 0) {
    io.stdout.write(TOKEN_HELP);
    return values.help ? 0 : 2;
  }
  const [action, ...rest] = positionals;
  const dataDir = dataDirOf(values.data, io.env);
  const storeOptions = { create: values.create, offerCreate: true };
  const withTokens = <T>(run: (tokens: TokenService) => Promise<T>) =>
    withStore(
      io,
      dataDir,
      (store) =>
        run(
          new TokenService(
            loadSigningKey(dataDir, { catalogue: store.catalogue, replaceMissing: values['new-signing-key'] }),
            store,
          ),
        ),
      storeOptions,
    );

  if (action === 'create') {
    refuseFlagsOutside(values, ['user', 'name', 'expires', 'data', 'create', 'new-signing-key'], 'token create');
    // The lifetime first: "--expires 3 weeks" leaves "weeks" behind, and the lifetime is what is wrong.
    const lifetimeMs = parseLifetime(values.expires ?? '30d');
    if (rest.length > 0)
      throw new MinihubError(
        'USAGE',
        `token create takes no arguments, got ${quoted(rest.join(' '))}; options are --user, --name, --expires`,
      );
    if (values.user === undefined) throw new MinihubError('USAGE', 'token create needs --user NAME');
    const username = values.user;
    const issued = await withTokens((tokens) =>
      tokens.createPersonalToken({
        username,
        name: values.name ?? 'minihub cli token',
        lifetimeMs,
        requestedBy: corpUserUrn(ROOT_USER),
      }),
    );
    io.stdout.write(`${issued.token}\n`);
    return 0;
  }
  if (action === 'list') {
    refuseFlagsOutside(values, ['user', 'data', 'create'], 'token list');
    if (rest.length > 0)
      throw new MinihubError(
        'USAGE',
        `token list takes no arguments, got ${quoted(rest.join(' '))}; --user NAME shows one user's tokens`,
      );
    // Listing needs no signing key, so it never makes one.
    const list = await withStore(io, dataDir, async (store) => listTokens(store.catalogue), storeOptions);
    const shown =
      values.user === undefined ? list : list.filter((token) => token.actorUrn === corpUserUrn(values.user as string));
    io.stdout.write(formatTokens(shown));
    return 0;
  }
  if (action === 'revoke') {
    refuseFlagsOutside(values, ['data', 'create', 'new-signing-key'], 'token revoke');
    if (rest.length !== 1) {
      throw new MinihubError(
        'USAGE',
        rest.length === 0
          ? 'token revoke needs the ID of a token; "minihub token list" shows them'
          : `token revoke takes one ID, got ${rest.length}: ${quoted(rest.join(' '))}`,
      );
    }
    const id = rest[0] as string;
    await withTokens((tokens) => tokens.revoke(id, corpUserUrn(ROOT_USER)));
    io.stdout.write(`revoked ${id}\n`);
    return 0;
  }
  throw new MinihubError(
    'USAGE',
    `unknown token command ${quoted(positionals.join(' '))}; expected create, list or revoke ID`,
  );
}

function formatTokens(tokens: TokenMetadata[]): string {
  if (tokens.length === 0) return 'no access tokens\n';
  const date = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z'));
  const rows = tokens.map((token) => [
    token.id,
    urnId(token.actorUrn),
    token.name,
    date(token.createdAt),
    date(token.expiresAt),
  ]);
  const header = ['ID', 'USER', 'NAME', 'CREATED', 'EXPIRES'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] as number))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
