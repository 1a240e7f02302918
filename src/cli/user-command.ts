// `minihub user add | list | role`: users and their roles in a data directory no server is using.

import { addUserChanges, listUsers, parseRole, ROOT_USER, setRoleChanges } from '../auth/users.ts';
import { MinihubError } from '../errors.ts';
import { corpUserUrn } from '../urn.ts';
import { USER_HELP } from './help.ts';
import { dataDirOf, parse } from './options.ts';
import { withStore } from './with-store.ts';

export async function userCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parse(
    args,
    { role: { type: 'string' }, data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help || positionals.length === 0) {
    process.stdout.write(USER_HELP);
    return values.help ? 0 : 2;
  }
  const [action, ...rest] = positionals;
  const dataDir = dataDirOf(values.data, env);
  const root = corpUserUrn(ROOT_USER);

  if (action === 'add' && rest.length === 1) {
    const username = rest[0] as string;
    const role = parseRole(values.role ?? 'none');
    await withStore(dataDir, (store) => store.commit('addUser', root, (reader) => addUserChanges(reader, username, role)));
    process.stdout.write(`added user ${username}${role === null ? ' (no role)' : ` with role ${role}`}\n`);
    return 0;
  }
  if (action === 'role' && rest.length === 2) {
    const [username, roleText] = rest as [string, string];
    const role = parseRole(roleText);
    await withStore(dataDir, (store) => store.commit('setRole', root, (reader) => setRoleChanges(reader, username, role)));
    process.stdout.write(`user ${username} now has ${role === null ? 'no role' : `role ${role}`}\n`);
    return 0;
  }
  if (action === 'list' && rest.length === 0) {
    const users = await withStore(dataDir, async (store) => listUsers(store.catalogue));
    const width = Math.max(4, ...users.map((user) => user.username.length));
    const lines = users.map((user) => `${user.username.padEnd(width)}  ${(user.role ?? '-').padEnd(6)}  ${user.displayName ?? ''}`.trimEnd());
    process.stdout.write([`${'USER'.padEnd(width)}  ROLE    NAME`, ...lines].join('\n') + '\n');
    return 0;
  }
  throw new MinihubError('USAGE', `unknown user command "${positionals.join(' ')}"; expected add NAME, role NAME ROLE or list`);
}
