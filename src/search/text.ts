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
  const terms: string[] = [];
  // split, not matchAll: no match object per word (this runs over every column of every dataset).
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
