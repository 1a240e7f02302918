// Requests carrying huge values against a real server: a megabyte URN aliased a hundred times answers
// fast and short while /health keeps answering, and a megabyte in any string argument is refused cheaply.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';

import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const LINK = 'https://example.com/runbook';
const MEGABYTE = 1_000_000;
const HUGE_URN = `urn:li:${'A'.repeat(MEGABYTE)}`;
const ALIASES = 100;
// The bounds the issue asks for. Timings on a loaded machine stray, so the attack is tried up to
// ATTEMPTS times and must meet both bounds once; before the fix it held the event loop ~50 s every time.
const ANSWER_MS = 100;
const HEALTH_MS = 50;
const ATTEMPTS = 5;

interface Exchange {
  status: number;
  body: string;
  ms: number;
}

/** One request on its own connection, written as prepared bytes so the client does next to no work. */
function exchange(hub: TestServer, bytes: Buffer, onWritten: () => void = () => {}): Promise<Exchange> {
  const { hostname, port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 20 s')), 20_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1]);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), ms: performance.now() - started });
    });
    socket.write(bytes, onWritten);
  });
}

function postBytes(token: string, body: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(body));
  const head =
    `POST /api/graphql HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${json.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), json]);
}

const HEALTH = Buffer.from('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');

interface Attempt {
  answer: Exchange;
  /** The slowest /health answer among those asked while the attack was in flight. */
  healthMs: number;
}

/** Sends `bytes`; from the moment they are all written until the answer, asks /health every few ms. */
async function underAttack(hub: TestServer, bytes: Buffer): Promise<Attempt> {
  let answered = false;
  let healthMs = 0;
  let probes: Promise<void> = Promise.resolve();
  const probe = async () => {
    do {
      const health = await exchange(hub, HEALTH);
      assert.is(health.status, 200);
      healthMs = Math.max(healthMs, health.ms);
      await new Promise((resume) => setTimeout(resume, 2));
    } while (!answered);
  };
  const started = () => {
    probes = probe();
    // A failed probe can settle before the attack answers, or while it fails: handled from the start, so
    // node never sees an unhandled rejection; the failure is rethrown by the await below.
    probes.catch(() => {});
  };
  let answer: Exchange;
  try {
    answer = await exchange(hub, bytes, started);
  } finally {
    // Also when the attack fails: the probes stop, rather than outlive the test.
    answered = true;
  }
  await probes;
  return { answer, healthMs };
}

const attack = suite<{ hub: TestServer; readerToken: string }>('a megabyte urn aliased 100 times');

attack.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
  context.readerToken = await context.hub.createToken('carol'); // a Reader in the sample
});
attack.after(async ({ hub }) => hub?.close());

attack(
  `answers in under ${ANSWER_MS} ms with short messages while /health answers in under ${HEALTH_MS} ms`,
  async ({ hub, readerToken }) => {
    const query = `query q($u: String!) { ${Array.from({ length: ALIASES }, (_, i) => `a${i}: dataset(urn: $u) { urn }`).join(' ')} }`;
    const bytes = postBytes(readerToken, { query, variables: { u: HUGE_URN } });
    const attempts: Attempt[] = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      const attempt = await underAttack(hub, bytes);
      attempts.push(attempt);
      const { status, body } = attempt.answer;
      assert.is(status, 200);
      assert.ok(body.length < 64 * 1024, `the answer is ${body.length} bytes`);
      const { errors, data } = JSON.parse(body) as {
        errors: { message: string; extensions: { code: number } }[];
        data: Record<string, unknown>;
      };
      assert.is(errors.length, ALIASES);
      assert.equal(
        Object.values(data),
        Array.from({ length: ALIASES }, () => null),
      );
      for (const { message, extensions } of errors) {
        assert.ok(message.length < 300, `a message of ${message.length} characters`);
        assert.is(extensions.code, 400);
      }
      assert.match(
        errors[0]?.message ?? '',
        `Invalid urn "${HUGE_URN.slice(0, 100)}…": it is ${HUGE_URN.length} characters long`,
      );
      if (attempt.answer.ms < ANSWER_MS && attempt.healthMs < HEALTH_MS) break;
    }
    const timings = attempts
      .map(({ answer, healthMs }) => `answer ${answer.ms.toFixed(0)} ms, /health ${healthMs.toFixed(0)} ms`)
      .join('; ');
    assert.ok(
      attempts.some(({ answer, healthMs }) => answer.ms < ANSWER_MS && healthMs < HEALTH_MS),
      timings,
    );
  },
);

attack(
  'refuses it in every mutation before any privilege check, quoting it short and writing nothing',
  async ({ hub, readerToken }) => {
    const before = JSON.stringify(hub.store.export());
    const calls = [
      'updateDataset(urn: $u, input: {editableProperties: {description: "x"}}) { urn }',
      'updateDescription(input: {description: "x", resourceUrn: $u})',
      `addLink(input: {linkUrl: "${LINK}", label: "x", resourceUrn: $u})`,
      `removeLink(input: {linkUrl: "${LINK}", resourceUrn: $u})`,
      'createTag(input: {id: $u, name: "x"})',
      'createAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: ONE_HOUR, name: "x"}) { accessToken }',
    ];
    // revokeAccessToken returns Boolean!: its failure ends a mutation's serial run, so it comes last.
    const fields = [
      ...Array.from({ length: 97 }, (_, i) => `m${i}: ${calls[i % calls.length]}`),
      'm97: revokeAccessToken(tokenId: $u)',
    ];
    const reply = await exchange(
      hub,
      postBytes(readerToken, { query: `mutation m($u: String!) { ${fields.join(' ')} }`, variables: { u: HUGE_URN } }),
    );
    assert.is(reply.status, 200);
    assert.ok(reply.body.length < 64 * 1024, `the answer is ${reply.body.length} bytes`);
    const { errors } = JSON.parse(reply.body) as { errors: { message: string; extensions: { code: number } }[] };
    assert.is(errors.length, fields.length);
    for (const { message, extensions } of errors) {
      assert.ok(message.length < 300, `a message of ${message.length} characters`);
      assert.is(extensions.code, 400, message);
    }
    assert.is(JSON.stringify(hub.store.export()), before);
  },
);

attack.run();

// ---

/** One string slot filled with a megabyte: where it goes, and whether the field may still answer. */
interface HugeCase {
  label: string;
  query: string;
  variables: (value: string) => Record<string, unknown>;
  /** A query that may answer with data (a filter that matches nothing); mutations must all fail. */
  mayAnswer?: boolean;
  operationName?: (value: string) => string;
}

const DESCRIBE = 'mutation m($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';
const UPDATE =
  'mutation m($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }';
const TAG = 'mutation m($input: CreateTagInput!) { createTag(input: $input) }';
const ADD_LINK = 'mutation m($input: AddLinkInput!) { addLink(input: $input) }';
const REMOVE_LINK = 'mutation m($input: RemoveLinkInput!) { removeLink(input: $input) }';
const TOKEN = 'mutation m($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken } }';
const LIST = 'query l($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { total } }';
const author = 'urn:li:corpuser:datahub';
const token = { type: 'PERSONAL', actorUrn: author, duration: 'ONE_HOUR', name: 'x' };
const column = { description: 'x', resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'order_id' };

const CASES: HugeCase[] = [
  ...['dataset', 'container', 'tag', 'corpUser'].map((field): HugeCase => ({
    label: `${field}(urn)`,
    query: `query q($u: String!) { ${field}(urn: $u) { urn } }`,
    variables: (u) => ({ u }),
  })),
  {
    label: 'schemaMetadata(version: Long)',
    query: `query q($v: Long) { dataset(urn: "${ORDERS}") { schemaMetadata(version: $v) { name } } }`,
    variables: (v) => ({ v }),
  },
  { label: 'listAccessTokens filter field', query: LIST, variables: (field) => ({ input: { filters: [{ field }] } }) },
  {
    label: 'listAccessTokens filter value',
    query: LIST,
    variables: (value) => ({ input: { filters: [{ field: 'ownerUrn', value }] } }),
    mayAnswer: true,
  },
  {
    label: 'listAccessTokens filter values',
    query: LIST,
    variables: (value) => ({ input: { filters: [{ field: 'ownerUrn', values: [value] }] } }),
    mayAnswer: true,
  },
  {
    label: 'operationName',
    query: '{ me { corpUser { username } } }',
    variables: () => ({}),
    operationName: (name) => name,
  },
  {
    label: 'updateDataset urn',
    query: UPDATE,
    variables: (urn) => ({ urn, input: { editableProperties: { description: 'x' } } }),
  },
  {
    label: 'updateDataset description',
    query: UPDATE,
    variables: (description) => ({ urn: ORDERS, input: { editableProperties: { description } } }),
  },
  {
    label: 'updateDataset name',
    query: UPDATE,
    variables: (name) => ({ urn: ORDERS, input: { editableProperties: { description: 'x', name } } }),
  },
  {
    label: 'updateDataset link url',
    query: UPDATE,
    variables: (url) => ({
      urn: ORDERS,
      input: { institutionalMemory: { elements: [{ url, description: 'x', author }] } },
    }),
  },
  {
    label: 'updateDataset link description',
    query: UPDATE,
    variables: (description) => ({
      urn: ORDERS,
      input: { institutionalMemory: { elements: [{ url: LINK, description, author }] } },
    }),
  },
  {
    label: 'updateDataset link author',
    query: UPDATE,
    variables: (a) => ({
      urn: ORDERS,
      input: { institutionalMemory: { elements: [{ url: LINK, description: 'x', author: a }] } },
    }),
  },
  {
    label: 'updateDescription description',
    query: DESCRIBE,
    variables: (description) => ({ input: { ...column, description } }),
  },
  {
    label: 'updateDescription resourceUrn',
    query: DESCRIBE,
    variables: (resourceUrn) => ({ input: { description: 'x', resourceUrn } }),
  },
  {
    label: 'updateDescription subResource',
    query: DESCRIBE,
    variables: (subResource) => ({ input: { ...column, subResource } }),
  },
  {
    label: 'updateDescription subResourceType',
    query: DESCRIBE,
    variables: (subResourceType) => ({ input: { ...column, subResourceType } }),
  },
  {
    label: 'an input field named with it',
    query: DESCRIBE,
    variables: (name) => ({ input: { ...column, [name]: 'x' } }),
  },
  { label: 'createTag id', query: TAG, variables: (id) => ({ input: { id, name: 'x' } }) },
  { label: 'createTag name', query: TAG, variables: (name) => ({ input: { name } }) },
  { label: 'createTag description', query: TAG, variables: (description) => ({ input: { name: 'x', description } }) },
  {
    label: 'addLink linkUrl',
    query: ADD_LINK,
    variables: (linkUrl) => ({ input: { linkUrl, label: 'x', resourceUrn: ORDERS } }),
  },
  {
    label: 'addLink label',
    query: ADD_LINK,
    variables: (label) => ({ input: { linkUrl: LINK, label, resourceUrn: ORDERS } }),
  },
  {
    label: 'addLink resourceUrn',
    query: ADD_LINK,
    variables: (resourceUrn) => ({ input: { linkUrl: LINK, label: 'x', resourceUrn } }),
  },
  {
    label: 'removeLink linkUrl',
    query: REMOVE_LINK,
    variables: (linkUrl) => ({ input: { linkUrl, resourceUrn: ORDERS } }),
  },
  {
    label: 'removeLink resourceUrn',
    query: REMOVE_LINK,
    variables: (resourceUrn) => ({ input: { linkUrl: LINK, resourceUrn } }),
  },
  { label: 'createAccessToken actorUrn', query: TOKEN, variables: (actorUrn) => ({ input: { ...token, actorUrn } }) },
  { label: 'createAccessToken name', query: TOKEN, variables: (name) => ({ input: { ...token, name } }) },
  {
    label: 'createAccessToken description',
    query: TOKEN,
    variables: (description) => ({ input: { ...token, description } }),
  },
  { label: 'createAccessToken duration', query: TOKEN, variables: (duration) => ({ input: { ...token, duration } }) },
  {
    label: 'revokeAccessToken tokenId',
    query: 'mutation m($id: String!) { revokeAccessToken(tokenId: $id) }',
    variables: (id) => ({ id }),
  },
];

// Characters that take different paths: plain, multi-byte, escaped in JSON, trimmed, structural in a URN, astral.
const FILLS = ['A', 'é', '"', ' ', '(', '\\', '😀'];

const every = suite<{ hub: TestServer }>('a megabyte in every string argument');

every.before(async (context) => {
  context.hub = await startTestServer({ seed: [SAMPLE] });
});
every.after(async ({ hub }) => hub?.close());

every(
  'refuses each one (or answers it) with short messages that quote at most 100 characters, writing nothing',
  async ({ hub }) => {
    const before = JSON.stringify(hub.store.export());
    for (const [i, huge] of CASES.entries()) {
      const fill = FILLS[i % FILLS.length] as string;
      // Within the 1 MiB body limit however the character is encoded in JSON.
      const value = fill.repeat(Math.floor(MEGABYTE / Buffer.byteLength(JSON.stringify(fill).slice(1, -1))));
      const body = {
        query: huge.query,
        variables: huge.variables(value),
        ...(huge.operationName ? { operationName: huge.operationName(value) } : {}),
      };
      const reply = await exchange(hub, postBytes(hub.token, body));
      const where = `${huge.label} (${JSON.stringify(fill)} x ${value.length})`;
      assert.is(reply.status, 200, `${where}: ${reply.body.slice(0, 200)}`);
      assert.ok(reply.body.length < 4096, `${where}: an answer of ${reply.body.length} bytes`);
      // 100 characters, and the message's own quote marks around them.
      assert.not.ok(
        reply.body.includes(JSON.stringify(fill.repeat(103)).slice(1, -1)),
        `${where}: the answer quotes more than 100 characters`,
      );
      const { errors, data } = JSON.parse(reply.body) as {
        errors?: { message: string; extensions: Record<string, unknown> }[];
        data: Record<string, unknown> | null;
      };
      if (huge.mayAnswer === true) {
        assert.is(errors, undefined, where);
        continue;
      }
      assert.ok(errors !== undefined && errors.length > 0, `${where}: no error`);
      for (const { message, extensions } of errors) {
        // graphql-js prints the whole input object a variable held: its short fields, and 100 characters of the huge one.
        assert.ok(message.length < 600, `${where}: a message of ${message.length} characters`);
        assert.not.equal(extensions.code, 500, `${where}: ${message}`);
      }
      if (data !== null)
        assert.ok(
          Object.values(data).every((field) => field === null),
          `${where}: answered ${JSON.stringify(data).slice(0, 200)}`,
        );
    }
    assert.is(JSON.stringify(hub.store.export()), before);
  },
);

every.run();
