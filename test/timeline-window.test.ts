// getTimeline's window over a long history: the latest 100 transactions with the same semantic versions
// as listing every transaction from the oldest, at most MAX_CHANGES_PER_TRANSACTION changes each. Pure:
// src/history/timeline.ts over steps built here, no store.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { changeEvents, type ChangeCategory } from '../src/history/change-events.ts';
import type { HistoryStep } from '../src/history/history-index.ts';
import type { TrackedChange } from '../src/history/tracked-records.ts';
import { MAX_CHANGES_PER_TRANSACTION, timeline } from '../src/history/timeline.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const ROOT = 'urn:li:corpuser:datahub';
const CATEGORIES: (ChangeCategory[] | null)[] = [null, ['TAG'], ['DOCUMENTATION'], ['TAG', 'DOCUMENTATION'], []];

/** Every transaction from the oldest, then the last 100: what getTimeline answered before the window. */
function everyTransaction(steps: readonly HistoryStep[], categories: readonly string[] | null) {
  const answer: { time: number; version: string; modifiers: (string | null)[] }[] = [];
  let version: [number, number, number] | null = null;
  for (const { time, changes } of steps) {
    const events = changes
      .flatMap(({ urn, aspect, before, value }) => changeEvents(urn, aspect, before, value))
      .filter((event) => categories === null || categories.includes(event.category));
    if (events.length === 0) continue;
    const minor = events.some((event) => event.semVer === 'MINOR');
    version = version === null ? [0, 0, 0] : minor ? [version[0], version[1] + 1, 0] : [0, version[1], version[2] + 1];
    answer.push({ time, version: `${version.join('.')}-computed`, modifiers: events.map((e) => e.modifier) });
  }
  return answer.slice(-100);
}

/** A history of `count` random edits of the four tracked aspects (seeded: the same every run). */
function randomHistory(count: number, seed: number): HistoryStep[] {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
  const values = new Map<string, JsonValue>();
  const steps: HistoryStep[] = [];
  for (let time = 1; time <= count; time++) {
    const kind = random(5);
    const [aspect, value]: [string, JsonValue] =
      kind === 0
        ? ['editableDatasetProperties', { description: `d${random(3)}` }]
        : kind === 1
          ? ['globalTags', { tags: [random(3), random(3)].map((n) => ({ tag: `urn:li:tag:t${n}` })) }]
          : kind === 2
            ? ['institutionalMemory', { elements: [{ url: `https://l${random(2)}`, description: `L${random(2)}` }] }]
            : [
                'editableSchemaMetadata',
                { editableSchemaFieldInfo: [{ fieldPath: `c${random(2)}`, description: `c${random(2)}` }] },
              ];
    const before = values.get(aspect);
    values.set(aspect, value);
    const changes: TrackedChange[] = [{ urn: ORDERS, aspect, value, before }];
    steps.push({ time, actor: ROOT, changes });
  }
  return steps;
}

const window = suite('the latest transactions of a long history');

window('the same transactions and semantic versions as listing all of them, for every category asked', () => {
  for (const count of [0, 3, 99, 100, 101, 250, 600]) {
    const steps = randomHistory(count, count + 7);
    for (const categories of CATEGORIES) {
      const expected = everyTransaction(steps, categories);
      const actual = timeline(steps, categories).map(({ timestampMillis, lastSemanticVersion, changes }) => ({
        time: timestampMillis,
        version: lastSemanticVersion,
        modifiers: changes.map(({ modifier }) => modifier),
      }));
      assert.equal(actual, expected, `${count} steps, categories ${JSON.stringify(categories)}`);
      // Asked again, the older steps' weights come from what the first question kept: still the same.
      assert.equal(
        timeline(steps, categories).map(({ lastSemanticVersion }) => lastSemanticVersion),
        expected.map(({ version }) => version),
      );
    }
  }
});

window(`a transaction lists at most ${MAX_CHANGES_PER_TRANSACTION} changes; its version counts them all`, () => {
  const columns = (count: number, description: string): JsonValue => ({
    editableSchemaFieldInfo: Array.from({ length: count }, (_, n) => ({ fieldPath: `c${n}`, description })),
  });
  const wide = 1_500;
  const steps: HistoryStep[] = [
    {
      time: 1,
      actor: ROOT,
      changes: [{ urn: ORDERS, aspect: 'editableSchemaMetadata', value: columns(wide, 'a'), before: undefined }],
    },
    {
      time: 2,
      actor: ROOT,
      changes: [
        { urn: ORDERS, aspect: 'editableSchemaMetadata', value: columns(wide, 'b'), before: columns(wide, 'a') },
      ],
    },
  ];
  const [added, modified] = timeline(steps, null);
  assert.is(added?.changes.length, MAX_CHANGES_PER_TRANSACTION);
  assert.is(modified?.changes.length, MAX_CHANGES_PER_TRANSACTION);
  assert.is(modified?.changes[0]?.modifier, 'c0', 'the first columns in fieldPath order');
  assert.equal([added?.lastSemanticVersion, modified?.lastSemanticVersion], ['0.0.0-computed', '0.0.1-computed']);
  // Column descriptions first, then column tags: asked for tags alone, the first 1,000 tags still show.
  const tagged: JsonValue = {
    editableSchemaFieldInfo: Array.from({ length: wide }, (_, n) => ({
      fieldPath: `c${n}`,
      description: 'c',
      globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
    })),
  };
  const both: HistoryStep = {
    time: 3,
    actor: ROOT,
    changes: [{ urn: ORDERS, aspect: 'editableSchemaMetadata', value: tagged, before: undefined }],
  };
  const [tags] = timeline([both], ['TAG']);
  assert.is(tags?.changes.length, MAX_CHANGES_PER_TRANSACTION);
  assert.ok(tags?.changes.every(({ category }) => category === 'TAG'));
  const [all] = timeline([both], null);
  assert.is(all?.changes.length, MAX_CHANGES_PER_TRANSACTION);
});

window.run();
