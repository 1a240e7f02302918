// Makes a data directory (and its parents) before the log opens it, turning the file system's refusal
// into an error that names the directory and what to do. Creates nothing else.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import { MinihubError, shown } from '../errors.ts';

export function makeDataDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    const name = `"${shown(dir)}"`;
    const why =
      code === 'EEXIST' ? `${name} is a file, not a directory`
      : code === 'ENOTDIR' ? `${name} cannot be made: "${shown(existingAncestor(dir))}" on its path is a file, not a directory`
      : code === 'EACCES' || code === 'EPERM' ? `${name} cannot be made: permission denied`
      : code === 'EROFS' ? `${name} cannot be made: the file system is read-only`
      : code === 'ENOSPC' ? `${name} cannot be made: the disk is full`
      : undefined;
    if (why === undefined) throw error;
    throw new MinihubError('BAD_REQUEST', `data directory ${why}; choose another with --data (dataDir in the library), or fix that path`, { cause: error });
  }
}

/** The nearest part of `dir`'s path that exists: after ENOTDIR, the file in the way. */
function existingAncestor(dir: string): string {
  let path = dirname(dir);
  while (!existsSync(path) && dirname(path) !== path) path = dirname(path);
  return path;
}
