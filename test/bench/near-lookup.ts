// `tsx test/bench/near-lookup.ts [--datasets 10000] [--words 2000] [--passes 5]`: the typo lookup alone
// (TermDictionary.near) over the bench catalogue's vocabulary, for query words drawn as the search load draws
// them. Prints CPU µs per lookup for one-edit and two-edit words, and a checksum of the answers.

import { parseArgs } from 'node:util';

import { TermDictionary } from '../../src/search/term-dictionary.ts';
import { fuzzyEdits } from '../../src/search/term-neighbours.ts';
import { tokenize } from '../../src/search/text.ts';
import { columnDescription, columnPath, datasetText } from './catalogue-words.ts';
import { seededRandom } from '../fixtures/seeded-random.ts';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: '10000' },
    words: { type: 'string', default: '2000' },
    passes: { type: 'string', default: '5' },
  },
});
const datasets = Number(values.datasets);

// The terms of every dataset's name, description and columns, as the index tokenizes them.
const vocabulary = new Set<string>();
for (let index = 0; index < datasets; index++) {
  const { name, description } = datasetText(index);
  for (const text of [name, description]) for (const term of tokenize(text)) vocabulary.add(term);
  for (let column = 0; column < 20; column++)
    for (const text of [columnPath(index, column), columnDescription(index, column)])
      for (const term of tokenize(text)) vocabulary.add(term);
}

// Distinct query words per number of edits, picked from random datasets (so frequent words come first),
// each with a letter changed half the time, as a user's typo.
const random = seededRandom(7);
const byEdits = new Map<number, Set<string>>([
  [1, new Set()],
  [2, new Set()],
]);
for (let tries = 0; tries < 1_000_000; tries++) {
  const pool = datasetText(Math.floor(random() * datasets)).words;
  let word = pool[Math.floor(random() * pool.length)]!;
  if (random() < 0.5) {
    const at = Math.floor(random() * word.length);
    word = word.slice(0, at) + 'xyzqe'[Math.floor(random() * 5)] + word.slice(at + 1);
  }
  const set = byEdits.get(fuzzyEdits(word));
  if (set !== undefined && set.size < Number(values.words)) set.add(word);
  if ([...byEdits.values()].every((set) => set.size >= Number(values.words))) break;
}

console.log(`${vocabulary.size} terms; ${[...byEdits].map(([e, s]) => `${s.size} words of ${e} edit(s)`).join(', ')}`);
for (let pass = 0; pass < Number(values.passes); pass++) {
  // A fresh dictionary per pass: near() remembers its answers, and each word is asked once per pass.
  const dictionary = new TermDictionary();
  for (const term of vocabulary) dictionary.intern(term);
  dictionary.near('warmupword', 2);
  const line: string[] = [];
  for (const [edits, words] of byEdits) {
    let found = 0;
    let checksum = 0;
    const before = process.cpuUsage();
    for (const word of words)
      for (const [text, distance] of dictionary.near(word, edits)) {
        found++;
        checksum = (checksum * 31 + text.length * 7 + distance) | 0;
      }
    const used = process.cpuUsage(before);
    const micros = (used.user + used.system) / words.size;
    line.push(`${edits} edit(s): ${micros.toFixed(1)} µs/lookup, ${found} found, checksum ${checksum}`);
  }
  console.log(`pass ${pass + 1}: ${line.join('; ')}`);
}
