// Reads a request body up to a byte limit. Past the limit it stops reading and fails with 413,
// so a huge upload costs no memory; the caller closes the connection with closeAfterAnswer().

import type { IncomingMessage, ServerResponse } from 'node:http';

import { clearTimeout, setTimeout } from '../own-timers.ts';
import { HttpError } from './exchange.ts';

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `the request body is larger than the limit of ${limit} bytes`, { Connection: 'close' });
}

/** A body already in memory, held to the same limit: for requests made in process (tests, other adapters). */
export function bufferedBody(bytes: Uint8Array): (limit: number) => Promise<Uint8Array> {
  return (limit) => (bytes.length > limit ? Promise.reject(tooLarge(limit)) : Promise.resolve(bytes));
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  // The listeners are unnamed and stay on the request, doing nothing once it is settled (what a lingering
  // close reads is dropped): under tsx every named closure made per request costs a defineProperty.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      // A client that leaves mid-body (or is timed out) is no server fault: answer it, rather than log a bug.
      reject(
        error.code === 'ECONNRESET' ? new HttpError(400, 'the connection closed before the whole body arrived') : error,
      );
    });
  });
}

/** How long a connection refused mid-body stays open after its answer, dropping what still arrives. */
const LINGER_MS = 2000;

/**
 * Marks an answer to a request whose body was not read as the connection's last, and closes gently:
 * closing a socket with input still unread makes the kernel reset the connection, which can destroy the
 * answer (a 413, say) before the client reads it. So the answer is followed by a FIN only, and whatever
 * the client still sends is read and dropped until it closes or LINGER_MS pass ("lingering close").
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  // node:http calls destroySoon() once an answer with Connection: close is written; it would close at once.
  socket.destroySoon = () => {
    socket.end();
    req.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
