// The search part of `npm run bench`: searchAcrossEntities at 8 connections with one- and three-word
// queries and a platform filter, a write searched for in the very next request, and the index build and
// search latency of a large catalogue just started. Queries come from catalogue-words.ts, so they hit.

import { datasetUrn } from './catalogue.ts';
import { datasetText, platformOf } from './catalogue-words.ts';
import { cpuSeconds, fmt, graphql, load, log, meanOf, quantile, type Measured, type Served } from './harness.ts';
import type { AndFilterInput } from '../../src/search/filters.ts';
import { seededRandom } from '../fixtures/seeded-random.ts';

/** What a search answer carries here: the web app's result list and facets, one page of 10. */
const SEARCH =
  'query search($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { start count total ' +
  'searchResults { entity { urn type ... on Dataset { name platform { name } properties { name description } } } ' +
  'matchedFields { name value } } facets { field displayName aggregations { value count } } } }';
const UPDATE = 'mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
export const SEARCH_CONNECTIONS = 8;
const TOTAL = /"total":(\d+)/;

/** The rows and summary lines a part adds to the report. */
export interface Report {
  rows: string[][];
  summary: string[];
}

export interface SearchRounds {
  datasets: number;
  /** Seconds per measured round, and of the unmeasured warm-up. */
  duration: number;
  warmup: number;
  rounds: number;
}

function searchInput(query: string, platform: string | null): object {
  const orFilters = platform === null ? [] : [{ and: [{ field: 'platform', values: [platform] }] }];
  return { types: [], query, start: 0, count: 10, orFilters };
}

/**
 * A search for `words` words of a random dataset (name and description, in random order), filtered on its
 * platform: as a user who remembers a table searches for it. The last word is also a prefix (as typed).
 */
export function searchBody(datasets: number, words: number): string {
  const index = Math.floor(Math.random() * datasets);
  const pool = datasetText(index).words;
  const picked: string[] = [];
  while (picked.length < Math.min(words, pool.length)) {
    const word = pool[Math.floor(Math.random() * pool.length)] as string;
    if (!picked.includes(word)) picked.push(word);
  }
  const input = searchInput(picked.join(' '), `urn:li:dataPlatform:${platformOf(index)}`);
  return JSON.stringify({ query: SEARCH, variables: { input } });
}

/** `count` search bodies as searchBody makes them, the same in every run: Math.random seeded while they are made. */
export function seededSearchBodies(count: number, words: number, datasets = 10_000): string[] {
  const random = Math.random;
  Math.random = seededRandom(0x2545f491);
  try {
    return Array.from({ length: count }, () => searchBody(datasets, words));
  } finally {
    Math.random = random;
  }
}

/** A search body's input, as the engine's scripts take it without GraphQL. */
export interface SearchInput {
  query: string;
  orFilters: AndFilterInput[];
}

/** The inputs of seededSearchBodies(count, words, datasets): the same searches, for scripts that skip GraphQL. */
export function seededSearchInputs(count: number, words: number, datasets = 10_000): SearchInput[] {
  return seededSearchBodies(count, words, datasets).map(
    (body) => (JSON.parse(body) as { variables: { input: SearchInput } }).variables.input,
  );
}

/** Sends one search and waits for its answer: a search waits for the index build, so after this it is complete. */
export async function waitForIndex(target: { url: string; token: string }): Promise<number> {
  const started = performance.now();
  const body = JSON.stringify({ query: SEARCH, variables: { input: searchInput('*', null) } });
  const answer = (await graphql(target, body)) as { data?: { searchAcrossEntities?: { total: number } } };
  if (answer.data?.searchAcrossEntities === undefined) throw new Error(`search failed: ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

/** Counts hits (the answers' totals) and answers with errors during a load. */
function hitCounter(): { totals: number[]; errors: number; onAnswer: (status: number, body: string) => void } {
  const counter = {
    totals: [] as number[],
    errors: 0,
    onAnswer: (status: number, body: string) => {
      const total = TOTAL.exec(body);
      if (status !== 200 || total === null || body.includes('"errors"')) counter.errors++;
      else counter.totals.push(Number(total[1]));
    },
  };
  return counter;
}

/** One- and three-word searches with a platform filter at 8 connections, alternating, after a warm-up of each. */
export async function searchLoad(target: Served, options: SearchRounds, report: Report): Promise<void> {
  const kinds = [
    { words: 1, name: 'one word' },
    { words: 3, name: 'three words' },
  ];
  const runs = new Map<number, { measured: Measured[]; totals: number[]; errors: number }>();
  for (const { words } of kinds) {
    await load(target, () => searchBody(options.datasets, words), {
      connections: SEARCH_CONNECTIONS,
      duration: options.warmup,
    });
    runs.set(words, { measured: [], totals: [], errors: 0 });
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const { words, name } of kinds) {
      const counter = hitCounter();
      const run = runs.get(words) as { measured: Measured[]; totals: number[]; errors: number };
      const measured = await load(target, () => searchBody(options.datasets, words), {
        connections: SEARCH_CONNECTIONS,
        duration: options.duration,
        onAnswer: counter.onAnswer,
      });
      run.measured.push(measured);
      run.totals.push(...counter.totals);
      run.errors += counter.errors + measured.failures;
      log(
        `  search ${name} round ${round}: ${fmt(measured.rps)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms`,
      );
    }
  }
  for (const { words, name } of kinds) {
    const { measured, totals, errors } = runs.get(words) as { measured: Measured[]; totals: number[]; errors: number };
    const { rps, p50, p99, cpu } = meanOf(measured);
    const hits = `hits: median ${fmt(quantile(totals, 0.5))}, p90 ${fmt(quantile(totals, 0.9))}`;
    report.rows.push([
      `search, ${name} + platform filter, ${fmt(options.datasets)} datasets x 20 columns, ${SEARCH_CONNECTIONS} connections`,
      `${fmt(rps)} req/s`,
      `${hits}; ${errors} failed`,
      '',
      `${fmt(p50, 1)} / ${fmt(p99, 1)} ms`,
      `${fmt(cpu * 100)}%`,
      'p50 ≤ 2 ms, p99 ≤ 20 ms',
    ]);
    report.summary.push(
      `search ${name} (${fmt(options.datasets)}): ${fmt(rps)} req/s, p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms, ${hits}, failures ${errors}`,
    );
  }
}

/** `pairs` times: a dataset's description gets a word never seen, then at once a search for that word. */
export async function writeThenSearch(target: Served, datasets: number, pairs: number, report: Report): Promise<void> {
  let found = 0;
  const elapsed: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const index = Math.floor(Math.random() * datasets);
    const urn = datasetUrn(index);
    const word = `fresh${pair}q${Math.random().toString(36).slice(2, 8)}`;
    const started = performance.now();
    const input = { resourceUrn: urn, description: `Rows now also carry ${word} values.` };
    const written = (await graphql(target, JSON.stringify({ query: UPDATE, variables: { input } }))) as {
      data?: { updateDescription?: boolean };
    };
    if (written.data?.updateDescription !== true) throw new Error(`write failed: ${JSON.stringify(written)}`);
    const answer = (await graphql(
      target,
      JSON.stringify({ query: SEARCH, variables: { input: searchInput(word, null) } }),
    )) as {
      data?: { searchAcrossEntities?: { searchResults: { entity: { urn: string } }[] } };
    };
    elapsed.push(performance.now() - started);
    if (answer.data?.searchAcrossEntities?.searchResults.some((result) => result.entity.urn === urn) === true) found++;
  }
  report.rows.push([
    'a write visible to search in the next request (updateDescription with a new word, then a search for it)',
    `${found} of ${pairs} found`,
    `write + search: p50 ${fmt(quantile(elapsed, 0.5), 1)} ms`,
    '',
    '',
    '',
    'all',
  ]);
  report.summary.push(`write then search: ${found} of ${pairs} found at once`);
}

/** `count` searches of `words` words one after another (one connection): each one's own latency, hits and the server's CPU. */
export async function sequentialSearches(
  target: Served,
  datasets: number,
  count: number,
  words = 1,
): Promise<{ p50: number; p99: number; hits: number; cpu: number }> {
  const latencies: number[] = [];
  const totals: number[] = [];
  const cpuBefore = cpuSeconds(target.child.pid as number);
  const wallBefore = performance.now();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = (await graphql(target, searchBody(datasets, words))) as {
      data?: { searchAcrossEntities?: { total: number } };
    };
    latencies.push(performance.now() - started);
    const total = answer.data?.searchAcrossEntities?.total;
    if (total === undefined) throw new Error(`search failed: ${JSON.stringify(answer)}`);
    totals.push(total);
  }
  const cpu = (cpuSeconds(target.child.pid as number) - cpuBefore) / ((performance.now() - wallBefore) / 1000);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), hits: quantile(totals, 0.5), cpu };
}

/** One search at a time, one and three words: what a search costs without the queue of 8 connections before it. */
export async function searchOneAtATime(target: Served, datasets: number, count: number, report: Report): Promise<void> {
  for (const [words, name] of [
    [1, 'one word'],
    [3, 'three words'],
  ] as const) {
    const { p50, p99, hits, cpu } = await sequentialSearches(target, datasets, count, words);
    report.rows.push([
      `search, ${name} + platform filter, ${fmt(datasets)} datasets x 20 columns, one at a time`,
      `${fmt(count)} searches`,
      `median hits ${fmt(hits)}`,
      '',
      `${fmt(p50, 1)} / ${fmt(p99, 1)} ms`,
      `${fmt(cpu * 100)}%`,
      '(for scale)',
    ]);
    report.summary.push(
      `search ${name} one at a time (${fmt(datasets)}): p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms`,
    );
  }
}
