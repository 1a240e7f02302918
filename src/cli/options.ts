// Turns argv and environment into typed options with node:util parseArgs; usage errors are thrown
// as MinihubError('USAGE') for run-cli.ts to print. No I/O here.

import { parseArgs, type ParseArgsConfig } from 'node:util';

import { MinihubError, shown } from '../errors.ts';
import { LIMIT_NAMES, type Limits } from '../limits.ts';

export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = 'data';

type Options = NonNullable<ParseArgsConfig['options']>;

// Written out because the inferred type names one node:util does not export, which the declaration
// file `npm run build` emits for every module could not spell.
type Parsed<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>
>;

export function parse<T extends Options>(args: string[], options: T, allowPositionals: boolean): Parsed<T> {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    // parseArgs explains well in its first sentence; the rest repeats advice meant for programmers.
    const first = (error as Error).message.split('. ')[0] ?? 'invalid arguments';
    throw new MinihubError('USAGE', first);
  }
}

export function dataDirOf(value: string | undefined, env: NodeJS.ProcessEnv): string {
  return value ?? env.MINIHUB_DATA ?? DEFAULT_DATA_DIR;
}

export const DEFAULT_HOST = '127.0.0.1';

/** The flag, else MINIHUB_PORT, else PORT (what hosting platforms set), else 8080. */
export function parsePort(value: string | undefined, env: NodeJS.ProcessEnv): number {
  const [source, text] =
    value !== undefined
      ? ['--port ', value]
      : env.MINIHUB_PORT !== undefined
        ? ['MINIHUB_PORT=', env.MINIHUB_PORT]
        : env.PORT !== undefined
          ? ['PORT=', env.PORT]
          : ['', String(DEFAULT_PORT)];
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new MinihubError('USAGE', `${source}${text} is not a port; expected 0 to 65535`);
  return port;
}

/** The flag, else MINIHUB_HOST, else HOST, else 127.0.0.1. */
export function hostOf(value: string | undefined, env: NodeJS.ProcessEnv): string {
  return value ?? env.MINIHUB_HOST ?? env.HOST ?? DEFAULT_HOST;
}

export function parsePositiveInteger(flag: string, value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number <= 0)
    throw new MinihubError('USAGE', `${flag} ${value} is not a positive whole number`);
  return number;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `15m`, `1h`, `30d` → milliseconds; `never` → null. */
export function parseLifetime(value: string): number | null {
  if (value === 'never') return null;
  const match = /^(\d+)([smhd])$/.exec(value);
  if (match === null || Number(match[1]) === 0) {
    throw new MinihubError(
      'USAGE',
      `--expires ${value} is not a lifetime; --expires takes 90s, 15m, 1h, 30d (a number with s, m, h or d) or never`,
    );
  }
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

/** Refuses flags given together that cannot both apply, e.g. `--memory` with `--data`: silently dropping one hides a mistake. */
export function refuseTogether(values: Record<string, unknown>, flag: string, others: string[], why: string): void {
  if (values[flag] === undefined || values[flag] === false) return;
  const other = others.find((name) => values[name] !== undefined && values[name] !== false);
  if (other !== undefined) throw new MinihubError('USAGE', `--${flag} and --${other} cannot be used together: ${why}`);
}

/** `--limit maxDepth=30` (repeatable) and the `--max-body-bytes N` shorthand → limit overrides. */
export function parseLimits(pairs: string[], maxBodyBytes: string | undefined): Partial<Limits> {
  const limits: Partial<Limits> = {};
  for (const pair of pairs) {
    const [name, value] = pair.split('=', 2) as [string, string | undefined];
    const known = LIMIT_NAMES.find((candidate) => candidate === name);
    if (known === undefined || value === undefined) {
      throw new MinihubError('USAGE', `--limit ${pair} is not NAME=VALUE with NAME one of ${LIMIT_NAMES.join(', ')}`);
    }
    // Two values for one limit: whichever won silently, the other was a mistake.
    if (limits[known] !== undefined)
      throw new MinihubError('USAGE', `--limit ${known} is given twice; give each limit once`);
    limits[known] = parsePositiveInteger(`--limit ${name}`, value);
  }
  if (maxBodyBytes !== undefined) {
    if (limits.maxBodyBytes !== undefined) {
      throw new MinihubError(
        'USAGE',
        '--max-body-bytes and --limit maxBodyBytes cannot be used together: they set the same limit; give one',
      );
    }
    limits.maxBodyBytes = parsePositiveInteger('--max-body-bytes', maxBodyBytes);
  }
  return limits;
}

/** `--cors-origin` values: `*` or an origin as browsers send it, scheme://host[:port] with no path. */
export function parseCorsOrigins(values: string[]): string[] {
  for (const value of values) {
    if (value !== '*' && !/^https?:\/\/[^/?#\s]+$/i.test(value)) {
      throw new MinihubError(
        'USAGE',
        `--cors-origin ${value} is not an origin; expected * or scheme://host[:port], like http://localhost:3000`,
      );
    }
  }
  return values;
}

/** `"value"` for a message, cut to ~100 characters so a pasted blob cannot flood the terminal. */
export function quoted(value: string): string {
  return `"${shown(value)}"`;
}

/** Refuses flags that the chosen action ignores, e.g. `token list --expires 1h`, instead of dropping them. */
export function refuseFlagsOutside(values: Record<string, unknown>, allowed: string[], action: string): void {
  const given = Object.keys(values).filter(
    (name) => values[name] !== undefined && values[name] !== false && name !== 'help',
  );
  const stray = given.find((name) => !allowed.includes(name));
  if (stray !== undefined) {
    const takes = allowed.map((name) => `--${name}`).join(', ');
    throw new MinihubError(
      'USAGE',
      `--${stray} does not apply to "${action}"; it takes ${takes === '' ? 'no options' : takes}`,
    );
  }
}
