// A kept aspect value's small all-primitive objects (type descriptors such as {"type":{"...StringType":{}}},
// empty lists) replaced by one frozen instance each, so a catalogue of many schema fields holds far fewer
// objects for the garbage collector to mark (test/bench/NOTES.md). It only rewrites a value nothing else
// holds yet, and never changes a shared instance: the catalogue's values are replaced, never changed.

import type { JsonValue } from '../aspects/json.ts';

type JsonObject = { [key: string]: JsonValue };

// A leaf is an object of at most MAX_KEYS keys whose values are primitives or leaves, MAX_TEXT characters of
// JSON at most. Up to MAX_SHARED distinct leaves are remembered; then the table starts again, so leaves
// seen once (a column's own description) cannot crowd out the common ones for good.
const MAX_KEYS = 4;
const MAX_TEXT = 96;
const MAX_SHARED = 8192;
let shared = new Map<string, JsonObject>();
const EMPTY_LIST: JsonValue[] = Object.freeze([]) as unknown as JsonValue[];

/** `value` with its small leaves replaced by shared frozen instances (`value` itself is changed in place). */
export function withSharedLeaves(value: JsonValue): JsonValue {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return EMPTY_LIST;
    for (let i = 0; i < value.length; i++) value[i] = withSharedLeaves(value[i] as JsonValue);
    return value;
  }
  let leaf = true;
  let keys = 0;
  for (const key in value) {
    // Assigning to `__proto__` would set the prototype, not the key JSON.parse made: left as it is.
    if (key === '__proto__') return value;
    const child = value[key] as JsonValue;
    if (typeof child === 'object' && child !== null) {
      const replaced = withSharedLeaves(child);
      if (replaced !== child) value[key] = replaced;
      if (!Object.isFrozen(replaced)) leaf = false;
    } else if (typeof child === 'string' && child.length > MAX_TEXT) leaf = false;
    keys++;
  }
  if (!leaf || keys > MAX_KEYS) return value;
  const text = JSON.stringify(value);
  if (text.length > MAX_TEXT) return value;
  const known = shared.get(text);
  if (known !== undefined) return known;
  if (shared.size >= MAX_SHARED) shared = new Map();
  shared.set(text, Object.freeze(value));
  return value;
}
