// Refuses a text a mutation would store when it is over the maxTextBytes limit, naming the field.

import { badRequest } from '../errors.ts';
import type { Limits } from '../limits.ts';

/** Throws BAD_REQUEST for the first of `texts` (field name → value) longer than the limit. */
export function checkTextSizes(limits: Limits, texts: Record<string, string | null | undefined>): void {
  for (const [field, text] of Object.entries(texts)) checkTextSize(limits, field, text);
}

/** Throws BAD_REQUEST when `text` (the value of `field`) is longer than the limit. */
export function checkTextSize(limits: Limits, field: string, text: string | null | undefined): void {
  if (text == null) return;
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxTextBytes) throw badRequest(`${field} is ${bytes} bytes; the limit is ${limits.maxTextBytes}`);
}
