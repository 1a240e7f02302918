// Tests for src/urn.ts: URN parsing, the rules DataHub always enforces, dataset keys and URN builders.
// Pure unit tests: no files, no server.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MinihubError, shown } from '../src/errors.ts';
import {
  FABRIC_TYPES,
  checkedEntityType,
  corpUserUrn,
  entityTypeOf,
  givenTagUrn,
  parseDatasetUrn,
  parseUrn,
  tagUrn,
} from '../src/urn.ts';

/** Runs fn, asserts it throws a BAD_REQUEST, and returns the message for further checks. */
function badRequestMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.instance(err, MinihubError);
    assert.is((err as MinihubError).code, 'BAD_REQUEST');
    return (err as MinihubError).message;
  }
  assert.unreachable('expected a BAD_REQUEST error');
  return '';
}

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)';

const parsing = suite('parseUrn: valid urns');

parsing('parses a single-part key into one part', () => {
  assert.equal(parseUrn('urn:li:corpuser:jdoe'), {
    urn: 'urn:li:corpuser:jdoe',
    entityType: 'corpuser',
    parts: ['jdoe'],
  });
});

parsing('parses a tuple key and keeps a nested urn whole', () => {
  const parsed = parseUrn(HIVE);
  assert.is(parsed.entityType, 'dataset');
  assert.equal(parsed.parts, ['urn:li:dataPlatform:hive', 'fct_users_deleted', 'PROD']);
});

parsing('keeps a nested urn with its own tuple whole inside a schemaField key', () => {
  const parsed = parseUrn(`urn:li:schemaField:(${HIVE},user_id)`);
  assert.is(parsed.entityType, 'schemaField');
  assert.equal(parsed.parts, [HIVE, 'user_id']);
});

parsing('keeps slashes, dots, colons and percent-encoded commas in key parts as they are', () => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:s3,project/root/events/logging_events%2Cbckp,PROD)';
  assert.equal(parseUrn(urn).parts, ['urn:li:dataPlatform:s3', 'project/root/events/logging_events%2Cbckp', 'PROD']);
  assert.equal(parseUrn('urn:li:corpuser:jdoe@example.com').parts, ['jdoe@example.com']);
  assert.equal(parseUrn('urn:li:tag:a:b').parts, ['a:b']);
});

parsing('accepts entity types minihub does not know', () => {
  assert.is(
    parseUrn('urn:li:mlFeature:(test_feature_table_all_feature_dtypes,test_BOOL_feature)').entityType,
    'mlFeature',
  );
});

parsing('accepts a schemaField urn longer than 512 bytes', () => {
  const urn = `urn:li:schemaField:(${HIVE},${'a'.repeat(600)})`;
  assert.is(parseUrn(urn).entityType, 'schemaField');
});

const rejecting = suite('parseUrn: invalid urns');

rejecting('rejects a urn without the urn:li: prefix', () => {
  const message = badRequestMessage(() => parseUrn('li:corpuser:jdoe'));
  assert.is(
    message,
    'Invalid urn "li:corpuser:jdoe": it does not start with "urn:li:"; expected urn:li:<entityType>:<key>',
  );
});

rejecting('rejects an entity type that does not start with a lower-case letter and suggests the fix', () => {
  const message = badRequestMessage(() => parseUrn('urn:li:Dataset:(urn:li:dataPlatform:hive,x,PROD)'));
  assert.match(message, 'the entity type "Dataset" must start with a-z');
  assert.match(message, 'did you mean "dataset"?');
  assert.match(message, 'expected urn:li:<entityType>:<key>');
});

rejecting('rejects an entity type with characters outside [A-Za-z0-9_]', () => {
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:corp-user:jdoe')),
    'the entity type "corp-user"',
  );
});

rejecting('rejects an empty entity type', () => {
  assert.match(
    badRequestMessage(() => parseUrn('urn:li::jdoe')),
    'the entity type is empty',
  );
});

rejecting('rejects an empty key', () => {
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:corpuser:')),
    'the key is empty',
  );
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:corpuser')),
    'the key is empty',
  );
});

rejecting('rejects mismatched parentheses', () => {
  for (const urn of [
    'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD',
    'urn:li:dataset:(urn:li:dataPlatform:hive,x),PROD)',
    'urn:li:dataset:((urn:li:dataPlatform:hive,x,PROD)',
    'urn:li:tag:legacy)',
  ]) {
    assert.match(
      badRequestMessage(() => parseUrn(urn)),
      'parentheses are mismatched',
      urn,
    );
  }
});

rejecting('rejects an empty tuple part and says which one', () => {
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)')),
    'part 2 of its key is empty',
  );
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:dataset:()')),
    'part 1 of its key is empty',
  );
});

rejecting('rejects leading or trailing whitespace', () => {
  assert.match(
    badRequestMessage(() => parseUrn(' urn:li:corpuser:jdoe')),
    'leading or trailing whitespace',
  );
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:corpuser:jdoe\n')),
    'leading or trailing whitespace',
  );
});

rejecting('rejects the reserved \u241F character', () => {
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:tag:a\u241Fb')),
    'U+241F',
  );
});

rejecting('rejects a urn longer than 512 bytes when URL-encoded', () => {
  const name = 'é'.repeat(100); // 600 bytes once percent-encoded, though only 100 characters
  const message = badRequestMessage(() => parseUrn(`urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`));
  assert.match(message, 'longer than 512 bytes');
});

rejecting('shortens a very long urn in the message', () => {
  const message = badRequestMessage(() => parseUrn(`urn:li:tag:${'x'.repeat(2000)}`));
  assert.ok(message.length < 400, message);
});

const datasets = suite('parseDatasetUrn');

datasets('parses a dataset urn with its platform, name and origin', () => {
  assert.equal(parseDatasetUrn(HIVE), {
    platform: 'urn:li:dataPlatform:hive',
    platformName: 'hive',
    name: 'fct_users_deleted',
    origin: 'PROD',
  });
});

datasets('accepts every FabricType as origin', () => {
  assert.is(FABRIC_TYPES.length, 12);
  for (const origin of FABRIC_TYPES) {
    assert.is(parseDatasetUrn(`urn:li:dataset:(urn:li:dataPlatform:kafka,topic,${origin})`).origin, origin);
  }
});

datasets('rejects an origin that is not a FabricType and lists the valid ones', () => {
  const message = badRequestMessage(() => parseDatasetUrn('urn:li:dataset:(urn:li:dataPlatform:hive,x,LIVE)'));
  assert.match(message, 'its origin "LIVE" is not a FabricType');
  assert.match(message, 'DEV, TEST, QA, UAT, EI, PRE, STG, NON_PROD, PROD, CORP, RVW, SANDBOX');
});

datasets('points out a lower-case origin, since urns are case-sensitive', () => {
  assert.match(
    badRequestMessage(() => parseDatasetUrn('urn:li:dataset:(urn:li:dataPlatform:hive,x,prod)')),
    'did you mean "PROD"?',
  );
});

datasets('rejects a urn of another entity type, suggesting dataset for a typo', () => {
  assert.match(
    badRequestMessage(() => parseDatasetUrn('urn:li:corpuser:jdoe')),
    'its entity type is "corpuser", not "dataset"',
  );
  assert.match(
    badRequestMessage(() => parseDatasetUrn('urn:li:datset:(urn:li:dataPlatform:hive,x,PROD)')),
    'did you mean "dataset"?',
  );
});

datasets('rejects a dataset key without exactly 3 parts', () => {
  assert.match(
    badRequestMessage(() => parseDatasetUrn('urn:li:dataset:(urn:li:dataPlatform:hive,x)')),
    'has 2 part(s), not 3',
  );
  assert.match(
    badRequestMessage(() => parseDatasetUrn('urn:li:dataset:fct_users')),
    'has 1 part(s), not 3',
  );
});

datasets('rejects a first part that is not a dataPlatform urn', () => {
  const message = badRequestMessage(() => parseDatasetUrn('urn:li:dataset:(hive,fct_users_deleted,PROD)'));
  assert.match(message, 'its platform "hive" is not a urn:li:dataPlatform:<platform> urn');
});

const helpers = suite('entityTypeOf and urn builders');

helpers('reads the entity type of a urn', () => {
  assert.is(entityTypeOf(HIVE), 'dataset');
  assert.is(entityTypeOf('urn:li:corpGroup:bfoo'), 'corpGroup');
});

helpers('throws a BAD_REQUEST for something that is not a urn', () => {
  assert.match(
    badRequestMessage(() => entityTypeOf('jdoe')),
    'does not start with "urn:li:"',
  );
});

helpers('builds corpuser and tag urns', () => {
  assert.is(corpUserUrn('jdoe'), 'urn:li:corpuser:jdoe');
  assert.is(corpUserUrn('jdoe@example.com'), 'urn:li:corpuser:jdoe@example.com');
  assert.is(tagUrn('Legacy'), 'urn:li:tag:Legacy');
});

helpers('percent-encodes reserved characters the way the DataHub SDK does', () => {
  assert.is(tagUrn('a,b(c)'), 'urn:li:tag:a%2Cb%28c%29');
});

helpers('rejects an empty username or tag id', () => {
  assert.match(
    badRequestMessage(() => corpUserUrn('')),
    'Invalid username ""',
  );
  assert.match(
    badRequestMessage(() => tagUrn('  ')),
    'Invalid tag id',
  );
});

helpers('checkedEntityType answers a URN checked before as the first time, and refuses a bad one every time', () => {
  const dataset = 'urn:li:dataset:(urn:li:dataPlatform:hive,remembered.table,PROD)';
  assert.is(checkedEntityType(dataset), 'dataset');
  assert.is(checkedEntityType(dataset), 'dataset');
  assert.is(checkedEntityType('urn:li:tag:remembered'), 'tag');
  assert.is(checkedEntityType('urn:li:tag:remembered'), 'tag');
  const bad = 'urn:li:dataset:(urn:li:dataPlatform:hive,remembered.table,NOPE)';
  for (let attempt = 0; attempt < 2; attempt++)
    assert.match(
      badRequestMessage(() => checkedEntityType(bad)),
      'NOPE',
    );
  // Past the count it remembers, every URN is still checked and answered.
  for (let index = 0; index < 17 * 1024; index++) checkedEntityType(`urn:li:tag:many${index}`);
  assert.is(checkedEntityType(dataset), 'dataset');
  assert.match(
    badRequestMessage(() => checkedEntityType(bad)),
    'NOPE',
  );
  const long = `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(300)},PRD)`;
  for (let attempt = 0; attempt < 2; attempt++)
    assert.match(
      badRequestMessage(() => checkedEntityType(long)),
      'PRD',
    );
});

const bounded = suite('limits before everything else, and short quotes');
const MEGABYTE = 1_000_000;

bounded('refuses a megabyte urn by its length alone, quoting 100 characters of it', () => {
  for (const urn of [
    `urn:li:${'A'.repeat(MEGABYTE)}`,
    `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(MEGABYTE)},PROD)`,
    ` ${'('.repeat(MEGABYTE)}`,
  ]) {
    const message = badRequestMessage(() => parseUrn(urn));
    assert.is(
      message,
      `Invalid urn "${urn.slice(0, 100)}…": it is ${urn.length} characters long; the limit is 512 bytes when URL-encoded; expected urn:li:<entityType>:<key>`,
    );
  }
});

bounded('checks the length first in every public function', () => {
  const urn = `urn:li:${'datset'.repeat(MEGABYTE / 6)}:x`;
  const calls: [string, () => unknown][] = [
    ['parseUrn', () => parseUrn(urn)],
    ['parseDatasetUrn', () => parseDatasetUrn(urn)],
    ['checkedEntityType', () => checkedEntityType(urn)],
    ['entityTypeOf', () => entityTypeOf(urn)],
    ['corpUserUrn', () => corpUserUrn(urn)],
    ['tagUrn', () => tagUrn(urn)],
    ['givenTagUrn', () => givenTagUrn(urn)],
  ];
  for (const [name, call] of calls) {
    const message = badRequestMessage(call);
    assert.match(message, `${urn.length} characters long`, name);
    assert.ok(message.length < 300, `${name}: ${message.length} characters`);
    assert.not.match(message, 'did you mean', name);
  }
});

bounded('refuses a urn over 512 characters before looking at its whitespace or prefix', () => {
  assert.match(
    badRequestMessage(() => parseUrn(' '.repeat(513))),
    '513 characters long',
  );
  assert.match(
    badRequestMessage(() => parseUrn(`li:${'x'.repeat(600)}`)),
    '603 characters long',
  );
  assert.match(
    badRequestMessage(() => corpUserUrn(' '.repeat(513))),
    'Invalid username',
  );
  assert.match(
    badRequestMessage(() => corpUserUrn(' '.repeat(513))),
    '513 characters long',
  );
});

bounded('gives schemaField urns, which DataHub exempts from 512 bytes, a cap of 16 KiB', () => {
  const prefix = `urn:li:schemaField:(${HIVE},`;
  const fits = `${prefix}${'a'.repeat(16 * 1024 - encodeURIComponent(prefix).length - 1)})`;
  assert.is(encodeURIComponent(fits).length, 16 * 1024);
  assert.is(parseUrn(fits).entityType, 'schemaField');
  assert.match(
    badRequestMessage(() => parseUrn(`${fits.slice(0, -1)}a)`)),
    'longer than 16384 bytes when URL-encoded',
  );
  const message = badRequestMessage(() => parseUrn(`${prefix}${'a'.repeat(MEGABYTE)})`));
  assert.match(message, 'the limit for a schemaField urn is 16384 bytes when URL-encoded');
  assert.ok(message.length < 300, message);
  // Encoded, an é is six bytes: 3,000 of them fit in 16 KiB of characters but not of encoded bytes.
  assert.match(
    badRequestMessage(() => parseUrn(`${prefix}${'é'.repeat(3000)})`)),
    'longer than 16384 bytes when URL-encoded',
  );
});

bounded('suggests an entity type only for a short one', () => {
  assert.match(
    badRequestMessage(() => parseUrn('urn:li:Datasett:x')),
    'did you mean "dataset"?',
  );
  const long = `urn:li:D${'a'.repeat(400)}:x`;
  const message = badRequestMessage(() => parseUrn(long));
  assert.not.match(message, 'did you mean');
  assert.match(message, `the entity type "D${'a'.repeat(99)}…" must start with a-z`);
});

bounded("quotes at most 100 characters of a dataset urn's platform or origin", () => {
  const platform = `p${'x'.repeat(300)}`;
  const origin = `O${'X'.repeat(300)}`;
  const badPlatform = badRequestMessage(() => parseDatasetUrn(`urn:li:dataset:(${platform},x,PROD)`));
  assert.match(badPlatform, `its platform "${platform.slice(0, 100)}…" is not`);
  const badOrigin = badRequestMessage(() => parseDatasetUrn(`urn:li:dataset:(urn:li:dataPlatform:hive,x,${origin})`));
  assert.match(badOrigin, `its origin "${origin.slice(0, 100)}…" is not a FabricType`);
});

bounded('shown() keeps short values whole and cuts long ones at 100 characters, never inside a surrogate pair', () => {
  assert.is(shown('x'.repeat(100)), 'x'.repeat(100));
  assert.is(shown('x'.repeat(101)), `${'x'.repeat(100)}…`);
  assert.is(shown(`${'x'.repeat(99)}😀${'x'.repeat(10)}`), `${'x'.repeat(99)}…`);
  assert.is(shown(`${'x'.repeat(98)}😀${'x'.repeat(10)}`), `${'x'.repeat(98)}😀…`);
});

bounded('givenTagUrn keeps the id as given and refuses an empty, padded or too long one', () => {
  assert.is(givenTagUrn('a,b'), 'urn:li:tag:a,b');
  assert.match(
    badRequestMessage(() => givenTagUrn('')),
    'tag id "" is not usable',
  );
  assert.match(
    badRequestMessage(() => givenTagUrn(' x')),
    'tag id " x" is not usable',
  );
  assert.match(
    badRequestMessage(() => givenTagUrn(`x${' '.repeat(600)}`)),
    '601 characters long',
  );
});

parsing.run();
rejecting.run();
datasets.run();
helpers.run();
bounded.run();
