// Numbering words where they stand: the places visited are the Unicode-aware tokenizer's terms, and the
// term table answers as a Map does over random additions and removals, by string and by place.

import * as assert from 'uvu/assert';
import { suite } from 'uvu';

import { TermTable } from '../src/search/term-table.ts';
import { tokenize, tokenizeAnyScript, visitAsciiTerms } from '../src/search/text.ts';

const test = suite('term table');

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = (next: () => number, chars: string) => chars[Math.floor(next() * chars.length)]!;

test('the places visited in ASCII text are tokenize() terms, camelCase parts included; other text visits none', () => {
  const next = random(3);
  for (let n = 0; n < 2000; n++) {
    const text = Array.from({ length: Math.floor(next() * 40) }, () => pick(next, 'abcXYZ019_ -*[]().\n')).join('');
    const visited: string[] = [];
    assert.ok(visitAsciiTerms(text, (start, end) => visited.push(text.slice(start, end).toLowerCase())));
    assert.equal(visited, tokenizeAnyScript(text), JSON.stringify(text)); // the Unicode-aware path as the reference
  }
  assert.equal(
    visitAsciiTerms('customerId Straße', () => assert.unreachable()),
    false,
  );
  assert.equal(tokenize('customerId Straße'), ['customerid', 'customer', 'id', 'straße']);
});

test('lookups by string and by place answer as a Map, over additions and removals', () => {
  const next = random(11);
  const texts: string[] = [];
  const table = new TermTable(texts);
  const model = new Map<string, number>();
  const free: number[] = [];
  for (let step = 0; step < 20000; step++) {
    const word = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, 'abcd')).join('');
    const term = model.get(word);
    if (term === undefined) {
      const number = free.pop() ?? texts.length;
      texts[number] = word;
      table.add(number, word);
      model.set(word, number);
    } else if (next() < 0.5) {
      table.remove(term, word);
      model.delete(word);
      texts[term] = '';
      free.push(term);
    }
    const probe = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, 'abcd')).join('');
    const upper = `-${probe.toUpperCase()}-`;
    assert.is(table.get(probe), model.get(probe) ?? -1);
    assert.is(table.getLowered(upper, 1, upper.length - 1), model.get(probe) ?? -1);
    assert.is(table.get(upper), -1);
    assert.is(table.size, model.size);
  }
});

test.run();
