// How text becomes search terms, for documents and queries alike: letters and digits only (markdown and
// every other punctuation dropped), lower case, camelCase and snake_case split into their words too.

const NOT_WORD = /[^\p{L}\p{N}]+/u;
// A lower-case letter or digit followed by an upper-case one: where a camelCase name joins two words.
const CAMEL = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u;

/**
 * The terms of `text`: each word in lower case, and a camelCase word's parts after it, so `customerId`
 * is found by `customerid`, `customer` and `id`. Markdown (`**bold**`, `[link](url)`, `# title`) leaves
 * only its words.
 */
export function tokenize(text: string): string[] {
  // Every column of every dataset passes here: plain ASCII text is scanned by character code, which is
  // several times faster than the Unicode-aware expressions any other script needs.
  const terms: string[] = [];
  const ascii = visitAsciiTerms(text, (start, end) => terms.push(text.slice(start, end).toLowerCase()));
  return ascii ? terms : tokenizeAnyScript(text);
}

/** Any character outside ASCII: text without one is tokenized by character code. */
export const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * tokenize()'s terms of `text` as places, so no string is made per word: `visit(start, end)` for each,
 * in order (the term is text[start, end) in lower case). Text that is not all ASCII visits nothing and
 * answers false: its terms are tokenize()'s.
 */
export function visitAsciiTerms(text: string, visit: (start: number, end: number) => void): boolean {
  if (NOT_ASCII.test(text)) return false;
  let start = -1;
  let upper = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
    } else if (c >= 65 && c <= 90) {
      if (start < 0) start = i;
      upper = true;
    } else if (start >= 0) {
      visit(start, i);
      if (upper) visitCamelCaseParts(text, start, i, visit);
      start = -1;
      upper = false;
    }
  }
  return true;
}

// A camelCase word's parts, when it has more than one.
function visitCamelCaseParts(
  text: string,
  start: number,
  end: number,
  visit: (start: number, end: number) => void,
): void {
  let from = start;
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    const before = text.charCodeAt(i - 1);
    if (c >= 65 && c <= 90 && ((before >= 97 && before <= 122) || (before >= 48 && before <= 57))) {
      visit(from, i);
      from = i;
    }
  }
  if (from > start) visit(from, end);
}

/**
 * visitAsciiTerms() over text encoded as UTF-8 in bytes[start, end): the same terms at the same places (a
 * term is its bytes in lower case). Text that is not all ASCII visits nothing and answers false.
 */
export function visitAsciiBytes(
  bytes: Uint8Array,
  from: number,
  to: number,
  visit: (start: number, end: number) => void,
): boolean {
  for (let i = from; i < to; i++) if (bytes[i]! >= 128) return false;
  let start = -1;
  let upper = false;
  for (let i = from; i <= to; i++) {
    const c = i < to ? bytes[i]! : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
    } else if (c >= 65 && c <= 90) {
      if (start < 0) start = i;
      upper = true;
    } else if (start >= 0) {
      visit(start, i);
      if (upper) {
        let part = start;
        for (let j = start + 1; j < i; j++) {
          const d = bytes[j]!;
          const before = bytes[j - 1]!;
          if (d >= 65 && d <= 90 && ((before >= 97 && before <= 122) || (before >= 48 && before <= 57))) {
            visit(part, j);
            part = j;
          }
        }
        if (part > start) visit(part, i);
      }
      start = -1;
      upper = false;
    }
  }
  return true;
}

/** tokenize() for text in any script. */
export function tokenizeAnyScript(text: string): string[] {
  const terms: string[] = [];
  // split, not matchAll: no match object per word.
  for (const word of text.split(NOT_WORD)) {
    if (word === '') continue;
    const lower = word.toLowerCase();
    terms.push(lower);
    if (lower !== word) {
      const parts = word.split(CAMEL);
      if (parts.length > 1) for (const part of parts) terms.push(part.toLowerCase());
    }
  }
  return terms;
}
