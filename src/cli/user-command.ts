// `minihub user add | list | role`: users and their roles in a data directory no server is using.

import { addUserChanges, listUsers, parseRole, ROOT_USER, setRoleChanges } from '../auth/users.ts';
import { MinihubError } from '../errors.ts';
import { corpUserUrn } from '../urn.ts';
import { USER_HELP } from './help.ts';
import { dataDirOf, parse, quoted, refuseFlagsOutside } from './options.ts';
import type { CliIo } from './io.ts';
import { withStore } from './with-store.ts';

export async function userCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      role: { type: 'string' },
      data: { type: 'string' },
      create: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help || positionals.length === 0) {
    io.stdout.write(USER_HELP);
    return values.help ? 0 : 2;
  }
  const [action, ...rest] = positionals;
  const dataDir = dataDirOf(values.data, io.env);
  const root = corpUserUrn(ROOT_USER);
  const storeOptions = { create: values.create, offerCreate: true };

  if (action === 'add') {
    refuseFlagsOutside(values, ['role', 'data', 'create'], 'user add');
    expectArguments('user add', rest, ['NAME']);
    const username = rest[0] as string;
    const role = parseRole(values.role ?? 'none');
    await withStore(
      io,
      dataDir,
      (store) => store.commit('addUser', root, (reader) => addUserChanges(reader, username, role)),
      storeOptions,
    );
    io.stdout.write(`added user ${username}${role === null ? ' (no role)' : ` with role ${role}`}\n`);
    return 0;
  }
  if (action === 'role') {
    refuseFlagsOutside(values, ['data', 'create'], 'user role');
    expectArguments('user role', rest, ['NAME', 'ROLE']);
    const [username, roleText] = rest as [string, string];
    const role = parseRole(roleText);
    await withStore(
      io,
      dataDir,
      (store) => store.commit('setRole', root, (reader) => setRoleChanges(reader, username, role)),
      storeOptions,
    );
    io.stdout.write(`user ${username} now has ${role === null ? 'no role' : `role ${role}`}\n`);
    return 0;
  }
  if (action === 'list') {
    refuseFlagsOutside(values, ['data', 'create'], 'user list');
    expectArguments('user list', rest, []);
    const users = await withStore(io, dataDir, async (store) => listUsers(store.catalogue), storeOptions);
    const width = Math.max(4, ...users.map((user) => user.username.length));
    const lines = users.map((user) =>
      `${user.username.padEnd(width)}  ${(user.role ?? '-').padEnd(6)}  ${user.displayName ?? ''}`.trimEnd(),
    );
    io.stdout.write([`${'USER'.padEnd(width)}  ROLE    NAME`, ...lines].join('\n') + '\n');
    return 0;
  }
  throw new MinihubError(
    'USAGE',
    `unknown user command ${quoted(positionals.join(' '))}; expected add NAME, role NAME ROLE or list`,
  );
}

/** Refuses a missing or extra argument, naming the ones expected: `user add` alone must not read as an unknown command. */
function expectArguments(command: string, given: string[], expected: string[]): void {
  if (given.length === expected.length) return;
  const usage = [command, ...expected].join(' ');
  throw new MinihubError(
    'USAGE',
    given.length < expected.length
      ? `${command} needs ${expected.slice(given.length).join(' and ')}: ${usage}`
      : `${command} takes ${expected.length === 0 ? 'no arguments' : expected.join(' ')}, got ${quoted(given.join(' '))}: ${usage}`,
  );
}
