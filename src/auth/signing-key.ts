// The key that signs access tokens: a file in the data directory, readable by its owner only, or a
// fresh random key per process in memory mode. Call it with the data directory's lock held.

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { MinihubError } from '../errors.ts';

export const SIGNING_KEY_FILE = 'signing.key';

export function loadSigningKey(dataDir: string | null): Buffer {
  if (dataDir === null) return randomBytes(32);
  const path = join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(path)) createDurably(dataDir, path);
  chmodSync(path, 0o600);
  const hex = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new MinihubError('STORE_CORRUPT', `${path}: expected 64 hex characters (a 256-bit signing key)`);
  }
  return Buffer.from(hex, 'hex');
}

// Tokens signed with the key are acknowledged as soon as their record is durable, so the key must be
// durable first: written whole to a temporary file, synced, renamed into place, directory synced.
// The data directory's lock is held, so no other process creates the key meanwhile.
function createDurably(dataDir: string, path: string): void {
  const temporary = `${path}.new`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, randomBytes(32).toString('hex') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  const dir = openSync(dataDir, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
