// `npx tsx test/bench/search-engines.ts [--datasets 10000] [--rounds 2] [--queries 2000]`:
// measures minihub's search engine (src/search's hand-written inverted index, behind the engine seam:
// BM25+ per field, every word required, prefix on the last word, fuzzy from 5 letters) on synthetic
// minihub-like search documents, with a platform filter after the engine as src/search/query.ts does.
// With MiniSearch installed (`npm install --no-save minisearch@7.2.0`) it also measures the seam as it was
// with MiniSearch, in the same run, and compares the two; without, it measures the hand-written one alone.
// `--datasets 100000` (or `--datasets 10000,100000`) for the large catalogue.
//
// Each (size, engine, round) runs in its own child process so that its heap and RSS growth are its
// own; rounds alternate the engines' order (A B, then B A) so drift on this shared 2-core machine
// falls on both. The documents are generated from a seeded PRNG, identical for both engines.
// test/bench/catalogue.ts's generators are not used for the text: its descriptions are the same
// sentence for every table ("Column N of table N"), which no ranking can be judged on; only its URNs are.
//
// Not part of `npm run bench`: it compares engines, not minihub.
//
// FlexSearch 0.8.212 was tried first as an alternative to MiniSearch and dropped: its Document index
// does field boosts (Resolver `boost`) and prefixes (`tokenize: 'forward'`), but has no edit-distance
// fuzzy matching: a one-letter typo ("ordres", "custmers") found nothing even with `Charset.LatinBalance`.

import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { FIELD_WEIGHTS, TEXT_FIELDS, type DocumentText, type TextField } from '../../src/search/fields.ts';
import { fieldTerms } from '../../src/search/field-terms.ts';
import { RankedMatches } from '../../src/search/ranked-matches.ts';
import { createSearchEngine, type SearchEngine } from '../../src/search/search-engine.ts';
import { tokenize as tokenizeTerms } from '../../src/search/text.ts';
import { datasetUrn } from './catalogue.ts';
import { seededRandom } from '../fixtures/seeded-random.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// ---------------------------------------------------------------------------------------------
// The search document and the options both engines share.

export interface SearchDoc {
  id: string;
  name: string;
  qualifiedName: string;
  description: string;
  columns: string; // 20 "path: description" lines
  tags: string[];
  platform: string;
  origin: string;
  container: string;
  owners: string[];
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);
const TOP = 20;

/** Splits on anything that is not a letter or digit: markdown, underscores, dots and case go. */
function tokenize(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u);
}
function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length === 0 || STOP_WORDS.has(lower) ? null : lower;
}
function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(query)) {
    const term = processTerm(token);
    if (term) terms.push(term);
  }
  return terms;
}

// ---------------------------------------------------------------------------------------------
// Synthetic catalogue.

const REAL_WORDS = (
  'order orders customer customers payment payments invoice invoices account accounts user users event events ' +
  'session sessions product products price prices revenue sales daily weekly monthly hourly total totals amount ' +
  'count status region country city address email phone created updated deleted timestamp date time id key ' +
  'name type category inventory stock warehouse shipment shipments delivery returns refund refunds discount ' +
  'coupon campaign marketing click clicks impression impressions conversion funnel cohort retention churn ' +
  'subscription plan billing ledger balance transaction transactions transfer currency exchange rate tax fee ' +
  'merchant vendor supplier partner employee department salary payroll budget forecast target metric metrics ' +
  'dimension fact staging raw clean curated snapshot history audit log logs error errors latency request ' +
  'response device browser platform version release feature flag experiment variant score model prediction ' +
  'label training feature store lake warehouse pipeline job run batch stream kafka topic partition offset ' +
  'schema table column view index source sink lineage owner team domain quality freshness volume row rows ' +
  'aggregate aggregated summary report dashboard chart kpi goal region market segment tier premium free trial'
).split(/\s+/);

const SYLLABLES =
  'ka ro mi tu sel var bin dor fen gal hor jun lek mas nor pit quo ras sto tev ulm wex yor zan bra cli dro fli gru pla tri sna'.split(
    ' ',
  );

function makeVocabulary(random: () => number, size: number): string[] {
  const words = new Set(REAL_WORDS);
  while (words.size < size) {
    const syllables = 2 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  // The real words take the most frequent ranks, interleaved with some invented ones.
  const invented = [...words].slice(REAL_WORDS.length);
  const vocabulary: string[] = [];
  for (let i = 0; i < REAL_WORDS.length; i++) vocabulary.push(REAL_WORDS[i]!, invented[i]!);
  vocabulary.push(...invented.slice(REAL_WORDS.length));
  return vocabulary;
}

/** Samples ranks from a Zipf(1) distribution over `size` items. */
function zipf(random: () => number, size: number): () => number {
  const cumulative = new Float64Array(size);
  let sum = 0;
  for (let i = 0; i < size; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

const PLATFORMS = ['postgres', 'snowflake', 'bigquery', 'hive', 'kafka', 'mysql', 's3', 'dbt'];
const PLATFORM_SHARE = [0.3, 0.2, 0.15, 0.1, 0.1, 0.07, 0.05, 0.03];
const ORIGINS = ['PROD', 'PROD', 'PROD', 'DEV', 'QA'];

export function generateCatalogue(count: number, seed = 16): SearchDoc[] {
  const random = seededRandom(seed);
  const vocabulary = makeVocabulary(random, 20_000);
  const rank = zipf(random, vocabulary.length);
  const word = () => vocabulary[rank()];
  const words = (n: number, sep: string) => Array.from({ length: n }, word).join(sep);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const sentence = (low: number, high: number) => {
    const text = Array.from({ length: between(low, high) }, () => (random() < 0.25 ? 'the' : word())).join(' ');
    return text[0]!.toUpperCase() + text.slice(1) + '.';
  };
  const platform = () => {
    let r = random();
    for (let i = 0; i < PLATFORMS.length; i++) if ((r -= PLATFORM_SHARE[i]!) < 0) return PLATFORMS[i]!;
    return PLATFORMS[0]!;
  };
  const docs: SearchDoc[] = [];
  for (let index = 0; index < count; index++) {
    const name = words(between(2, 3), '_');
    const p = platform();
    const sentences = Array.from({ length: between(2, 4) }, () => sentence(8, 15));
    sentences[0] = `**${sentences[0]}**`;
    if (random() < 0.5)
      sentences.push(`See [the ${word()} runbook](https://wiki.example.com/${word()}) and \`${word()}_id\`.`);
    const columns: string[] = [];
    for (let c = 0; c < 20; c++) {
      const path = random() < 0.2 ? `${word()}.${words(between(1, 2), '_')}` : words(between(1, 2), '_');
      columns.push(`${path}: ${sentence(6, 12)}`);
    }
    docs.push({
      id: datasetUrn(index).replace('postgres', p),
      name,
      qualifiedName: `${word()}_db.${random() < 0.5 ? 'public' : word()}.${name}`,
      description: sentences.join(' '),
      columns: columns.join('\n'),
      tags: Array.from({ length: between(0, 3) }, () => `urn:li:tag:${word()}`),
      platform: p,
      origin: ORIGINS[between(0, ORIGINS.length - 1)]!,
      container: `urn:li:container:${between(0, 499)}`,
      owners: Array.from({ length: between(1, 2) }, () => `urn:li:corpuser:user_${between(0, 999)}`),
    });
  }
  return docs;
}

/** The ranking cases: the same rare word in a name (A), a description (C) and one column description (B). */
const RARE = 'zebraquill';
function rankingDocs(): SearchDoc[] {
  const base = {
    tags: [],
    platform: 'postgres',
    origin: 'PROD',
    container: 'urn:li:container:1',
    owners: ['urn:li:corpuser:user_1'],
  };
  const columns = (extra: string) =>
    Array.from({ length: 20 }, (_, c) => (c === 7 ? `note: ${extra}` : `field_${c}: A plain value of the row.`)).join(
      '\n',
    );
  return [
    {
      ...base,
      id: 'rank:B-column',
      name: 'ordinary_table',
      qualifiedName: 'shop.public.ordinary_table',
      description: 'Nothing special in the description.',
      columns: columns(`The ${RARE} code of the order.`),
    },
    {
      ...base,
      id: 'rank:C-description',
      name: 'plain_table',
      qualifiedName: 'shop.public.plain_table',
      description: `Rows of the ${RARE} feed, one per order.`,
      columns: columns('Nothing here.'),
    },
    {
      ...base,
      id: 'rank:A-name',
      name: `${RARE}_orders`,
      qualifiedName: `shop.public.${RARE}_orders`,
      description: 'Orders as they arrive, one row each.',
      columns: columns('Nothing here.'),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The engines: minihub's search engine seam, as src/search has it and as it was with MiniSearch.

interface Engine {
  build(docs: SearchDoc[]): void;
  /** Top `TOP` ids and the total of matches on `platform`, filtered after the engine as src/search/query.ts does. */
  search(query: string, platform: string | null): { ids: string[]; total: number };
  replace(doc: SearchDoc): void;
}

/** A bench document as minihub's search documents give it to the engine: a path and a description per column. */
function documentText(doc: SearchDoc): DocumentText {
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, ''])) as DocumentText;
  const columns = doc.columns.split('\n').map((line) => line.split(': '));
  return {
    ...text,
    name: doc.name,
    qualifiedName: doc.qualifiedName,
    id: doc.name,
    description: doc.description,
    tags: doc.tags.join('\n'),
    platform: doc.platform,
    origin: doc.origin,
    container: doc.container,
    owners: doc.owners.join('\n'),
    fieldPaths: columns.map(([path]) => path).join('\n'),
    fieldDescriptions: columns.map(([, description]) => description).join('\n'),
  };
}

function seamEngine(engine: SearchEngine<undefined>): Engine {
  const platforms = new Map<string, string>();
  return {
    build(docs) {
      for (const doc of docs) {
        platforms.set(doc.id, doc.platform);
        engine.put(doc.id, documentText(doc), undefined);
      }
    },
    // As src/search/query.ts does: filter the engine's unordered result, rank only the page shown.
    search(query, platform) {
      const result = engine.query(query);
      const urns: string[] = [];
      const scores: number[] = [];
      for (let i = 0; i < result.size; i++) {
        const id = result.id(i);
        if (platform !== null && platforms.get(id) !== platform) continue;
        urns.push(id);
        scores.push(result.scores[i]!);
      }
      const ranked = new RankedMatches(urns, Float64Array.from(scores), [], () => ({}));
      return { ids: ranked.slice(0, TOP).map((match) => match.urn), total: urns.length };
    },
    replace(doc) {
      engine.put(doc.id, documentText(doc), undefined);
    },
  };
}

/** The little of MiniSearch's API used here, typed locally since it is not a dependency. */
interface MiniSearchIndex {
  has(id: string): boolean;
  discard(id: string): void;
  add(doc: object): void;
  search(query: string, options?: object): { id: unknown; score: number; match: unknown }[];
  readonly documentCount: number;
}

const HAS_LETTER = /\p{L}/u;

/** src/search/search-engine.ts as it was with MiniSearch 7.2.0 (same terms, weights, AND, prefix, fuzzy). */
async function miniSearchSeam(): Promise<SearchEngine<undefined>> {
  const specifier = 'minisearch';
  const loaded = (await import(specifier)) as { default: new (options: object) => MiniSearchIndex };
  let pending: string[][] | null = null;
  const index = new loaded.default({
    idField: 'urn',
    fields: TEXT_FIELDS,
    tokenize: (text: string, field?: TextField) =>
      field === undefined ? tokenizeTerms(text) : (pending?.[TEXT_FIELDS.indexOf(field)] ?? tokenizeTerms(text)),
    processTerm: (term: string) => term,
    searchOptions: {
      boost: { ...FIELD_WEIGHTS },
      combineWith: 'AND',
      prefix: (_term: string, i: number, terms: string[]) => i === terms.length - 1,
      fuzzy: (term: string) => (term.length < 5 || !HAS_LETTER.test(term) ? false : term.length < 10 ? 1 : 2),
      maxFuzzy: 2,
    },
  });
  return {
    put(id, text) {
      if (index.has(id)) index.discard(id);
      pending = fieldTerms(text);
      try {
        index.add({ urn: id, ...text });
      } finally {
        pending = null;
      }
    },
    remove(id) {
      if (index.has(id)) index.discard(id);
    },
    query(query) {
      const hits = index.search(query);
      return {
        size: hits.length,
        scores: Float64Array.from(hits, (hit) => hit.score),
        id: (i) => hits[i]!.id as string,
        payload: () => undefined,
        matches: (i) => hits[i]!.match as Record<string, TextField[]>,
      };
    },
    get size() {
      return index.documentCount;
    },
  };
}

async function miniSearchInstalled(): Promise<boolean> {
  const specifier = 'minisearch';
  return import(specifier).then(
    () => true,
    () => false,
  );
}

// ---------------------------------------------------------------------------------------------
// One measurement (child process).

type Kind = 'one-word' | 'three-word' | 'prefix' | 'typo';
const KINDS: Kind[] = ['one-word', 'three-word', 'prefix', 'typo'];

function makeQueries(docs: SearchDoc[], count: number): { kind: Kind; query: string; platform: string }[] {
  const random = seededRandom(99);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  const wordsOf = (doc: SearchDoc) =>
    queryTerms(`${doc.name} ${doc.description} ${doc.columns}`).filter((w) => !/^\d+$/.test(w));
  const queries: { kind: Kind; query: string; platform: string }[] = [];
  for (let i = 0; i < count; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const doc = pick(docs);
    const words = wordsOf(doc);
    const long = words.filter((w) => w.length >= 6);
    let query: string;
    if (kind === 'one-word') query = pick(words);
    else if (kind === 'three-word') query = [pick(words), pick(words), pick(words)].join(' ');
    else if (kind === 'prefix') {
      const last = pick(long.length ? long : words);
      query = `${pick(words)} ${last.slice(0, Math.max(3, Math.ceil(last.length / 2)))}`;
    } else {
      const w = pick(long.length ? long : words);
      const at = 1 + Math.floor(random() * (w.length - 2));
      const other = String.fromCharCode(97 + ((w.charCodeAt(at) - 97 + 1 + Math.floor(random() * 24)) % 26));
      query = w.slice(0, at) + other + w.slice(at + 1); // one substitution, not on the first letter
    }
    queries.push({ kind, query, platform: random() < 0.8 ? doc.platform : pick(PLATFORMS) });
  }
  return queries;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mib = (bytes: number) => bytes / 1024 / 1024;

async function measure(engineName: string, datasets: number, queryCount: number) {
  const engine = seamEngine(engineName === 'minisearch' ? await miniSearchSeam() : createSearchEngine());
  const docs = [...rankingDocs(), ...generateCatalogue(datasets - 3)];
  const queries = makeQueries(docs.slice(3), queryCount);
  const side = Math.min(400, Math.floor(queryCount / 5)); // queries for warm-up (half) and agreement
  const load = loadavg()[0]!;
  gc();
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  engine.build(docs);
  const buildMs = performance.now() - t0;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  gc();
  gc();
  const heap1 = process.memoryUsage().heapUsed;
  const rss1 = process.memoryUsage().rss;

  // Warm-up, then ~2,000 queries with a platform filter.
  for (const q of queries.slice(0, side / 2)) engine.search(q.query, q.platform);
  const times: Record<Kind | 'all', number[]> = { 'one-word': [], 'three-word': [], prefix: [], typo: [], all: [] };
  let matches = 0;
  for (const q of queries) {
    const start = performance.now();
    const result = engine.search(q.query, q.platform);
    const ms = performance.now() - start;
    times[q.kind].push(ms);
    times.all.push(ms);
    matches += result.total;
  }
  const latency: Record<string, { p50: number; p99: number }> = {};
  for (const [kind, list] of Object.entries(times)) {
    list.sort((a, b) => a - b);
    latency[kind] = { p50: percentile(list, 50), p99: percentile(list, 99) };
  }
  // The same query without a filter, to see what the filter costs.
  const unfiltered: number[] = [];
  for (const q of queries.filter((q) => q.kind === 'one-word')) {
    const start = performance.now();
    engine.search(q.query, null);
    unfiltered.push(performance.now() - start);
  }
  unfiltered.sort((a, b) => a - b);
  // The top 10 of the first `side` queries, for the parent to compare the engines' answers.
  const tops = queries.slice(0, side).map((q) => engine.search(q.query, q.platform).ids.slice(0, 10));

  // Incremental update: 200 replacements cycling over 20 documents; each one's new word must be found
  // by the very next query, and the word the previous replacement of that document wrote must be gone.
  const targets = docs.slice(10, 30);
  const current = new Map(targets.map((d) => [d.id, d]));
  const updateMs: number[] = [];
  const nextQueryMs: number[] = [];
  let visible = 0;
  let staleGone = 0;
  const updates = 200;
  for (let k = 0; k < updates; k++) {
    const marker = `mark${k}q${k}`; // two edits from any other marker, and no marker's prefix
    const original = targets[k % targets.length]!;
    const updated = { ...original, description: `${original.description} Now also ${marker}.` };
    const start = performance.now();
    engine.replace(updated);
    updateMs.push(performance.now() - start);
    current.set(updated.id, updated);
    const qStart = performance.now();
    const found = engine.search(marker, null);
    nextQueryMs.push(performance.now() - qStart);
    if (found.total === 1 && found.ids[0] === updated.id) visible++;
    if (k >= targets.length) {
      const before = k - targets.length;
      const previous = engine.search(`mark${before}q${before}`, null);
      if (previous.total === 0) staleGone++;
    } else staleGone++;
  }
  updateMs.sort((a, b) => a - b);
  nextQueryMs.sort((a, b) => a - b);

  // Ranking: name beats description beats one column description, with the platform filter.
  const ranking: Record<string, string> = {};
  let rankingPass = true;
  for (const query of [RARE, 'zebraq', 'zebrqquill', `${RARE} order row`]) {
    const { ids } = engine.search(query, 'postgres');
    const order = ['rank:A-name', 'rank:C-description', 'rank:B-column'].map((id) => ids.indexOf(id));
    const below = (a: number, b: number) => a >= 0 && (b < 0 || a < b);
    // One word: name, then description, then column. Several words: the name's first, the rest may
    // be outranked by datasets matching the common words too.
    const ok = query.includes(' ')
      ? order[0] === 0
      : below(order[0]!, order[1]!) && below(order[1]!, order[2]!) && order[2]! >= 0;
    if (!ok) rankingPass = false;
    ranking[query] = order.map((at) => (at < 0 ? '-' : String(at + 1))).join('/') + (ok ? ' ok' : ' WRONG');
  }

  return {
    engine: engineName,
    datasets,
    load,
    buildMs,
    heapMiB: mib(heap1 - heap0),
    rssMiB: mib(rss1 - rss0),
    peakRssMiB: mib(peakRss),
    bytesPerDoc: (heap1 - heap0) / docs.length,
    latency,
    unfilteredOneWord: { p50: percentile(unfiltered, 50), p99: percentile(unfiltered, 99) },
    meanMatches: matches / queries.length,
    tops,
    update: { p50: percentile(updateMs, 50), p99: percentile(updateMs, 99), max: updateMs[updateMs.length - 1]! },
    nextQuery: { p50: percentile(nextQueryMs, 50), p99: percentile(nextQueryMs, 99) },
    visible: `${visible}/${updates}`,
    staleGone: `${staleGone}/${updates}`,
    ranking,
    rankingPass,
  };
}

type Result = Awaited<ReturnType<typeof measure>>;

// ---------------------------------------------------------------------------------------------
// The run: children, alternating order, one table.

const { values: options } = parseArgs({
  options: {
    datasets: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '1' },
    queries: { type: 'string', default: '2000' },
    child: { type: 'string' },
  },
});

if (options.child) {
  const result = await measure(options.child, Number(options.datasets), Number(options.queries));
  process.send!(result, () => process.exit(0));
} else {
  await orchestrate();
}

function runChild(engine: string, datasets: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(import.meta.url),
      ['--child', engine, '--datasets', String(datasets), '--queries', options.queries!],
      { execArgv: [...process.execArgv, '--max-old-space-size=8192'] },
    );
    let result: Result | undefined;
    child.on('message', (message) => (result = message as Result));
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${engine} child exited ${code}`))));
  });
}

async function orchestrate(): Promise<void> {
  const ENGINES = (await miniSearchInstalled()) ? ['minisearch', 'hand'] : ['hand'];
  const sizes = options.datasets!.split(',').map(Number);
  const rounds = Number(options.rounds);
  const f1 = (x: number) => x.toFixed(1);
  const f2 = (x: number) => x.toFixed(2);
  console.log(`search engines, ${cpus().length} cores, node ${process.version}, load ${loadavg().map(f2).join(' ')}`);
  console.log(
    `minihub's fields and weights ${JSON.stringify(FIELD_WEIGHTS)}; every word required; prefix on the last word; fuzzy 1 edit on words of 5-9 letters, 2 from 10; top ${TOP}; platform filter on every query; engines ${ENGINES.join(', ')}`,
  );
  for (const size of sizes) {
    const results: Result[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const engine of round % 2 === 0 ? ENGINES : [...ENGINES].reverse()) {
        const result = await runChild(engine, size);
        results.push(result);
        console.error(
          `  ${size} ${engine} round ${round + 1} done (load ${f2(result.load)}): ${JSON.stringify({ ...result, tops: undefined })}`,
        );
      }
    }
    console.log(
      `\n## ${size.toLocaleString('en')} datasets x 20 columns, ${rounds} round(s), ${options.queries} queries each`,
    );
    console.log(
      `| engine | round | load | build s | heap MiB | RSS MiB | peak RSS MiB | heap B/doc | 1-word p50/p99 ms | 3-word p50/p99 | prefix p50/p99 | typo p50/p99 | all p50/p99 | 1-word unfiltered p50 | matches/query | replace p50/p99/max ms | next query p50 ms | visible | stale gone | ranking A/C/B (name/desc/column) |`,
    );
    console.log('|' + ' --- |'.repeat(20));
    results.forEach((r, i) => {
      const l = r.latency;
      const pp = (k: string) => `${f2(l[k]!.p50)} / ${f2(l[k]!.p99)}`;
      console.log(
        `| ${r.engine} | ${Math.floor(i / ENGINES.length) + 1} | ${f2(r.load)} | ${f2(r.buildMs / 1000)} | ${f1(r.heapMiB)} | ${f1(r.rssMiB)} | ${f1(r.peakRssMiB)} | ${Math.round(r.bytesPerDoc)} | ${pp('one-word')} | ${pp('three-word')} | ${pp('prefix')} | ${pp('typo')} | ${pp('all')} | ${f2(r.unfilteredOneWord.p50)} | ${Math.round(r.meanMatches)} | ${f2(r.update.p50)} / ${f2(r.update.p99)} / ${f2(r.update.max)} | ${f2(r.nextQuery.p50)} | ${r.visible} | ${r.staleGone} | ${Object.entries(
          r.ranking,
        )
          .map(([q, v]) => `${q}: ${v}`)
          .join('; ')} |`,
      );
    });
    // Ratios hand / minisearch within each round, when both ran.
    if (ENGINES.length < 2) continue;
    console.log('\nratios hand / minisearch, per round (below 1: the hand-written index is cheaper or faster)');
    for (let round = 0; round < rounds; round++) {
      const pair = results.slice(round * 2, round * 2 + 2);
      const m = pair.find((r) => r.engine === 'minisearch')!;
      const h = pair.find((r) => r.engine === 'hand')!;
      const ratio = (a: number, b: number) => f2(a / b);
      console.log(
        `round ${round + 1}: build ${ratio(h.buildMs, m.buildMs)}, heap ${ratio(h.heapMiB, m.heapMiB)}, RSS ${ratio(h.rssMiB, m.rssMiB)}, ` +
          KINDS.map(
            (k) =>
              `${k} p50 ${ratio(h.latency[k]!.p50, m.latency[k]!.p50)} p99 ${ratio(h.latency[k]!.p99, m.latency[k]!.p99)}`,
          ).join(', ') +
          `, all p50 ${ratio(h.latency.all!.p50, m.latency.all!.p50)} p99 ${ratio(h.latency.all!.p99, m.latency.all!.p99)}, replace p50 ${ratio(h.update.p50, m.update.p50)}`,
      );
      // Do they answer alike? Overlap of the top 10 over the first `side` queries, and same first hit.
      let overlap = 0;
      let sameFirst = 0;
      m.tops.forEach((a, i) => {
        const b = new Set(h.tops[i]!);
        overlap += a.length ? a.filter((id) => b.has(id)).length / a.length : 1;
        if (a[0] === h.tops[i]![0]) sameFirst++;
      });
      console.log(
        `round ${round + 1} agreement: top-10 overlap ${f2(overlap / m.tops.length)}, same first hit ${sameFirst}/${m.tops.length}`,
      );
    }
  }
}
