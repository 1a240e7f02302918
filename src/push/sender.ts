// Sends one ingestProposalBatch body to a DataHub GMS (or a minihub) with the headers DataHub's SDK sends,
// retrying with backoff on 429, 5xx and connection failures; any other refusal fails at once. Knows HTTP,
// never the catalogue; it prints nothing.

import { sleep } from '../own-timers.ts';
import { VERSION } from '../version.ts';

export interface SenderOptions {
  /** The server's base URL, without a trailing slash (`http://localhost:8080`). */
  url: string;
  token: string | undefined;
  /** Attempts after the first, for the failures worth retrying. */
  retries: number;
  /** How long one request may take before it counts as a connection failure. */
  timeoutMs?: number;
  /** Waits between attempts; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
}

/** A request that failed for good: the target's own message when it sent one. */
export class SendFailure extends Error {
  override readonly name = 'SendFailure';
}

const BACKOFF_MS = 500;
const MAX_WAIT_MS = 30_000;

/** The path DataHub's SDK posts batches to. */
export const BATCH_PATH = '/aspects?action=ingestProposalBatch';

export function headersFor(token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-RestLi-Protocol-Version': '2.0.0',
    'User-Agent': `minihub/${VERSION}`,
  };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** POSTs `body` until it is acknowledged (2xx) or fails for good; returns how many attempts it took. */
export async function sendBatch(body: string, options: SenderOptions): Promise<number> {
  const { url, token, retries, timeoutMs = 120_000 } = options;
  const pause = options.sleep ?? sleep;
  for (let attempt = 0; ; attempt++) {
    let wait: number;
    let why: string;
    try {
      const response = await fetch(`${url}${BATCH_PATH}`, {
        method: 'POST',
        headers: headersFor(token),
        body,
        signal: AbortSignal.timeout(timeoutMs),
        // Never followed: a redirect turns the POST into a GET whose 200 (a login page) would pass for a write.
        redirect: 'manual',
      });
      const text = await response.text();
      if (response.status >= 300 && response.status < 400) {
        const location = (response.headers.get('location') ?? '').slice(0, 200);
        throw new SendFailure(
          `${url} redirected the request (${response.status}${location === '' ? '' : ` to ${location}`}); push to the URL of DataHub's GMS itself`,
        );
      }
      if (response.ok) return attempt + 1;
      why = refusal(url, response.status, text);
      if (response.status !== 429 && response.status < 500) throw new SendFailure(why);
      wait = retryAfter(response.headers.get('retry-after')) ?? BACKOFF_MS * 2 ** attempt;
    } catch (error) {
      if (error instanceof SendFailure) throw error;
      why = `cannot reach ${url}: ${connectionProblem(error)}`;
      wait = BACKOFF_MS * 2 ** attempt;
    }
    if (attempt >= retries) throw new SendFailure(retries === 0 ? why : `${why} (after ${attempt + 1} attempts)`);
    await pause(Math.min(wait, MAX_WAIT_MS));
  }
}

/** The target's refusal as one sentence: its Rest.li `message` when it sent one, with what to do about it. */
function refusal(url: string, status: number, text: string): string {
  let message = text.trim().slice(0, 300);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string')
      message = parsed.message;
  } catch {
    // Not JSON (a proxy's page): the start of the text says enough.
  }
  const said = `${url} answered ${status}${message === '' ? '' : `: ${message}`}`;
  if (status === 401) return `${said}; give a token with --token (or MINIHUB_TOKEN, DATAHUB_GMS_TOKEN)`;
  if (status === 404) return `${said}; is --to a DataHub GMS? (behind DataHub's frontend, its URL ends in /api/gms)`;
  return said;
}

function retryAfter(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header) * 1000;
}

// What fetch's causes mean to a person; fetch hides the system error (ECONNREFUSED, ...) in its cause.
const PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running?)',
  ECONNRESET: 'the connection was reset',
  UND_ERR_SOCKET: 'the connection closed before an answer',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
};

function connectionProblem(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  const cause = error instanceof Error ? error.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return PROBLEMS[code] ?? code;
  return error instanceof Error ? error.message : String(error);
}
