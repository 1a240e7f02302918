// Turns any error that reaches the command line into the one line run-cli.ts prints, and its exit code.
// Expected failures (MinihubError) already say what was wrong and what to do; anything else gets its
// message squeezed onto one line, with advice for the system errors a user can fix. Prints nothing.

import { MinihubError } from '../errors.ts';

export interface Failure {
  /** One line, no newline inside, without the "minihub: " prefix. */
  line: string;
  /** 2 for usage errors, else 1. */
  code: number;
}

// What a person can do about the system errors a command meets outside a bug.
const ADVICE: Record<string, string> = {
  ENOSPC: 'the disk is full: free some space and try again',
  EDQUOT: 'the disk quota is used up: free some space and try again',
  EACCES: 'permission denied: check who owns the file or directory, or choose another',
  EPERM: 'operation not permitted: check who owns the file or directory, or choose another',
  EROFS: 'the file system is read-only: choose a directory on a writable one',
  EMFILE: 'too many open files: raise the limit (ulimit -n) or close other programs',
  EIO: 'the disk reported an input/output error: check the disk',
  ENOTDIR: 'part of that path is a file, not a directory: check the path',
  EISDIR: 'that is a directory: name a file',
};

const MAX_LINE = 400;

/** `command` (e.g. "token"), when known, points a usage error at that command's own help. */
export function describeFailure(error: unknown, command?: string): Failure {
  if (error instanceof MinihubError) {
    const line = oneLine(error.message);
    const help = command === undefined ? 'minihub --help' : `minihub ${command} --help`;
    return error.code === 'USAGE' ? { line: `${line} (run "${help}" for usage)`, code: 2 } : { line, code: 1 };
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const message = oneLine(error instanceof Error ? error.message : String(error));
  const advice = typeof code === 'string' ? ADVICE[code] : undefined;
  if (advice !== undefined) return { line: `${message}; ${advice}`, code: 1 };
  return { line: `unexpected error: ${message} (run again with --debug for the stack)`, code: 1 };
}

/** The full detail --debug asks for: the stack, and the stack of each cause. */
export function debugDetail(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? current.message) : String(current));
    current = current instanceof Error ? current.cause : undefined;
    if (current !== undefined) parts.push('caused by:');
  }
  return parts.join('\n') + '\n';
}

// A message with a newline (a JSON parse error quoting its input, say) would break the one-line promise.
function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > MAX_LINE ? `${flat.slice(0, MAX_LINE)}...` : flat;
}
