// `minihub push` to a second minihub: afterwards reads on the second answer as on the first (DataHub's
// bootstrap file plus GraphQL edits), secrets never arrive, and a target killed mid-push is reported with
// how far the push got, then a re-run completes it. The push runs through the command line's core, in process.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { assertOneLineFailure, runCli, spawnServe } from './fixtures/cli.ts';
import { sdkHeaders, sdkProposal } from './fixtures/datahub-records.ts';
import {
  BOOTSTRAP,
  bootstrapAvailable,
  DATASET_QUERY,
  SAMPLE,
  startTestServer,
  tempDataDir,
  type TestServer,
} from './fixtures/server.ts';

const test = suite('push');

const TAGS_QUERY = `query t($urn: String!) { dataset(urn: $urn) { tags { tags { tag { urn name } } } } }`;

/** What a reader sees of `urn` on `hub`: the dataset query, its tags, and its REST entity. */
async function reads(hub: TestServer, urn: string) {
  const dataset = await hub.gql(DATASET_QUERY, { urn });
  const tags = await hub.gql(TAGS_QUERY, { urn });
  return { dataset: dataset.json, tags: tags.json };
}

/** A source data directory: `seed`, then edits over GraphQL, a stored token and a user's password hash. */
async function sourceDir(seed: string): Promise<{ dir: string; edited: string; datasets: string[] }> {
  const dir = tempDataDir();
  const hub = await startTestServer({ dataDir: dir, seed: [seed] });
  try {
    const datasets = [...hub.store.catalogue.urnsOfType('dataset')];
    const edited = datasets[0] as string;
    const input = (fields: string) => `{${fields}, resourceUrn: ${JSON.stringify(edited)}}`;
    for (const mutation of [
      `mutation { updateDescription(input: ${input('description: "pushed along"')}) }`,
      'mutation { createTag(input: {id: "pushed", name: "pushed"}) }',
      `mutation { addTag(input: ${input('tagUrn: "urn:li:tag:pushed"')}) }`,
      `mutation { addLink(input: ${input('linkUrl: "https://wiki.example/pushed", label: "Runbook"')}) }`,
    ]) {
      const reply = await hub.gql(mutation);
      assert.is(reply.json.errors, undefined, JSON.stringify(reply.json));
    }
    await hub.createToken('datahub');
    const credentials = sdkProposal('urn:li:corpuser:datahub', 'corpUserCredentials', {
      salt: 'pushed-salt',
      hashedPassword: 'pushed-hash',
    });
    const written = await hub.request('/aspects?action=ingestProposal', {
      method: 'POST',
      headers: sdkHeaders(hub.token),
      body: JSON.stringify({ proposal: credentials }),
    });
    assert.is(written.status, 200, written.text);
    return { dir, edited, datasets };
  } finally {
    await hub.close();
  }
}

test('push copies bootstrap_mce.json and GraphQL edits to a second minihub; secrets stay behind', async () => {
  if (!bootstrapAvailable('push of bootstrap_mce.json')) return;
  const { dir, edited, datasets } = await sourceDir(BOOTSTRAP);
  const target = await startTestServer();
  let source: TestServer | undefined;
  try {
    const pushed = await runCli(['push', '--to', target.url, '--data', dir, '--batch', '40'], {
      MINIHUB_TOKEN: target.token,
    });
    assert.is(pushed.code, 0, pushed.stderr);
    assert.match(
      pushed.stdout,
      /^pushing the catalogue \(\d+ aspects\) to http:\S+\npushed \d+ aspects of \d+ entities in \d+ batches to http:\S+ in [\d.]+ s.*; left out \(never pushed\): 1 access token, 1 user password\n$/,
    );

    source = await startTestServer({ dataDir: dir });
    for (const urn of datasets) assert.equal(await reads(target, urn), await reads(source, urn), urn);
    const mine = await reads(target, edited);
    assert.is(mine.dataset.data.dataset.editableProperties.description, 'pushed along');
    const links = mine.dataset.data.dataset.institutionalMemory.elements.map((link: { url: string }) => link.url);
    assert.ok(links.includes('https://wiki.example/pushed'), links.join());
    assert.equal(mine.tags.data.dataset.tags.tags[0].tag, { urn: 'urn:li:tag:pushed', name: 'pushed' });
    // Every aspect but the secrets is on the target, the same.
    const secrets = new Set(['dataHubAccessToken']);
    for (const { entityUrn, entityType, aspectName, aspect } of source.store.export()) {
      if (secrets.has(entityType) || aspectName === 'corpUserCredentials') continue;
      assert.equal(target.store.catalogue.aspect(entityUrn, aspectName), aspect.json, `${entityUrn} ${aspectName}`);
    }
    assert.is([...target.store.catalogue.urnsOfType('dataHubAccessToken')].length, 0);
    assert.is(target.store.catalogue.aspect('urn:li:corpuser:datahub', 'corpUserCredentials'), undefined);
    assert.not.match(JSON.stringify(target.store.export()), /pushed-hash|pushed-salt/);
  } finally {
    await target.close();
    await source?.close();
  }
});

/** Forwards to `target` until `passes` requests went through, then calls `kill` and drops the next connection. */
async function killingProxy(target: () => string, passes: number, kill: () => Promise<unknown>): Promise<Server> {
  let seen = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (++seen > passes) {
        await kill();
        req.socket.destroy();
        return;
      }
      const answer = await fetch(`${target()}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test('a target killed mid-push is reported with how far the push got; running it again completes it', async () => {
  const { dir } = await sourceDir(SAMPLE);
  const targetDir = tempDataDir();
  const serving = await spawnServe(['--data', targetDir, '--port', '0']);
  const token = /auth {4}on\..*\n\s+(\S+)/.exec(serving.banner)?.[1] as string;
  const proxy = await killingProxy(
    () => serving.url,
    5,
    () => serving.stop('SIGKILL'),
  );
  let target: TestServer | undefined;
  try {
    const { port } = proxy.address() as AddressInfo;
    const via = `http://127.0.0.1:${port}`;
    const stopped = await runCli([
      'push',
      '--to',
      via,
      '--token',
      token,
      '--data',
      dir,
      '--batch',
      '3',
      '--retries',
      '0',
    ]);
    assert.match(stopped.stdout, /^pushing the catalogue \(\d+ aspects\) to http:\S+\n$/);
    assertOneLineFailure(
      { ...stopped, stdout: '' },
      1,
      /^minihub: push stopped: cannot reach http:\S+: the connection closed before an answer; 5 batches \(15 aspects\) were acknowledged; pushes only upsert, so running the same command again completes it$/,
    );
  } finally {
    proxy.close();
  }
  try {
    // The acknowledged batches survived the kill; the same command against the restarted target completes it.
    target = await startTestServer({ dataDir: targetDir });
    const again = await runCli(['push', '--to', target.url, '--token', target.token, '--data', dir]);
    assert.is(again.code, 0, again.stderr);
    const source = await startTestServer({ dataDir: dir });
    try {
      for (const { entityUrn, entityType, aspectName, aspect } of source.store.export()) {
        if (entityType === 'dataHubAccessToken' || aspectName === 'corpUserCredentials') continue;
        assert.equal(target.store.catalogue.aspect(entityUrn, aspectName), aspect.json, `${entityUrn} ${aspectName}`);
      }
    } finally {
      await source.close();
    }
  } finally {
    await target?.close();
  }
});

test('usage errors exit 2 naming the flag', async () => {
  const result = await runCli(['push', '--to', 'ftp://example.com', '--since', 'yesterday']);
  assertOneLineFailure(result, 2, /--to "ftp:\/\/example.com" is not an http or https URL .*minihub push --help/);
});

test.run();
