// Finds where top-level JSON values end in text that arrives in pieces: the elements of one array, or
// one whole value. It only counts brackets and braces outside strings (honouring escapes); each value's
// text is then checked by JSON.parse. It holds at most one value's text, never the whole input.

/** The text is not the JSON shape the splitter was asked for: the caller reads it some other way. */
export class NotJson extends Error {
  override readonly name = 'NotJson';
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * `array`: hands on the text of each element of one top-level array. `value`: hands on the text of one
 * top-level array or object. Either way only JSON whitespace may follow it. Element texts come trimmed
 * and unchecked: brackets may still be mismatched inside one, which JSON.parse then finds.
 * @example
 * const splitter = new JsonSplitter('array');
 * for (const piece of ['[{"a": 1}, {"b"', ': [2]}]']) splitter.push(piece, (text) => texts.push(text));
 * splitter.end(); // texts: ['{"a": 1}', '{"b": [2]}']
 */
export class JsonSplitter {
  readonly #mode: 'array' | 'value';
  #state: 'before' | 'inside' | 'after' = 'before';
  #depth = 0;
  #inString = false;
  #escaped = false;
  // The current element's text from earlier pieces; joined once it ends.
  #parts: string[] = [];
  #elements = 0;
  #afterComma = false;
  // Characters in earlier pieces, for messages.
  #offset = 0;

  constructor(mode: 'array' | 'value') {
    this.#mode = mode;
  }

  /** Reads the next piece of the text, calling `onValue` for each element (or the value) that ends in it. */
  push(text: string, onValue: (text: string) => void): void {
    const length = text.length;
    // Where the current element starts in this piece (its earlier part is in #parts).
    let start = 0;
    let i = 0;
    while (i < length) {
      if (this.#inString) {
        // Skip to the string's end: the bulk of a catalogue is inside strings.
        for (; i < length; i++) {
          const code = text.charCodeAt(i);
          if (this.#escaped) this.#escaped = false;
          else if (code === BACKSLASH) this.#escaped = true;
          else if (code === QUOTE) {
            this.#inString = false;
            i++;
            break;
          }
        }
        continue;
      }
      const code = text.charCodeAt(i);
      if (this.#state === 'inside') {
        if (code === QUOTE) this.#inString = true;
        else if (code === OPEN_ARRAY || code === OPEN_OBJECT) this.#depth++;
        else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
          this.#depth--;
          if (this.#depth === 0) {
            if (this.#mode === 'array') {
              if (code !== CLOSE_ARRAY) throw this.#notJson(i, 'the array ends with "}"');
              this.#element(text.slice(start, i), onValue, true);
            } else {
              this.#element(text.slice(start, i + 1), onValue, true);
            }
            this.#state = 'after';
          }
        } else if (code === COMMA && this.#depth === 1 && this.#mode === 'array') {
          this.#element(text.slice(start, i), onValue, false);
          start = i + 1;
        }
      } else if (!isJsonSpace(code)) {
        if (this.#state === 'after') throw this.#notJson(i, 'more text follows the end of the JSON');
        const wanted = this.#mode === 'array' ? code === OPEN_ARRAY : code === OPEN_OBJECT || code === OPEN_ARRAY;
        if (!wanted) throw this.#notJson(i, `it starts with ${JSON.stringify(text[i])}`);
        this.#state = 'inside';
        this.#depth = 1;
        // An array's elements start after its "["; a whole value starts with its bracket.
        start = this.#mode === 'array' ? i + 1 : i;
      }
      i++;
    }
    if (this.#state === 'inside' && start < length) this.#parts.push(text.slice(start));
    this.#offset += length;
  }

  /** Checks that the text ended after the array or value; throws NotJson when it did not. */
  end(): void {
    if (this.#state === 'before') throw new NotJson('there is no JSON in it');
    if (this.#state === 'inside')
      throw new NotJson(
        `it ends at character ${this.#offset}, before the ${this.#mode === 'array' ? 'array' : 'value'} does`,
      );
  }

  #element(last: string, onValue: (text: string) => void, closing: boolean): void {
    const whole = this.#parts.length === 0 ? last : this.#parts.join('') + last;
    this.#parts = [];
    const text = whole.trim();
    if (text === '') {
      // "[]" (or "[ ]") is an empty array; any other empty element is a stray comma.
      if (closing && this.#elements === 0 && !this.#afterComma) return;
      throw new NotJson(`element ${this.#elements + 1} of the array is empty: a stray comma`);
    }
    this.#elements++;
    this.#afterComma = !closing;
    onValue(text);
  }

  #notJson(index: number, problem: string): NotJson {
    return new NotJson(`at character ${this.#offset + index}: ${problem}`);
  }
}
