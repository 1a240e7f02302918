// Validated documents are shared by every server of a process with the same limits: a fresh server runs
// a query text the process already validated without parsing it again, and a server with other limits
// validates it under its own.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'graphql';

import { ValidatedDocuments } from '../src/graphql/document-cache.ts';
import { validatedDocuments } from '../src/graphql/execute-request.ts';
import { DEFAULT_LIMITS } from '../src/limits.ts';
import { SAMPLE, startTestServer } from './fixtures/server.ts';

const DEFAULT_RULES = `${DEFAULT_LIMITS.maxTokens} ${DEFAULT_LIMITS.maxDepth} ${DEFAULT_LIMITS.maxFields} ${DEFAULT_LIMITS.maxAliases}`;

const unit = suite('ValidatedDocuments');

unit('keeps a document under the limits it was validated against, and only those', () => {
  const documents = new ValidatedDocuments({ maxEntries: 10, maxChars: 10_000, maxQueryChars: 100 });
  const document = parse('{ me { corpUser { username } } }');
  documents.set('20 20', '{ me { corpUser { username } } }', document);
  assert.is(documents.get('20 20', '{ me { corpUser { username } } }'), document);
  assert.is(documents.get('20 10', '{ me { corpUser { username } } }'), undefined);
  assert.is(documents.get('20 20', '{ me { corpUser { urn } } }'), undefined);
});

unit('keeps no query longer than its limit, and stays within its entries', () => {
  const documents = new ValidatedDocuments({ maxEntries: 3, maxChars: 10_000, maxQueryChars: 40 });
  const long = `{ me { corpUser { username } } } # ${'x'.repeat(40)}`;
  documents.set('r', long, parse(long));
  assert.is(documents.get('r', long), undefined);
  const queries = Array.from({ length: 5 }, (_, i) => `{ a${i}: me { corpUser { username } } }`);
  for (const query of queries) documents.set('r', query, parse(query));
  assert.is(queries.filter((query) => documents.get('r', query) !== undefined).length, 3);
  assert.ok(documents.get('r', queries[4]!) !== undefined, 'the newest stays');
});

unit.run();

const servers = suite('validated documents across servers');

servers('a fresh server runs the document the process validated for that text, not a parse of its own', async () => {
  // A query text planted with another document: only a server that takes it from the shared store answers it so.
  const text = '{ me { corpUser { urn } } } # planted';
  validatedDocuments.set(DEFAULT_RULES, text, parse('{ me { corpUser { username } } }'));
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
    // And the other way round: the first to see it was the strict server, the open one still answers.
    const other = '{ me { corpUser { editableProperties { email } } } }';
    assert.match((await strict.gql(other)).json.errors[0].message, /nests selections more than 2 deep/);
    assert.equal((await open.gql(other)).json.errors, undefined);
  } finally {
    await Promise.all([open.close(), strict.close()]);
  }
});

servers.run();
