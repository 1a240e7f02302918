// Reads a file as UTF-8 text in pieces of a bounded size, so a file larger than V8's string cap
// (512 MiB) can be read at all. Synchronous, like the readFileSync it replaces: ingest and seeding
// read their file before anything else runs. It does not parse what it reads.

import { closeSync, openSync, readSync } from 'node:fs';

import { MinihubError } from '../errors.ts';

/** Bytes read at a time: a few system calls per megabyte, and a piece far below the cap. */
export const READ_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * The text of `path` from its start, a piece at a time, each iteration reading the file afresh. As
 * readFileSync(path, 'utf8') decodes it, except that a leading byte order mark is dropped.
 * @example
 * for (const piece of fileText('catalogue.json')) count += piece.length;
 */
export function fileText(path: string, pieceBytes: number = READ_PIECE_BYTES): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      const fd = attempt(path, () => openSync(path, 'r'));
      try {
        // Not fatal: invalid bytes become U+FFFD, as readFileSync's decoding has them. The decoder
        // keeps a character cut between two pieces until the next one.
        const decoder = new TextDecoder('utf-8');
        const buffer = Buffer.allocUnsafe(pieceBytes);
        for (;;) {
          const read = attempt(path, () => readSync(fd, buffer, 0, pieceBytes, null));
          if (read === 0) break;
          const piece = decoder.decode(buffer.subarray(0, read), { stream: true });
          if (piece !== '') yield piece;
        }
        const rest = decoder.decode();
        if (rest !== '') yield rest;
      } finally {
        closeSync(fd);
      }
    },
  };
}

function attempt<T>(path: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new MinihubError(
      'BAD_REQUEST',
      `cannot read ${path}: ${why}; expected a DataHub MCE/MCP JSON or JSON-lines file`,
      { cause: error },
    );
  }
}
