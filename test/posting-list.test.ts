// Posting lists in typed arrays against plain arrays, and the index over random puts and removals against
// an index that only ever held the documents left and against a scan of their words.

import * as assert from 'uvu/assert';
import { suite } from 'uvu';

import { fieldTerms } from '../src/search/field-terms.ts';
import { TEXT_FIELDS, type DocumentText } from '../src/search/fields.ts';
import { InvertedIndex } from '../src/search/inverted-index.ts';
import { PostingList, PostingSlabs } from '../src/search/posting-list.ts';

const test = suite('posting lists');

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function contents(list: PostingList): [number, number][] {
  return Array.from({ length: list.length }, (_, i) => [list.docs[list.start + i]!, list.freq(list.start + i)]);
}

test('adds and cleanings keep every posting and frequency, short lists and long, frequencies of 255 and more', () => {
  const next = random(7);
  const slabs = new PostingSlabs();
  const lists = Array.from({ length: 20 }, () => ({ list: new PostingList(slabs, 0, null), model: [] as number[][] }));
  let doc = 0;
  for (let step = 0; step < 4000; step++) {
    const { list, model } = lists[Math.floor(next() * lists.length)]!;
    if (list.length === 0 && model.length > 0) continue; // emptied: the index drops such a list
    if (next() < 0.9) {
      const freq = next() < 0.05 ? 250 + Math.floor(next() * 600) : 1 + Math.floor(next() * 3);
      list.add(doc, freq);
      model.push([doc++, freq]);
    } else {
      const kept = new Set(model.filter(() => next() < 0.5).map(([d]) => d!));
      const dropped: number[] = [];
      const gone = list.clean(
        (d) => kept.has(d),
        (d) => dropped.push(d),
      );
      assert.equal(gone, model.length - kept.size);
      assert.equal(
        dropped.sort(),
        model
          .map(([d]) => d!)
          .filter((d) => !kept.has(d))
          .sort(),
      );
      model.splice(0, model.length, ...model.filter(([d]) => kept.has(d!)));
      if (model.length === 0) model.push([-1, -1]); // marks the list emptied
    }
    if (model[0]?.[0] !== -1) assert.equal(contents(list), model, `step ${step}`);
  }
});

const WORDS = ['ab', 'abc', 'abd', 'bc', 'bcd', 'cd', 'ce', 'cef', 'de', 'dd'];

function randomText(next: () => number): DocumentText {
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, ''])) as DocumentText;
  text.name = words(1 + Math.floor(next() * 2));
  text.description = next() < 0.05 ? `${words(3)} ${'dd '.repeat(300)}` : words(Math.floor(next() * 8));
  text.fieldPaths = words(Math.floor(next() * 4)).replaceAll(' ', '\n');
  text.tags = words(Math.floor(next() * 2));
  return text;
}

function ranked(index: InvertedIndex, query: string) {
  const result = index.query(query);
  return Array.from({ length: result.size }, (_, i) => ({
    id: result.id(i),
    score: result.scores[i]!,
    matches: result.matches(i),
  })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

test('random puts and removals answer exactly as a fresh index of what is left, and as a scan finds', () => {
  for (let seed = 1; seed <= 6; seed++) {
    const next = random(seed);
    const index = new InvertedIndex();
    const held = new Map<string, DocumentText>();
    for (let step = 0; step < 1500; step++) {
      const id = `d${Math.floor(next() * 300)}`;
      if (next() < 0.3) {
        index.remove(id);
        held.delete(id);
      } else {
        const text = randomText(next);
        index.put(id, text);
        held.set(id, text);
      }
      assert.ok(index.stats.dead <= index.stats.live, `seed ${seed} step ${step}`);
    }
    const fresh = new InvertedIndex();
    for (const [id, text] of held) fresh.put(id, text);
    assert.equal(index.stats.live, fresh.stats.live);
    // Each held document's terms, split once for every query's scan.
    const heldTerms = [...held].map(([id, text]) => [id, fieldTerms(text)] as const);
    for (const query of [...WORDS, 'a', 'c', 'ab cd', 'dd ce', 'b', 'de ab c']) {
      const answer = ranked(index, query);
      assert.equal(answer, ranked(fresh, query), `seed ${seed}: ${query}`);
      const words = query.split(' ');
      const scanned = heldTerms
        .filter(([, fields]) =>
          words.every((word, i) =>
            fields.some((terms) =>
              terms.some((term) => term === word || (i === words.length - 1 && term.startsWith(word))),
            ),
          ),
        )
        .map(([id]) => id);
      assert.equal(answer.map(({ id }) => id).sort(), scanned.sort(), `seed ${seed}: ${query}`);
    }
    for (const id of [...held.keys()]) index.remove(id);
    assert.equal(index.stats, { live: 0, dead: 0, slots: 0, terms: 0 });
  }
});

test.run();
