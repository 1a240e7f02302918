// Makes a data directory (and its parents) one level at a time before the lock and the log use it, turning
// the file system's refusal into an error that names the directory and what to do. Creates nothing else.

import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { MinihubError, shown } from '../errors.ts';

export function makeDataDirectory(dir: string): void {
  try {
    makeDirectories(dir);
  } catch (error) {
    throw dataDirectoryError(dir, error, 'cannot be made');
  }
}

// Each missing directory from the top down, rather than mkdirSync's recursive mode: on Node 20 that
// spins forever at full CPU when a parent answers mkdir with ENOENT (under /proc, say).
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let path = resolve(dir); !existsSync(path); path = dirname(path)) {
    missing.push(path);
    if (dirname(path) === path) break;
  }
  if (missing.length === 0 && !statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${dir}'`), { code: 'EEXIST' });
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (error) {
      // Made meanwhile by another process: fine, as long as it is a directory.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
    }
  }
}

/**
 * The file system's refusal to make or use `dir` as a MinihubError naming it and the fix; an error it
 * has no advice for (or a MinihubError, such as a lock held by another process) is returned unchanged.
 */
export function dataDirectoryError(dir: string, error: unknown, failed: string): unknown {
  if (error instanceof MinihubError) return error;
  const { code } = error as NodeJS.ErrnoException;
  const name = `"${shown(dir)}"`;
  const elsewhere = 'choose another with --data (dataDir in the library)';
  const message =
    code === 'EEXIST'
      ? `${name} is a file, not a directory; ${elsewhere}`
      : code === 'ENOTDIR'
        ? `${name} ${failed}: "${shown(existingAncestor(dir))}" on its path is a file, not a directory; ${elsewhere}`
        : code === 'EACCES' || code === 'EPERM'
          ? `${name} ${failed}: permission denied (${code}); fix its owner or mode, or ${elsewhere}`
          : code === 'EROFS'
            ? `${name} ${failed}: the file system is read-only (EROFS); ${elsewhere}`
            : code === 'ENOENT'
              ? `${name} ${failed}: its parent directory does not take new directories (ENOENT); ${elsewhere}`
              : code === 'ENOSPC' || code === 'EDQUOT'
                ? `${name} ${failed}: the disk is full (${code}); free some space, or ${elsewhere}`
                : undefined;
  return message === undefined ? error : new MinihubError('BAD_REQUEST', `data directory ${message}`, { cause: error });
}

/** The nearest part of `dir`'s path that exists: after ENOTDIR, the file in the way. */
function existingAncestor(dir: string): string {
  let path = dirname(dir);
  while (!existsSync(path) && dirname(path) !== path) path = dirname(path);
  return path;
}
