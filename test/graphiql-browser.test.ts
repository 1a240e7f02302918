// The GraphiQL page in a real browser (Debian's Chromium through playwright-core) against a server
// with auth on, used as a person would: paste the token, run, edit, read back. Never downloads a
// browser; without /usr/bin/chromium it prints why and registers nothing.
// MINIHUB_UPDATE_SCREENSHOT=1 also copies the screenshot to test/screenshots/ for the README.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { SAMPLE, startTestServer, type TestServer } from './fixtures/server.ts';
import { TEST_TMP } from './fixtures/temp-root.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCREENSHOT = join(ROOT, 'test-output', 'graphiql.png');
const COMMITTED_SCREENSHOT = join(ROOT, 'test', 'screenshots', 'graphiql.png');
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const ORDERS_TEXT = 'One row per order placed in the online shop';
const NEW_TEXT = 'Order number, typed into GraphiQL.';
const WAIT = { timeout: 5000 };
/** Another origin (localhost is not 127.0.0.1) on a closed port: the CSP must stop it in the page. */
const PROBE = 'http://localhost:9/probe';

interface Seen {
  url: string;
  method: string;
  /** The answer's status; 'aborted' when the page moved on first (a reload, a navigation), which the server had no part in. */
  status: number | 'pending' | 'failed' | 'aborted';
  /** Sent before the token was in the headers editor: only then may /api/graphql answer 401. */
  beforeToken: boolean;
}

interface Context {
  hub: TestServer;
  /** The same sample with --no-auth: the page must work there without any header. */
  open: TestServer;
  browser: BrowserContext;
  page: Page;
  profile: string;
  seen: Seen[];
  pageErrors: string[];
  tokenTyped: boolean;
}

/** Waits until the element's visible text contains `text`; fails naming what it showed instead. */
async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  try {
    await page.waitForFunction(
      ([sel, expected]) => (document.querySelector(sel) as HTMLElement | null)?.innerText.includes(expected) === true,
      [selector, text] as const,
      WAIT,
    );
  } catch {
    const shown = await page
      .locator(selector)
      .first()
      .innerText()
      .catch(() => '(nothing)');
    assert.unreachable(`expected ${selector} to show ${JSON.stringify(text)}; it shows:\n${shown.slice(0, 800)}`);
  }
}

/** Replaces the query editor's contents, as a person pasting a query would. */
async function replaceQuery(page: Page, query: string): Promise<void> {
  await page.locator('.graphiql-query-editor .CodeMirror').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(query);
}

async function run(page: Page): Promise<void> {
  await page.locator('.graphiql-execute-button').click();
}

if (!existsSync(CHROMIUM)) {
  console.log(`skipped graphiql browser test: ${CHROMIUM} not found (apt-get install -y chromium)`);
} else {
  const browser = suite<Context>('GraphiQL in Chromium');

  browser.before(async (context) => {
    context.seen = [];
    context.pageErrors = [];
    context.tokenTyped = false;
    context.hub = await startTestServer({ seed: [SAMPLE] });
    context.open = await startTestServer({ seed: [SAMPLE], auth: false });
    context.profile = mkdtempSync(join(TEST_TMP, 'minihub-chromium-'));
    context.browser = await chromium.launchPersistentContext(context.profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1200, height: 800 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // One renderer, no per-site processes, no software GL: the page and its two servers' origins are
        // all local, and the run costs about 0.5 CPU-s less (three runs each way).
        '--renderer-process-limit=1',
        '--disable-site-isolation-trials',
        '--disable-features=IsolateOrigins,site-per-process,Translate,MediaRouter,OptimizationHints',
        '--disable-software-rasterizer',
      ],
    });
    // Every request of every page, in order, with its answer.
    context.browser.on('request', (request) => {
      context.seen.push({
        url: request.url(),
        method: request.method(),
        status: 'pending',
        beforeToken: !context.tokenTyped,
      });
    });
    context.browser.on('requestfinished', async (request) => {
      const entry = context.seen.findLast((item) => item.url === request.url() && item.status === 'pending');
      const response = await request.response();
      if (entry !== undefined) entry.status = response === null ? 'failed' : response.status();
    });
    context.browser.on('requestfailed', (request) => {
      const entry = context.seen.findLast((item) => item.url === request.url() && item.status === 'pending');
      if (entry !== undefined)
        entry.status = request.failure()?.errorText === 'net::ERR_ABORTED' ? 'aborted' : 'failed';
    });
    // The Content-Security-Policy must not have had to block anything GraphiQL needed.
    await context.browser.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    context.page = context.browser.pages()[0] ?? (await context.browser.newPage());
    context.page.on('pageerror', (error) => context.pageErrors.push(error.message));
    context.page.on('console', (message) => {
      if (message.text().startsWith('CSP violation')) context.pageErrors.push(message.text());
    });
  });

  browser.after(async (context) => {
    await context.browser?.close().catch(() => {});
    await Promise.allSettled([context.hub?.close(), context.open?.close()]);
    if (context.profile !== undefined) rmSync(context.profile, { recursive: true, force: true });
  });

  browser(
    'opens /api/graphiql with the default query and a headers editor holding {"Authorization": "Bearer "}',
    async ({ hub, page }) => {
      await page.goto(`${hub.url}/api/graphiql`);
      await page.waitForSelector('.graphiql-container', WAIT);
      await waitForText(page, '.graphiql-query-editor', 'searchAcrossEntities');
      await waitForText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', '{"Authorization": "Bearer "}');
    },
  );

  browser('runs the default query with a token typed into the headers editor and shows live data', async (context) => {
    const { hub, page } = context;
    // As a person would: click into the headers, put the cursor after "Bearer ", paste the token. One input
    // event, as a paste is: typed key by key, its ~250 characters re-rendered GraphiQL ~250 times (1.5 CPU-s).
    await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.insertText(hub.token);
    context.tokenTyped = true;
    await run(page);
    await waitForText(page, '.result-window', ORDERS_TEXT);
    await waitForText(page, '.result-window', '"fieldPath": "order_id"');
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    if (process.env.MINIHUB_UPDATE_SCREENSHOT === '1') {
      mkdirSync(join(ROOT, 'test', 'screenshots'), { recursive: true });
      copyFileSync(SCREENSHOT, COMMITTED_SCREENSHOT);
    }
  });

  browser(
    'fetches the schema once the token is typed: the docs list Dataset and the editor completes fields',
    async ({ page }) => {
      await page.locator('[aria-label="Show Documentation Explorer"]').click();
      await waitForText(page, '[aria-label="Documentation Explorer"]', 'Dataset');
      await page.locator('[aria-label="Hide Documentation Explorer"]').click();
      await replaceQuery(page, '');
      await page.keyboard.type('{ datas');
      await waitForText(page, '.CodeMirror-hints', 'dataset');
      await page.keyboard.press('Escape');
    },
  );

  browser('runs updateDescription on column order_id and shows true', async ({ page }) => {
    await replaceQuery(
      page,
      `mutation { updateDescription(input: {description: "${NEW_TEXT}", resourceUrn: "${ORDERS}", subResource: "order_id", subResourceType: DATASET_FIELD}) }`,
    );
    await run(page);
    await waitForText(page, '.result-window', '"updateDescription": true');
  });

  browser('reads the new column description back', async ({ hub, page }) => {
    await replaceQuery(page, `{ dataset(urn: "${ORDERS}") { schemaMetadata { fields { fieldPath description } } } }`);
    await run(page);
    await waitForText(page, '.result-window', NEW_TEXT);
    const stored = await hub.gql(
      `{ dataset(urn: "${ORDERS}") { schemaMetadata { fields { fieldPath description } } } }`,
    );
    assert.equal(stored.json.data.dataset.schemaMetadata.fields[0], { fieldPath: 'order_id', description: NEW_TEXT });
  });

  browser(
    'keeps the typed token and the last query across a reload, even right after the last edit',
    async ({ hub, page }) => {
      // GraphiQL itself saves a query 600 ms after the last keystroke; this reload comes well before that.
      await replaceQuery(page, '{ me { corpUser { username } } }');
      await page.reload();
      await waitForText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', hub.token.slice(-20));
      await waitForText(page, '.graphiql-query-editor', 'corpUser { username }');
      // The same tab, not a second one opened beside it for the query GraphiQL had not saved.
      assert.is(await page.locator('.graphiql-tab').count(), 0);
    },
  );

  browser(
    "opens the README's ?query= / ?variables= link with both editors filled, and runs it with the stored token",
    async ({ hub, page }) => {
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const link = /http:\/\/127\.0\.0\.1:8080(\/api\/graphiql\?query=\S+&variables=\S+)/.exec(readme)?.[1];
      assert.ok(link !== undefined, 'the README links to a ready query');
      await page.goto(`${hub.url}${link}`);
      await waitForText(page, '.graphiql-query-editor', 'query columns($urn: String!)');
      await page.getByRole('button', { name: 'Variables' }).click();
      await waitForText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', 'analytics.marts.daily_revenue');
      await run(page);
      await waitForText(page, '.result-window', '"fieldPath": "revenue_date"');
    },
  );

  browser('works with --no-auth as it opens, and with no header at all', async ({ open, page }) => {
    // Another port is another origin: nothing typed for the first server is there.
    await page.goto(`${open.url}/api/graphiql`);
    await waitForText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', '{"Authorization": "Bearer "}');
    await run(page);
    await waitForText(page, '.result-window', ORDERS_TEXT);
    await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await replaceQuery(page, '{ me { corpUser { username } } }');
    await run(page);
    await waitForText(page, '.result-window', '"username": "datahub"');
  });

  browser(
    'enforces its Content-Security-Policy in the browser: a fetch to another origin is refused',
    async ({ page, pageErrors }) => {
      const outcome = await page.evaluate(
        (url) =>
          fetch(url).then(
            () => 'sent',
            () => 'refused',
          ),
        PROBE,
      );
      assert.is(outcome, 'refused');
      // The violation report is its own event, which may arrive after the fetch has failed.
      for (let tries = 0; tries < 40 && !pageErrors.some((error) => error.includes(PROBE)); tries++)
        await page.waitForTimeout(50);
      assert.ok(
        pageErrors.some((error) => error.includes('connect-src') && error.includes(PROBE)),
        pageErrors.join('\n'),
      );
      pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((error) => !error.includes(PROBE)));
    },
  );

  browser(
    'sent every request to 127.0.0.1 and got every asset; only introspection before the token met a 401',
    async ({ hub, page, seen, pageErrors }) => {
      assert.ok(seen.length >= 8, `requests were seen: ${seen.length}`);
      // A request still under way (the favicon is fetched late) is given time to settle.
      for (
        let tries = 0;
        tries < 60 && seen.some((request) => request.url !== PROBE && request.status === 'pending');
        tries++
      )
        await page.waitForTimeout(50);
      for (const request of seen.filter((item) => item.url !== PROBE)) {
        assert.is(new URL(request.url).hostname, '127.0.0.1', request.url);
        assert.not.ok(request.url.includes(hub.token), 'no token in a URL');
      }
      const failed = seen.filter(
        (request) =>
          request.url !== PROBE &&
          (request.status === 'failed' ||
            request.status === 'pending' ||
            (typeof request.status === 'number' && request.status >= 400)),
      );
      const unexpected = failed.filter(
        (request) => !(request.beforeToken && request.status === 401 && request.url === hub.graphqlUrl),
      );
      // Before the token is in, introspection meets 401s (at load, and after any change of the headers that
      // still leaves them without a whole token). Those and nothing else may fail.
      assert.ok(failed.length >= 1, 'the first introspection, without a token, meets a 401');
      assert.equal(unexpected, [], 'no request failed after the token was typed, and no asset ever');
      // A request the page abandoned by moving on is no failure of the server, but every asset must have
      // been answered in full at least once.
      const assets = new Set(
        seen
          .filter((request) => new URL(request.url).pathname.startsWith('/api/graphiql/'))
          .map((request) => request.url),
      );
      for (const asset of assets)
        assert.ok(
          seen.some((request) => request.url === asset && request.status === 200),
          `${asset} was answered 200 at least once`,
        );
      assert.ok(seen.some((request) => request.url.endsWith('/graphiql.min.js') && request.status === 200));
      assert.equal(pageErrors, [], 'no script error and no CSP violation');
    },
  );

  browser.run();
}
