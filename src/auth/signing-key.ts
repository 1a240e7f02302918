// The key that signs access tokens: a file in the data directory, readable by its owner only,
// or a fresh random key per process in memory mode. It never leaves this module except as bytes.

import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';

export const SIGNING_KEY_FILE = 'signing.key';

export function loadSigningKey(dataDir: string | null): Buffer {
  if (dataDir === null) return randomBytes(32);
  const path = join(dataDir, SIGNING_KEY_FILE);
  try {
    writeFileSync(path, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(path, 0o600);
  const hex = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new MinihubError('STORE_CORRUPT', `${path}: expected 64 hex characters (a 256-bit signing key)`);
  }
  return Buffer.from(hex, 'hex');
}
