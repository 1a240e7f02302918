// DataHub's updateLink: a link matched by its current URL and label gets a new URL and label in its place,
// keeping who created it and when; DataHub's 403 for a Reader and 400s for a link that is not there, a
// duplicate or a bad URL, with nothing written. In process.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { JsonValue } from '../src/aspects/json.ts';
import { dataOf, FORBIDDEN, userWithRole } from './fixtures/datahub-records.ts';
import { openInProcess, type InProcessHub } from './fixtures/in-process.ts';
import { SAMPLE } from './fixtures/server.ts';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const SHOP_DB = 'urn:li:container:shop_db';

const ADD_LINK = 'mutation a($input: AddLinkInput!) { addLink(input: $input) }';
const UPDATE_LINK = 'mutation u($input: UpdateLinkInput!) { updateLink(input: $input) }';
const LINKS = `query l($urn: String!) { dataset(urn: $urn) { institutionalMemory { elements { url label created { actor } } } } }`;
const CONTAINER_LINKS = `query l($urn: String!) { container(urn: $urn) { institutionalMemory { elements { url label } } } }`;

// A Reader who owns nothing, in DataHub's file format.
const READER: JsonValue[] = [userWithRole('rita', 'Reader')];

async function links(hub: InProcessHub, urn = ORDERS) {
  return (await dataOf(hub, LINKS, { urn })).dataset.institutionalMemory?.elements ?? [];
}

const change = (from: [string, string], to: [string, string], resourceUrn = ORDERS) => ({
  input: { currentUrl: from[0], currentLabel: from[1], linkUrl: to[0], label: to[1], resourceUrn },
});

const RUNBOOK: [string, string] = ['https://wiki.example.com/orders', 'Runbook'];
const DASHBOARD: [string, string] = ['https://bi.example.com/orders', 'Dashboard'];

type Context = { hub: InProcessHub };

const update = suite<Context>('updateLink');
update.before.each(async (context) => {
  context.hub = await openInProcess({ seed: [SAMPLE, READER] });
  for (const [linkUrl, label] of [RUNBOOK, DASHBOARD]) {
    await dataOf(context.hub, ADD_LINK, { input: { linkUrl, label, resourceUrn: ORDERS } });
  }
});
update.after.each(async ({ hub }) => {
  await hub.close();
});

update('replaces the link in place, keeping its creator; the same update again still succeeds', async ({ hub }) => {
  const before = await links(hub);
  const start = before.findIndex((link: { url: string }) => link.url === RUNBOOK[0]);
  const renamed: [string, string] = ['https://wiki.example.com/orders-v2', 'Runbook v2'];
  assert.equal(await dataOf(hub, UPDATE_LINK, change(RUNBOOK, renamed, ORDERS), await hub.createToken('bob')), {
    updateLink: true,
  });
  const after = await links(hub);
  assert.equal(after.length, before.length);
  assert.equal(after[start], { url: renamed[0], label: renamed[1], created: before[start].created });
  assert.ok(after.some((link: { url: string }) => link.url === DASHBOARD[0]));
  // Only the label changes: the URL may stay; and an update to what is there already is no error.
  await dataOf(hub, UPDATE_LINK, change(renamed, [renamed[0], 'Runbook']));
  await dataOf(hub, UPDATE_LINK, change([renamed[0], 'Runbook'], [renamed[0], 'Runbook']));
  assert.equal((await links(hub))[start].label, 'Runbook');
});

update('works on a container', async ({ hub }) => {
  await dataOf(hub, ADD_LINK, { input: { linkUrl: RUNBOOK[0], label: RUNBOOK[1], resourceUrn: SHOP_DB } });
  await dataOf(hub, UPDATE_LINK, change(RUNBOOK, DASHBOARD, SHOP_DB));
  const { elements } = (await dataOf(hub, CONTAINER_LINKS, { urn: SHOP_DB })).container.institutionalMemory;
  assert.equal(elements, [{ url: DASHBOARD[0], label: DASHBOARD[1] }]);
});

update('a Reader is refused with DataHub 403 and nothing changes', async ({ hub }) => {
  const rita = await hub.createToken('rita');
  const records = hub.store.recordCount;
  const reply = await hub.gql(UPDATE_LINK, change(RUNBOOK, ['https://x.example', 'x']), rita);
  assert.equal(reply.json.errors?.[0]?.message, FORBIDDEN.message);
  assert.equal(reply.json.errors?.[0]?.extensions, FORBIDDEN.extensions);
  assert.is(reply.json.data.updateLink, null);
  assert.is(hub.store.recordCount, records);
});

update(
  'a link not there, a duplicate, a bad URL or a missing entity is a 400, and nothing changes',
  async ({ hub }) => {
    const records = hub.store.recordCount;
    const cases: [Record<string, unknown>, string][] = [
      [
        change([RUNBOOK[0], 'Wrong label'], ['https://x.example', 'x']),
        `Failed to update the link '${RUNBOOK[0]}' with label 'Wrong label'. The link does not exist`,
      ],
      [change(RUNBOOK, DASHBOARD), `The link '${DASHBOARD[0]}' with label '${DASHBOARD[1]}' already exists`],
      [change(RUNBOOK, ['not a url', 'x']), 'is not an absolute URL'],
      [
        change(RUNBOOK, DASHBOARD, 'urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD)'),
        'urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD) does not exist.',
      ],
      [change(RUNBOOK, DASHBOARD, 'urn:li:tag:pii'), 'minihub keeps links on dataset and container entities'],
    ];
    for (const [variables, message] of cases) {
      const reply = await hub.gql(UPDATE_LINK, variables);
      const error = reply.json.errors?.[0];
      assert.ok(error?.message.includes(message), `${JSON.stringify(error)} should say ${message}`);
      assert.equal(error.extensions.code, 400);
    }
    assert.is(hub.store.recordCount, records);
  },
);

update.run();
