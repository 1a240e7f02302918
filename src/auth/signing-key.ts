// The key that signs access tokens: a file in the data directory, readable by its owner only, or a
// fresh random key per process in memory mode. Call it with the data directory's lock held. A missing
// key is made silently only while no stored token depends on it.

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';
import type { Catalogue } from '../store/catalogue.ts';
import { writeFileDurably } from '../store/durable-file.ts';
import { listTokens } from './tokens.ts';

export const SIGNING_KEY_FILE = 'signing.key';

export interface SigningKeyOptions {
  /** The catalogue the key's tokens are stored in: a missing key is refused while it holds live tokens. */
  catalogue?: Catalogue;
  /** Make a new key even though stored tokens depend on the missing one (they then fail with 401). */
  replaceMissing?: boolean;
}

export function loadSigningKey(dataDir: string | null, options: SigningKeyOptions = {}): Buffer {
  if (dataDir === null) return randomBytes(32);
  const path = join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(path)) {
    // A new key cannot verify the stored tokens: making one silently would turn each into a bare 401.
    const live = options.catalogue === undefined ? 0 : liveTokens(options.catalogue);
    if (live > 0 && options.replaceMissing !== true) {
      throw new MinihubError(
        'STORE_CORRUPT',
        `${path} is missing, and the catalogue holds ${live === 1 ? '1 access token' : `${live} access tokens`} signed with it. ` +
          'Restore the file from a backup, or start with --new-signing-key (newSigningKey: true in the library) ' +
          'to make a new key: every stored token will then stop working (401) and must be issued again',
      );
    }
    try {
      createDurably(path);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      const why =
        code === 'ENOSPC' ? 'the disk is full (ENOSPC); free some space and start again' : (error as Error).message;
      throw new MinihubError('SERVER_ERROR', `cannot write a new signing key to ${path}: ${why}`, { cause: error });
    }
  }
  chmodSync(path, 0o600);
  const hex = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new MinihubError('STORE_CORRUPT', `${path}: expected 64 hex characters (a 256-bit signing key)`);
  }
  return Buffer.from(hex, 'hex');
}

/** Stored tokens that have not expired: the ones a lost key would break. */
function liveTokens(catalogue: Catalogue): number {
  const now = Date.now();
  return listTokens(catalogue).filter((token) => token.expiresAt === null || token.expiresAt > now).length;
}

// Tokens signed with the key are acknowledged as soon as their record is durable, so the key must be
// durable first. The data directory's lock is held, so no other process creates the key meanwhile.
function createDurably(path: string): void {
  writeFileDurably(path, randomBytes(32).toString('hex') + '\n');
}
