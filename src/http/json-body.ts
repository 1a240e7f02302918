// A request body read as JSON text, the same way for every handler: JSON content type, the size limit,
// strict UTF-8, then JSON.parse. Refusals are HttpErrors (415, 413, 400); it interprets nothing.

import { shown } from '../errors.ts';
import { HttpError, type HttpRequest } from './exchange.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A POST's body as text: JSON content type, size limit, strict UTF-8. Not an async function: a refusal is
 * a rejected promise all the same, and a read costs one reaction rather than a function's promise and await.
 */
export function readJsonText(request: HttpRequest, maxBytes: number): Promise<string> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    return Promise.reject(
      new HttpError(
        415,
        `Content-Type ${contentType === '' ? 'is missing' : `"${shown(contentType)}" is not supported`}; expected application/json`,
      ),
    );
  }
  return request.body(maxBytes).then(decodeUtf8);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // Fatal decoding: a lenient one would store U+FFFD in place of the bytes the client sent.
    return UTF8.decode(bytes);
  } catch {
    throw new HttpError(400, 'the body is not valid UTF-8; expected UTF-8 encoded JSON');
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
}
