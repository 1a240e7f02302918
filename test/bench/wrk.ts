// Loads a server with wrk (C and LuaJIT, one thread on the load generator's core): request bodies are
// sampled from the bench's own generator into a file, and wrk-bodies.lua sends one of them at random per
// request. Returns wrk's own counts; knows nothing of servers or CPU shares.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./wrk-bodies.lua', import.meta.url));
/** Bodies sampled per load: random datasets cover nearly all of 10,000 at this size. */
const POOL = 32_768;

export interface WrkResult {
  rps: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  failures: number;
  /** Whole 200 answers without errors, per second; counted only when asked. */
  acknowledged: number;
}

let found: boolean | undefined;
/** Whether wrk is on the PATH (Debian's package `wrk`). */
export function hasWrk(): boolean {
  if (found === undefined) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      found = true;
    } catch (error) {
      // wrk --version prints its usage and exits 1: it is there when it ran at all.
      found = (error as { code?: string }).code !== 'ENOENT';
    }
  }
  return found;
}

export interface WrkOptions {
  connections: number;
  /** Seconds. */
  duration: number;
  threads?: number;
  count: boolean;
}

/** wrk POSTing bodies of `body()` to `url` for `duration` seconds; the child inherits this process's core. */
export async function wrkLoad(url: string, token: string, body: () => string, options: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'minihub-wrk-'));
  try {
    const bodies = join(dir, 'bodies.jsonl');
    writeFileSync(bodies, Array.from({ length: POOL }, body).join('\n') + '\n');
    const threads = String(options.threads ?? 1);
    const args = ['-t', threads, '-c', String(options.connections), '-d', `${options.duration}s`, '-s', SCRIPT, url];
    const env = { ...process.env, WRK_BODIES: bodies, WRK_TOKEN: token, WRK_COUNT: options.count ? '1' : '0' };
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`)),
      );
    });
    const line = /^WRK (\{.*\})$/m.exec(out)?.[1];
    if (line === undefined) throw new Error(`wrk printed no result: ${out}`);
    const result = JSON.parse(line) as Record<
      'requests' | 'micros' | 'p50' | 'p99' | 'failures' | 'acknowledged',
      number
    >;
    const seconds = result.micros / 1e6;
    return {
      rps: result.requests / seconds,
      p50: result.p50 / 1000,
      p99: result.p99 / 1000,
      failures: result.failures,
      acknowledged: result.acknowledged / seconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
