// Validated documents are shared by every server of a process with the same limits: a fresh server runs
// a query text the process already validated without parsing it again, and a server with other limits
// validates it under its own.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'graphql';

import { DocumentCache } from '../src/graphql/document-cache.ts';
import { DocumentValidator, rememberValid, rulesKey } from '../src/graphql/valid-document.ts';
import { resolveLimits, type Limits } from '../src/limits.ts';
import { SAMPLE, startTestServer } from './fixtures/server.ts';

const unit = suite('DocumentValidator and DocumentCache');

unit('keys a document by every limit it passed under: other limits validate it again', () => {
  const query = '{ a: me { corpUser { editableProperties { displayName } } } b: me { corpUser { username } } }';
  const passed = new DocumentValidator(resolveLimits({})).check(query);
  assert.ok('kind' in passed, 'valid under the default limits');
  assert.is(new DocumentValidator(resolveLimits({})).check(query), passed, 'the same document for the same limits');
  // Each limit alone, set just below what the query takes: a key without it would answer the document above.
  const refusals: [Partial<Limits>, string, RegExp][] = [
    [{ maxTokens: 20 }, 'syntax', /more than 20 tokens/],
    [{ maxDepth: 3 }, 'validation', /nests selections more than 3 deep/],
    [{ maxFields: 6 }, 'validation', /the limit is 6\b/],
    [{ maxAliases: 1 }, 'validation', /the limit is 1\b/],
  ];
  for (const [limits, phase, message] of refusals) {
    const refused = new DocumentValidator(resolveLimits(limits)).check(query);
    assert.ok(!('kind' in refused), `refused under ${JSON.stringify(limits)}`);
    assert.is(refused.phase, phase);
    assert.match(refused.errors[0]!.message, message);
    assert.is.not(rulesKey(resolveLimits(limits)), rulesKey(resolveLimits({})));
  }
});

unit('keeps no query longer than its limit, and stays within its entries', () => {
  const documents = new DocumentCache<string>({ maxEntries: 3, maxChars: 10_000, maxQueryChars: 40 });
  const long = `{ me { corpUser { username } } } # ${'x'.repeat(40)}`;
  documents.set(long, 'long');
  assert.is(documents.get(long), undefined);
  const queries = Array.from({ length: 5 }, (_, i) => `{ a${i}: me { corpUser { username } } }`);
  for (const query of queries) documents.set(query, query);
  assert.is(queries.filter((query) => documents.get(query) !== undefined).length, 3);
  assert.is(documents.get(queries[4]!), queries[4], 'the newest stays');
});

unit.run();

const servers = suite('validated documents across servers');

servers('a fresh server runs the document the process validated for that text, not a parse of its own', async () => {
  // A query text planted with another document: only a server that takes it from the shared store answers it so.
  const text = '{ me { corpUser { urn } } } # planted';
  rememberValid(resolveLimits({}), text, parse('{ me { corpUser { username } } }'));
  const hub = await startTestServer({ seed: [SAMPLE] });
  try {
    const reply = await hub.gql(text);
    assert.equal(reply.json.data, { me: { corpUser: { username: 'datahub' } } });
  } finally {
    await hub.close();
  }
});

servers('a server with other limits validates the same text under its own', async () => {
  const deep = '{ me { corpUser { editableProperties { displayName } } } }';
  const open = await startTestServer({ seed: [SAMPLE] });
  const strict = await startTestServer({ seed: [SAMPLE], limits: { maxDepth: 2 } });
  try {
    assert.is((await open.gql(deep)).status, 200);
    assert.equal((await open.gql(deep)).json.errors, undefined);
    const refused = await strict.gql(deep);
    assert.match(refused.json.errors[0].message, /nests selections more than 2 deep/);
  } finally {
    await Promise.all([open.close(), strict.close()]);
  }
});

servers.run();
