// The words of the bench catalogue's datasets: name, description and columns, each a pure function of the
// dataset's index (a hash of index and position, no state), so the bench can build queries that hit.
// Never writes anything; catalogue.ts turns these into records.
//
// How they were chosen: 30,000 words, the ~200 real words of data catalogues ("order", "revenue",
// "customer"...) at the most frequent ranks interleaved with invented ones, drawn with Zipf-Mandelbrot
// frequencies (1 / (rank + 50)), the shape of words in natural text with its head flattened as a
// catalogue's domain words are. A word of a random dataset then matches (10,000 datasets) ~40 datasets at
// the first quartile, ~200 at the median, ~900 at the third and ~3,000 at the 95th percentile; three
// words of one dataset match it and a few others. Glue words ("the", "of"...) are in descriptions as in
// real ones, never queried.
// Descriptions are about as long as the bench's earlier fixed sentences, so reads answer as many bytes.

const REAL_WORDS = (
  'order customer payment invoice account user event visitor product price revenue sales daily weekly ' +
  'monthly hourly total amount count status region country city address email phone created updated ' +
  'deleted timestamp date inventory stock warehouse shipment delivery refund discount coupon campaign ' +
  'marketing click impression conversion funnel cohort retention churn subscription plan billing ledger ' +
  'balance transaction transfer currency exchange rate tax fee merchant vendor supplier partner employee ' +
  'department salary payroll budget forecast target metric dimension fact staging raw clean curated ' +
  'snapshot history audit log error latency request response device browser platform version release ' +
  'feature flag experiment variant score model prediction label training lake pipeline job batch stream ' +
  'topic partition offset schema view index source sink lineage owner team domain quality freshness ' +
  'volume row aggregate summary report dashboard chart kpi goal market segment tier premium trial store ' +
  'catalog item cart checkout visit page search query ticket support agent call contract lead ' +
  'opportunity pipeline quote loan card fraud risk claim policy patient visit clinic shift route fleet ' +
  'vehicle trip driver rider sensor reading meter energy usage alert incident deploy build commit repo'
).split(/\s+/);

const SYLLABLES = 'ka ro mi tu sel var bin dor fen gal hor jun lek mas nor pit quo ras sto tev ulm wex yor zan'.split(
  ' ',
);
const VOCABULARY_SIZE = 30_000;
/** Zipf-Mandelbrot's offset: the larger, the flatter the most frequent words. */
const FLATTEN = 50;
const GLUE = ['the', 'of', 'per', 'for', 'by', 'and'];

/** Column names end in one of these, one per column, so a table's paths never repeat. */
const SUFFIXES = (
  'id name code type status amount count date time key total value rate score flag label note source version ' +
  'region'
).split(' ');

/** Platforms and their shares of the datasets, in percent. */
export const PLATFORMS: readonly (readonly [string, number])[] = [
  ['postgres', 30],
  ['snowflake', 20],
  ['bigquery', 15],
  ['hive', 10],
  ['kafka', 10],
  ['mysql', 7],
  ['s3', 5],
  ['dbt', 3],
];

/** A uniform number in [0, 1) from (index, slot): murmur3's finaliser over both. */
function unit(index: number, slot: number): number {
  let h = Math.imul(index ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(slot + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

function vocabulary(): string[] {
  const real = new Set(REAL_WORDS);
  const invented: string[] = [];
  const seen = new Set<string>();
  for (let n = 0; invented.length < VOCABULARY_SIZE - real.size; n++) {
    const syllables = 2 + Math.floor(unit(n, 0) * 3);
    let word = '';
    for (let i = 1; i <= syllables; i++) word += SYLLABLES[Math.floor(unit(n, i) * SYLLABLES.length)];
    if (!real.has(word) && !seen.has(word)) {
      seen.add(word);
      invented.push(word);
    }
  }
  // The real words take every other of the most frequent ranks.
  const words: string[] = [];
  for (const word of real) words.push(word, invented.shift() as string);
  return [...words, ...invented];
}

const WORDS = vocabulary();
const CUMULATIVE = new Float64Array(WORDS.length);
for (let rank = 0, sum = 0; rank < WORDS.length; rank++) CUMULATIVE[rank] = sum += 1 / (rank + 1 + FLATTEN);

/** The word at (index, slot), by Zipf(1) frequency. */
function word(index: number, slot: number): string {
  const target = unit(index, slot) * (CUMULATIVE[CUMULATIVE.length - 1] as number);
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((CUMULATIVE[mid] as number) < target) low = mid + 1;
    else high = mid;
  }
  return WORDS[low] as string;
}

/** The dataset's platform (postgres, snowflake...), by the shares of PLATFORMS. */
export function platformOf(index: number): string {
  let share = unit(index, 1) * 100;
  for (const [platform, percent] of PLATFORMS) if ((share -= percent) < 0) return platform;
  return 'postgres';
}

/** A sentence of `low` to `high` words from `slot` on, glue words among them; `words` collects the others. */
function sentence(index: number, slot: number, low: number, high: number, words?: string[]): string {
  const length = low + Math.floor(unit(index, slot) * (high - low + 1));
  const parts: string[] = [];
  for (let k = 1; k <= length; k++) {
    if (unit(index, slot + 2 * k) < 0.2) parts.push(GLUE[Math.floor(unit(index, slot + 2 * k + 1) * 6)] as string);
    else {
      const picked = word(index, slot + 2 * k + 1);
      parts.push(picked);
      words?.push(picked);
    }
  }
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The name (two or three words in snake_case) and description of dataset `index`, and their non-glue words. */
export function datasetText(index: number): { name: string; description: string; words: string[] } {
  const words: string[] = [];
  const nameLength = 2 + Math.floor(unit(index, 2) * 2);
  for (let k = 0; k < nameLength; k++) words.push(word(index, 3 + k));
  const name = words.join('_');
  const description = sentence(index, 10, 6, 12, words);
  return { name, description, words: [...new Set(words)] };
}

/** Column `column`'s path: a word and the column's own suffix (`customer_id`, `revenue_amount`). */
export function columnPath(index: number, column: number): string {
  const round = Math.floor(column / SUFFIXES.length);
  return `${word(index, 1000 + column)}_${SUFFIXES[column % SUFFIXES.length]}${round === 0 ? '' : round}`;
}

export function columnDescription(index: number, column: number): string {
  return sentence(index, 10_000 + column * 64, 5, 9);
}
