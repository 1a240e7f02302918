// `minihub token create`: issues a personal access token from the command line and prints only it.

import { loadSigningKey } from '../auth/signing-key.ts';
import { TokenService } from '../auth/tokens.ts';
import { ROOT_USER } from '../auth/users.ts';
import { MinihubError } from '../errors.ts';
import { Store } from '../store/store.ts';
import { corpUserUrn } from '../urn.ts';
import { TOKEN_HELP } from './help.ts';
import { dataDirOf, parse, parseLifetime } from './options.ts';

export async function tokenCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      user: { type: 'string' },
      name: { type: 'string' },
      expires: { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help || positionals.length === 0) {
    process.stdout.write(TOKEN_HELP);
    return values.help ? 0 : 2;
  }
  if (positionals[0] !== 'create' || positionals.length > 1) {
    throw new MinihubError('USAGE', `unknown token command "${positionals.join(' ')}"; expected "token create --user NAME"`);
  }
  if (values.user === undefined) throw new MinihubError('USAGE', 'token create needs --user NAME');
  const lifetimeMs = parseLifetime(values.expires ?? '30d');
  const dataDir = dataDirOf(values.data, env);
  const store = await Store.open({ dataDir, warn: (message) => process.stderr.write(`minihub: ${message}\n`) });
  try {
    const tokens = new TokenService(loadSigningKey(dataDir), store);
    const issued = await tokens.createPersonalToken({
      username: values.user,
      name: values.name ?? 'minihub cli token',
      lifetimeMs,
      requestedBy: corpUserUrn(ROOT_USER),
    });
    process.stdout.write(`${issued.token}\n`);
  } finally {
    await store.close();
  }
  return 0;
}
