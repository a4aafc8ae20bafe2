// The explorer page at `/` in a real browser: headless Chromium (Debian's `chromium`, driven by
// playwright-core; never a downloaded browser) against startServer on the sample content. A person
// types a token, builds a query with the form, runs it: the page must show the request the server
// got and exactly the server's answer, in both dialects; a wrong token must say 401.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';

let server: RunningServer;
/** The sample tree with `demo` made public: a travel token sees it too, as an anonymous reader. */
let openDemo: RunningServer;
/** A copy of the sample tree served with --watch: the tour edits it. */
let watched: RunningServer;
/** A tree whose enumeration values hold commas (started by its test). */
let sizes: RunningServer | undefined;
/** A tree whose description and collection name are HTML and Markdown (started by its test). */
let hostile: RunningServer | undefined;
/** A project whose name holds a right-to-left mark, stopped by its test (started by its test). */
let rtl: RunningServer | undefined;
/** A tree whose json values are shaped like media items with another origin's thumbnail (started by its test). */
let thumbs: RunningServer | undefined;
let context: BrowserContext;
const work = mkdtempSync(join(tmpdir(), 'cqa-explorer-'));
/** Every URL the browser asked for: the page must need nothing from anywhere else. */
const requested: string[] = [];

beforeAll(async () => {
  const launch = chromiumOptions();
  server = await startServer({ snapshot: await buildSnapshot({ content: 'content' }), port: 0 });
  cpSync('content', join(work, 'content'), { recursive: true });
  const yaml = join(work, 'content', 'demo', 'project.yaml');
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^public: false$/m, 'public: true'));
  openDemo = await startServer({ snapshot: await buildSnapshot({ content: join(work, 'content') }), port: 0 });
  cpSync('content', join(work, 'watched'), { recursive: true });
  watched = await startServer({ content: join(work, 'watched'), port: 0, watch: true, log: () => undefined });
  context = await chromium.launchPersistentContext(join(work, 'profile'), launch);
  context.on('request', (r) => requested.push(r.url()));
}, 60_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  await openDemo?.close();
  await watched?.close();
  await sizes?.close();
  await hostile?.close();
  await rtl?.close();
  await thumbs?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The server's own answer to `path`, as a client gets it. */
async function apiAnswer(path: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(server.url + path, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

/** Opens the page and uses `token` with the keyboard only (type, Enter). */
async function openWithToken(token: string, on: RunningServer = server): Promise<Page> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('401')) problems.push(m.text());
  });
  await page.goto(`${on.url}/`);
  await expect
    .poll(() => page.textContent('#token-status'))
    .toMatch(on === openDemo ? /readable without a token/ : /No project here is public/);
  await page.focus('#token');
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('token-status')!.textContent!.startsWith('Loading'));
  expect(problems).toEqual([]);
  return page;
}

/** Runs the form's query; the request line and the answer as shown. */
async function run(page: Page): Promise<{ request: string; curl: string; status: string; answer: string }> {
  await page.click('#run');
  await page.waitForSelector('#result[aria-busy="false"]:not([hidden])');
  await expect.poll(() => page.textContent('#status')).not.toBe('');
  const text = async (sel: string) => (await page.textContent(sel)) ?? '';
  return { request: await text('#request'), curl: await text('#curl'), status: await text('#status'), answer: await text('#answer') };
}

describe('the explorer page in headless Chromium', () => {
  it('builds a query for a cqa project, shows the request, the curl line and the API answer', async () => {
    const page = await openWithToken('demo-token');
    expect(await page.textContent('#token-status')).toContain('Token accepted: 1 project');

    // The project's collections with their counts and fields, as the API tells them.
    const project = (await apiAnswer('/api/demo', 'demo-token')).body as { data: { collections: { slug: string; count: number }[] } };
    const products = project.data.collections.find((c) => c.slug === 'products')!;
    const row = page.locator('#project-list tr', { has: page.locator('button[data-collection="products"]') });
    await expect.poll(() => row.locator('td.num').textContent()).toBe(String(products.count));
    expect(await row.textContent()).toContain('price (number)');

    // Choosing the collection from the list, then one condition, a sort and a limit.
    await page.click('button[data-collection="products"]');
    expect(await page.inputValue('#collection')).toBe('products');
    await page.click('#add-condition');
    await page.selectOption('#conditions .condition .field', 'price');
    await page.selectOption('#conditions .condition .op', 'gt');
    await page.fill('#conditions .condition .value', '20');
    await page.selectOption('#sort-field', 'price');
    await page.selectOption('#sort-dir', 'desc');
    await page.fill('#limit', '3');
    const shown = await run(page);

    const path = '/api/demo/products?where[price][gt]=20&sort=price:desc&limit=3';
    expect(shown.request).toBe(`GET ${server.url}${path}`);
    const expected = await apiAnswer(path, 'demo-token');
    expect(expected.status).toBe(200);
    expect((expected.body as { data: unknown[] }).data).toHaveLength(3);
    expect(shown.status).toBe('200 OK');
    expect(JSON.parse(shown.answer)).toEqual(expected.body);
    // The curl line runs as it is once CQA_TOKEN is set; the page never prints the token.
    expect(shown.curl).toBe(`curl -g -H 'Accept: application/json' -H "Authorization: Bearer $CQA_TOKEN" '${server.url}${path}'`);
    expect(await page.content()).not.toContain('demo-token');
    // The page's URL names the request (a view to share), never the token.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie, location.href])).toEqual([
      0,
      0,
      '',
      `${server.url}/#${path}`,
    ]);

    // A bad value is the API's 400, shown with its detail.
    await page.fill('#conditions .condition .value', 'cheap');
    const bad = await run(page);
    expect(bad.status).toBe('400 Bad Request');
    expect(JSON.parse(bad.answer)).toEqual(
      (await apiAnswer('/api/demo/products?where[price][gt]=cheap&sort=price:desc&limit=3', 'demo-token')).body,
    );

    // A condition left empty is not sent: the form asks for its value.
    await page.click('#add-condition');
    const sent = (await page.textContent('#request')) ?? '';
    await page.click('#run');
    expect(await page.evaluate(() => document.activeElement?.matches('#conditions .condition:nth-child(2) .value:invalid'))).toBe(true);
    expect(await page.textContent('#request')).toBe(sent);
    await page.click('#conditions .condition:nth-child(2) .remove');

    // Keyboard: Enter in a field runs the query, as a form does.
    await page.fill('#conditions .condition .value', '20');
    await page.press('#limit', 'Enter');
    await page.waitForFunction(() => document.getElementById('status')!.textContent === '200 OK');
    // Every control has a name a screen reader can say.
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, button')]
        .filter((e) => !((e as HTMLInputElement).labels?.length || e.getAttribute('aria-label') || e.textContent!.trim()))
        .map((e) => e.outerHTML),
    );
    expect(unnamed).toEqual([]);
    await page.screenshot({ path: join(work, 'explorer-cqa.png'), fullPage: true });
    expect(existsSync(join(work, 'explorer-cqa.png'))).toBe(true);
    await page.close();
  }, 60_000);

  it('works for an elmapi project, whose project answer lists no collections', async () => {
    const page = await openWithToken('travel-token');
    const articles = page.locator('#project-list tr', { has: page.locator('button[data-collection="articles"]') });
    const count = (await apiAnswer(`/api/${TRAVEL}/articles?count`, 'travel-token')).body as number;
    await expect.poll(() => articles.locator('td.num').textContent()).toBe(String(count));
    expect(await page.textContent('#project-list')).toContain('dialect elmapi');

    await page.selectOption('#project', TRAVEL);
    await page.selectOption('#collection', 'articles');
    await page.click('#add-condition');
    // The locale is picked from the project's locales.
    await page.selectOption('#conditions .condition .field', 'locale');
    expect(await page.$$eval('#conditions .condition select.value option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      '',
      'en',
      'de',
    ]);
    await page.selectOption('#conditions .condition .value', 'de');
    await page.selectOption('#sort-field', 'title');
    const list = await run(page);
    const path = `/api/${TRAVEL}/articles?where[locale]=de&sort=title:asc`;
    expect(list.request).toBe(`GET ${server.url}${path}`);
    const expected = await apiAnswer(path, 'travel-token');
    expect(Array.isArray(expected.body) && expected.body.length).toBeGreaterThan(0);
    expect(JSON.parse(list.answer)).toEqual(expected.body);

    await page.check('input[name="answer"][value="count"]');
    const counted = await run(page);
    expect(counted.request).toBe(`GET ${server.url}${path}&count`);
    expect(JSON.parse(counted.answer)).toBe((await apiAnswer(`${path}&count`, 'travel-token')).body);
    await page.screenshot({ path: join(work, 'explorer-elmapi.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('works for an elmapi3 project: its project-id header on every request, in the curl line and the page URL', async () => {
    const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
    const v3 = async (path: string) => {
      const res = await fetch(server.url + path, {
        headers: { accept: 'application/json', authorization: 'Bearer shop3-token', 'project-id': SHOP3 },
      });
      return res.json() as Promise<unknown>;
    };
    const page = await openWithToken('shop3-token');
    expect(await page.textContent('#project-list')).toContain('dialect elmapi3');
    const products = page.locator('#project-list tr', { has: page.locator('button[data-collection="products"]') });
    await expect.poll(() => products.locator('td.num').textContent()).toBe('3');
    // A singleton is one entry: shown as such, never asked ?count or a limit, which v3 ignores and
    // the server warns of (found from outside: '?' in the table and a warning in the log).
    const settings = page.locator('#project-list tr', { has: page.locator('button[data-collection="settings"]') });
    expect(await settings.locator('td.num').textContent()).toBe('single');
    expect(requested.filter((u) => u.includes('/api/settings?'))).toEqual([]);
    await settings.locator('button').click();
    await page.waitForSelector('#result[aria-busy="false"]:not([hidden])');
    await expect.poll(() => page.textContent('#request')).toBe(`GET ${server.url}/api/settings  (project-id: ${SHOP3})`);
    expect(JSON.parse((await page.textContent('#answer')) ?? '')).toEqual(await v3('/api/settings'));
    expect(server.requests().filter((r) => r.path.startsWith('/api/settings') && r.warnings)).toEqual([]);
    // A click on the collection: its first entries, asked with the header.
    await products.locator('button').click();
    await page.waitForSelector('#result[aria-busy="false"]:not([hidden])');
    await expect.poll(() => page.textContent('#request')).toBe(`GET ${server.url}/api/products?limit=20  (project-id: ${SHOP3})`);
    expect(JSON.parse((await page.textContent('#answer')) ?? '')).toEqual(await v3('/api/products?limit=20'));
    // The table shows each entry's fields beside its uuid, which links to that entry.
    const headers = await page.$$eval('#table th', (th) => th.map((x) => x.textContent));
    expect(headers).toEqual(expect.arrayContaining(['uuid', 'locale', 'title', 'price']));
    // v3's states: published or drafts alone; no fields= (exclude= only).
    expect(await page.$$eval('#state option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['published', 'only_draft']);
    expect(await page.$$eval('#pick option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['all', 'exclude']);
    expect(await page.textContent('#relation-syntax')).toBe('where[relation][field]');
    await page.click('#add-condition');
    await page.selectOption('#conditions .condition .field', 'price');
    await page.selectOption('#conditions .condition .op', 'gt');
    await page.fill('#conditions .condition .value', '30');
    await page.click('#add-relation');
    await page.selectOption('#relations .condition .field', 'title');
    await page.selectOption('#relations .condition .op', 'like');
    await page.fill('#relations .condition .value', 'Shirt');
    await page.selectOption('#sort-field', 'price');
    await page.fill('#limit', '');
    const list = await run(page);
    const path = '/api/products?where[price][gt]=30&where[related][title][like]=Shirt&sort=price:asc';
    expect(list.request).toBe(`GET ${server.url}${path}  (project-id: ${SHOP3})`);
    expect(list.curl).toBe(
      `curl -g -H 'project-id: ${SHOP3}' -H 'Accept: application/json' -H "Authorization: Bearer $CQA_TOKEN" '${server.url}${path}'`,
    );
    expect(JSON.parse(list.answer)).toEqual(await v3(path));
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#project-id:${SHOP3}${path}`);
    // A click on an entry's uuid opens that entry, with the header.
    const first = page.locator('#table a.entry-link').first();
    const uuid = (await first.textContent()) ?? '';
    await first.click();
    await expect.poll(() => page.textContent('#request')).toBe(`GET ${server.url}/api/products/${uuid}  (project-id: ${SHOP3})`);
    await expect.poll(async () => JSON.parse((await page.textContent('#answer')) || 'null')).toEqual(await v3(`/api/products/${uuid}`));
    // The shared link opens the same view in a fresh page, once the token is typed.
    const shared = await context.newPage();
    await shared.goto(`${server.url}/#project-id:${SHOP3}${path}`);
    await shared.focus('#token');
    await shared.keyboard.type('shop3-token');
    await shared.keyboard.press('Enter');
    await expect.poll(() => shared.textContent('#request')).toBe(`GET ${server.url}${path}  (project-id: ${SHOP3})`);
    expect(await shared.inputValue('#conditions .condition .value')).toBe('30');
    await page.screenshot({ path: join(work, 'explorer-elmapi3.png'), fullPage: true });
    await shared.close();
    await page.close();
  }, 60_000);

  it('says so when the token is refused (401), and shows no project', async () => {
    const page = await openWithToken('not-a-token');
    const status = (await page.textContent('#token-status')) ?? '';
    expect(status).toMatch(/^The server refused this token \(401 Unauthorized\): /);
    expect(await page.$$('#project-list article')).toHaveLength(0);
    expect(await page.isDisabled('#run')).toBe(true);
    // …and looks it: faded, in the system's grey instead of the accent colour.
    expect(await page.$eval('#run', (b) => [getComputedStyle(b).opacity, getComputedStyle(b).cursor])).toEqual(['0.45', 'not-allowed']);
    await page.close();
  }, 60_000);

  it("asks a public project that is not the token's own without the token, and shows it like any other", async () => {
    const page = await openWithToken('travel-token', openDemo);
    expect(await page.textContent('#token-status')).toContain('Token accepted: 2 projects');
    const demo = (await (await fetch(`${openDemo.url}/api/demo`, { headers: { accept: 'application/json' } })).json()) as {
      data: { name: string; collections: { slug: string; count: number }[] };
    };
    const list = page.locator('#project-list');
    expect(await list.textContent()).toContain(demo.data.name);
    expect(await list.textContent()).not.toContain('401');
    const products = demo.data.collections.find((c) => c.slug === 'products')!;
    const row = page.locator('#project-list tr', { has: page.locator('button[data-collection="products"]') });
    await expect.poll(() => row.locator('td.num').textContent()).toBe(String(products.count));
    expect(await row.textContent()).toContain('price (number)');

    await page.selectOption('#project', 'demo');
    await page.selectOption('#collection', 'products');
    await page.fill('#limit', '2');
    const shown = await run(page);
    expect(shown.status).toBe('200 OK');
    const expected = await (await fetch(`${openDemo.url}/api/demo/products?limit=2`, { headers: { accept: 'application/json' } })).json();
    expect(JSON.parse(shown.answer)).toEqual(expected);
    expect(shown.curl).not.toContain('Authorization');

    // The token's own project still gets the token.
    await page.selectOption('#project', TRAVEL);
    await page.selectOption('#collection', 'articles');
    expect((await run(page)).status).toBe('200 OK');
    await page.close();
  }, 60_000);

  it('fits a 390 px wide screen: nothing wider than the viewport', async () => {
    const page = await openWithToken('travel-token', openDemo);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#add-condition');
    await page.selectOption('#conditions .condition .op', 'like');
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    expect(widths[1]).toBe(390);
    await page.close();
  }, 60_000);

  it('a tour: switch collections with conditions set, pick values, click through, copy, the reference, live content errors', async () => {
    const page = await openWithToken('demo-token', watched);
    const api = async (path: string) =>
      (await fetch(watched.url + path, { headers: { accept: 'application/json', authorization: 'Bearer demo-token' } })).json();
    const condition = (n: number) => `#conditions .condition:nth-child(${n})`;

    // A collection's slug queries it at once (its first 20 entries); the page's URL names the request.
    await page.click('button[data-collection="products"]');
    await expect.poll(() => page.textContent('#summary'), { timeout: 10_000 }).toBe('Entries 1–20 of 23 matches.');
    expect(new URL(page.url()).hash).toBe('#/api/demo/products?limit=20');
    await page.fill('#limit', '');

    // Two conditions: one on a field both collections have (slug), one on a field only products has.
    await page.click('#add-condition');
    await page.selectOption(`${condition(1)} .field`, 'price');
    // The operators offered are the engine's for a number field (no `like`).
    expect(await page.$$eval(`${condition(1)} .op option`, (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      'eq',
      'not',
      'in',
      'not_in',
      'lt',
      'lte',
      'gt',
      'gte',
      'between',
      'not_between',
      'null',
      'not_null',
    ]);
    await page.selectOption(`${condition(1)} .op`, 'gt');
    await page.fill(`${condition(1)} .value`, ' 20 ');
    await page.click('#add-condition');
    await page.selectOption(`${condition(2)} .field`, 'slug');
    await page.selectOption(`${condition(2)} .op`, 'not_null');
    // Ctrl+Enter runs the query; the value went out trimmed.
    await page.press(`${condition(1)} .value`, 'Control+Enter');
    await expect
      .poll(() => page.textContent('#request'), { timeout: 10_000 })
      .toBe(`GET ${watched.url}/api/demo/products?where[price][gt]=20&where[slug]=not_null`);
    await page.waitForSelector('#result[aria-busy="false"]');
    const sentBefore = await page.textContent('#request');

    // Another collection: the condition on `price` is kept and marked, never moved to another field;
    // the one on `slug` stays as it was. The form refuses to run until `price` is changed or removed.
    await page.selectOption('#collection', 'posts');
    expect(await page.inputValue(`${condition(1)} .field`)).toBe('price');
    expect(await page.getAttribute(condition(1), 'class')).toContain('missing');
    expect(await page.textContent(`${condition(1)} .note`)).toBe(
      "'price' is not a field of Blog posts: pick another field or remove this condition",
    );
    expect([await page.inputValue(`${condition(2)} .field`), await page.inputValue(`${condition(2)} .op`)]).toEqual(['slug', 'not_null']);
    await page.click('#run');
    expect(await page.evaluate(() => document.activeElement?.matches('#conditions .condition:nth-child(1) .field:invalid'))).toBe(true);
    expect(await page.textContent('#request')).toBe(sentBefore);

    // Pick an enumeration value: `tags` offers the engine's operators for a multiple enumeration and a
    // list of its values.
    await page.selectOption(`${condition(1)} .field`, 'tags');
    expect(await page.getAttribute(condition(1), 'class')).not.toContain('missing');
    expect(await page.$$eval(`${condition(1)} .op option`, (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      'eq',
      'not',
      'like',
      'in',
      'not_in',
      'null',
      'not_null',
    ]);
    const values = await page.$$eval(`${condition(1)} select.value option`, (o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(values).toEqual([
      '',
      ...(await api('/api/demo')).data.collections
        .find((c: { slug: string }) => c.slug === 'posts')
        .fields.find((f: { name: string }) => f.name === 'tags').values,
    ]);
    await page.selectOption(`${condition(1)} .value`, 'travel');
    await page.click('#run');
    const path = '/api/demo/posts?where[tags]=travel&where[slug]=not_null';
    await expect.poll(() => page.textContent('#request'), { timeout: 10_000 }).toBe(`GET ${watched.url}${path}`);
    await page.waitForSelector('#result[aria-busy="false"]');
    const listed = await api(path);
    expect(JSON.parse((await page.textContent('#answer')) ?? '')).toEqual(listed);
    expect(await page.textContent('#summary')).toBe(`Entries 1–${listed.data.length} of ${listed.meta.total} matches.`);
    // Media show as thumbnails, loaded from this server.
    await expect
      .poll(() => page.$$eval('#table img.thumb', (imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);

    // Copy the curl line: the clipboard holds exactly what the page shows, with no token in it.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: watched.url });
    await page.click('button[data-copy="curl"]');
    await expect.poll(() => page.textContent('#copied'), { timeout: 10_000 }).toBe('Copied the curl line.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`curl -g -H 'Accept: application/json' -H "Authorization: Bearer $CQA_TOKEN" '${watched.url}${path}'`);

    // Click through to an entry: its id is a link that loads its own request.
    const first = listed.data[0] as { id: string; author: { id: string } };
    await page.click(`#table a.entry-link[href="#/api/demo/posts/${first.id}"]`);
    await expect.poll(() => page.textContent('#request'), { timeout: 10_000 }).toBe(`GET ${watched.url}/api/demo/posts/${first.id}`);
    await page.waitForSelector('#result[aria-busy="false"]');
    expect(await page.inputValue('#entry')).toBe(first.id);
    expect(JSON.parse((await page.textContent('#answer')) ?? '')).toEqual(await api(`/api/demo/posts/${first.id}`));
    // …and a related entry too, in its own collection; the back button returns to the post.
    await page.click(`#table a.entry-link[href="#/api/demo/authors/${first.author.id}"]`);
    await expect
      .poll(() => page.textContent('#request'), { timeout: 10_000 })
      .toBe(`GET ${watched.url}/api/demo/authors/${first.author.id}`);
    expect(await page.inputValue('#collection')).toBe('authors');
    await page.goBack();
    await expect.poll(() => page.textContent('#request'), { timeout: 10_000 }).toBe(`GET ${watched.url}/api/demo/posts/${first.id}`);

    // A shared view: another tab opened at this URL shows the same request once the token is typed.
    const shared = await context.newPage();
    await shared.goto(page.url());
    await expect
      .poll(() => shared.textContent('#token-status'), { timeout: 10_000 })
      .toMatch(/^The link asks for \/api\/demo\/posts\/.*use its token/);
    await shared.fill('#token', 'demo-token');
    await shared.press('#token', 'Enter');
    await expect.poll(() => shared.textContent('#status'), { timeout: 10_000 }).toBe('200 OK');
    expect(await shared.textContent('#request')).toBe(`GET ${watched.url}/api/demo/posts/${first.id}`);
    await shared.close();

    // The API reference, from the explorer's link: Swagger UI on /openapi.json, with the token typed there.
    const [reference] = await Promise.all([context.waitForEvent('page'), page.click('a[href="/reference"]')]);
    const refProblems: string[] = [];
    reference.on('console', (m) => m.type() === 'error' && refProblems.push(m.text()));
    reference.on('pageerror', (e) => refProblems.push(e.message));
    await reference.waitForLoadState();
    expect(reference.url()).toBe(`${watched.url}/reference`);
    await expect.poll(() => reference.textContent('.swagger-ui .info .title'), { timeout: 10_000 }).toContain('Content Query API');
    await reference.fill('#token', 'demo-token');
    await reference.press('#token', 'Enter');
    expect(await reference.inputValue('#token')).toBe('');
    await expect
      .poll(() => reference.locator('.swagger-ui .opblock-summary-path', { hasText: '/api/demo/posts' }).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await reference.content()).not.toContain('demo-token');
    expect(refProblems).toEqual([]);
    await reference.close();

    // Live under --watch: an edit shows in the answer on show, a broken file appears at the top
    // of the page (the server keeps its last good snapshot), and goes away once it is fixed.
    const file = join(work, 'watched', 'demo', 'authors', `${first.author.id}.yaml`);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^name: /m);
    writeFileSync(file, text.replace(/^name: .*$/m, 'name: Renamed While Watching'));
    await expect.poll(() => page.textContent('#answer'), { timeout: 15_000 }).toContain('Renamed While Watching');
    expect(await page.isHidden('#content-errors')).toBe(true);
    writeFileSync(file, text.replace(/^name: .*$/m, 'name: [unclosed'));
    await expect.poll(() => page.isVisible('#content-errors'), { timeout: 15_000 }).toBe(true);
    const shown = (await page.textContent('#content-errors')) ?? '';
    expect(shown).toMatch(/^The content has 1 error: the server still answers from the last good snapshot/);
    expect(shown).toContain(`${first.author.id}.yaml`);
    writeFileSync(file, text);
    await expect.poll(() => page.isHidden('#content-errors'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.textContent('#answer'), { timeout: 15_000 }).not.toContain('Renamed While Watching');

    // Forget the token: the answer fetched with it goes too.
    await page.click('#forget');
    expect(await page.isHidden('#result')).toBe(true);
    expect(await page.textContent('#answer')).toBe('');
    await page.screenshot({ path: join(work, 'explorer-tour.png'), fullPage: true });
    await page.close();
  }, 120_000);

  it('builds whereRelation and fields= from the form', async () => {
    const page = await openWithToken('demo-token');
    await page.click('button[data-collection="posts"]');
    await page.waitForSelector('#result[aria-busy="false"]:not([hidden])');
    await page.click('#add-relation');
    const row = '#relations .condition';
    // The relation fields of posts, each with its target collection; then the target's fields.
    expect(await page.$$eval(`${row} .relation option`, (o) => o.map((x) => x.textContent))).toEqual([
      'author → authors',
      'categories → categories',
      'related → posts',
    ]);
    await page.selectOption(`${row} .field`, 'role');
    await page.selectOption(`${row} .value`, 'writer');
    await page.selectOption('#pick', 'fields');
    await page.check('#pick-fields input[value="title"]');
    const shown = await run(page);
    const path = '/api/demo/posts?whereRelation[author][role]=writer&limit=20&fields=title';
    expect(shown.request).toBe(`GET ${server.url}${path}`);
    const expected = await apiAnswer(path, 'demo-token');
    expect(expected.status).toBe(200);
    expect((expected.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(JSON.parse(shown.answer)).toEqual(expected.body);
    await page.close();
  }, 60_000);

  it('picks enumeration values that hold commas, from a link and by hand, and sends each apart', async () => {
    sizes = await startServer({
      snapshot: await buildSnapshot({
        content: {
          'p/project.yaml': 'id: p\npublic: true\n',
          'p/notes/_collection.yaml': "fields:\n  size: { type: enumeration, values: ['S', 'M, L', 'XL, XXL'] }\n",
          'p/notes/a.yaml': 'size: S\n',
          'p/notes/b.yaml': "size: 'M, L'\n",
          'p/notes/c.yaml': "size: 'XL, XXL'\n",
        },
      }),
      port: 0,
    });
    const page = await context.newPage();
    const linked = '/api/p/notes?where[size][in][]=M%2C%20L&where[size][in][]=XL%2C%20XXL&limit=20';
    await page.goto(`${sizes.url}/#${linked}`);
    await expect.poll(() => page.textContent('#status'), { timeout: 10_000 }).toBe('200 OK');
    expect(await page.textContent('#request')).toBe(`GET ${sizes.url}${linked}`);
    const value = '#conditions .condition .value';
    expect(await page.$eval(value, (s) => [...(s as HTMLSelectElement).selectedOptions].map((o) => o.value))).toEqual(['M, L', 'XL, XXL']);
    expect((JSON.parse((await page.textContent('#answer')) ?? '') as { data: { id: string }[] }).data.map((e) => e.id)).toEqual(['b', 'c']);
    await page.selectOption(value, ['S', 'M, L']);
    const shown = await run(page);
    expect(shown.request).toBe(`GET ${sizes.url}/api/p/notes?where[size][in][]=S&where[size][in][]=M%2C%20L&limit=20`);
    expect((JSON.parse(shown.answer) as { data: { id: string }[] }).data.map((e) => e.id)).toEqual(['a', 'b']);
    await page.close();
  }, 60_000);

  it('shows a project description and a collection name on /reference as text, not as HTML or Markdown', async () => {
    const description = [
      '<img src=x onerror=alert(1)><a href="https://evil.example/login">Your token expired: click here</a>',
      '<form action=https://evil.example><input name=t placeholder=token></form> [re-enter it](https://evil.example/login) **bold**',
    ].join('\n');
    const name = '<img src=y onerror=alert(2)>Posts <a href="https://evil.example/">here</a>';
    hostile = await startServer({
      snapshot: await buildSnapshot({
        content: {
          'h/project.yaml': `id: h\npublic: true\ndescription: ${JSON.stringify(description)}\n`,
          'h/posts/_collection.yaml': `name: ${JSON.stringify(name)}\nfields:\n  title: text\n`,
          'h/posts/a.yaml': 'title: A\n',
        },
      }),
      port: 0,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${hostile.url}/reference`);
    const tag = page.locator('.swagger-ui .opblock-tag', { hasText: 'Your token expired' });
    await expect.poll(() => tag.count(), { timeout: 10_000 }).toBe(1);
    // The operation open: its answer's description (the collection name) is rendered too.
    await page.click('.swagger-ui .opblock-summary-path[data-path="/api/h/posts"]');
    await expect
      .poll(() => page.locator('.swagger-ui .response-col_description', { hasText: 'Posts' }).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    const ui = page.locator('.swagger-ui');
    expect(await ui.locator('img[src="x"], img[src="y"], input[name="t"], form[action*="evil"], a[href*="evil"]').count()).toBe(0);
    // Where the texts are shown (Swagger UI's Markdown), a paragraph of text and nothing else.
    const tagText = tag.locator('.renderedMarkdown');
    const answerText = ui.locator('.response-col_description__inner .renderedMarkdown', { hasText: 'Posts' });
    for (const rendered of [tagText, answerText]) {
      expect(await rendered.count()).toBe(1);
      expect(await rendered.locator('*:not(p, br)').count()).toBe(0);
    }
    const shown = (s: string): string => s.replace(/\s+/g, ' ').trim();
    expect(shown((await tagText.textContent()) ?? '')).toBe(shown(description));
    expect(shown((await ui.textContent()) ?? '')).toContain(`List ${name}`);
    expect(shown((await answerText.textContent()) ?? '')).toBe(name);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  // Found from outside: each of these said or showed something else.
  it('names what it cannot do: a token no header can carry, a stopped server, a link offset the form cannot hold; an RTL name stays apart from its id', async () => {
    const named = await startServer({
      snapshot: await buildSnapshot({
        content: { 'r/project.yaml': `id: hx\npublic: true\nname: "Evil \u202eexe.png"\n`, 'r/posts/a.yaml': 'title: A\n' },
      }),
      port: 0,
    });
    rtl = named;
    const page = await context.newPage();
    try {
      // Before the project list has come, Run query is off (the page's own HTML says so).
      expect(await (await fetch(`${named.url}/`, { headers: { accept: 'text/html' } })).text()).toContain(
        '<button type="submit" id="run" disabled>',
      );
      await page.goto(`${named.url}/#/api/hx/posts?offset=abc&limit=2`);
      await expect.poll(() => page.textContent('#ignored')).toBe('Not in the form (left out): offset=abc');
      expect(await page.inputValue('#limit')).toBe('2');
      // The name in its own <bdi> and isolated in the select: the id after it reads as it is.
      expect(await page.textContent('#project-list h3 bdi')).toBe('Evil \u202eexe.png');
      expect(await page.$eval('#project option', (o) => o.textContent)).toBe('\u2068Evil \u202eexe.png\u2069 (hx)');
      await page.fill('#token', 'tøken');
      await page.press('#token', 'Enter');
      expect(await page.textContent('#token-status')).toMatch(
        /^A token is written in visible ASCII .* holds U\+00F8: check what was pasted\.$/,
      );
      await named.close();
      await page.click('#forget');
      await expect.poll(() => page.textContent('#token-status')).toMatch(/^No answer from the server \(it may be stopped\): /);
    } finally {
      await page.close();
      await named.close();
    }
  }, 60_000);

  // Found from outside: a json value shaped like a media item showed its `thumb` (or v3's
  // `thumbnail_url`) as an <img> of any origin; only the page's CSP (img-src 'self') kept the request in.
  it('shows a thumbnail only from its own origin, whatever a json value names', async () => {
    const other = 'http://127.0.0.1:9/t.png';
    const items = [
      { full_url: '/media/t/a.png', file_name: 'thumb', mime_type: 'image/png', thumb: other },
      { full_url: '/media/t/b.png', file_name: 'protocol-relative', mime_type: 'image/png', thumb: '//127.0.0.1:9/t.png' },
      { url: '/media/t/c.png', filename: 'v3', width: 3, thumbnail_url: other },
      { full_url: '/media/t/d.png', file_name: 'script', mime_type: 'image/png', thumb: 'javascript:alert(1)' },
    ];
    thumbs = await startServer({
      snapshot: await buildSnapshot({
        content: {
          't/project.yaml': 'id: t\npublic: true\n',
          't/things/_collection.yaml': 'fields:\n  title: text\n  data: json\n',
          't/things/a.yaml': `title: A\ndata: ${JSON.stringify(items)}\n`,
        },
      }),
      port: 0,
    });
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => /Content Security Policy/.test(m.text()) && blocked.push(m.text()));
    try {
      await page.goto(`${thumbs.url}/#/api/t/things`);
      await expect.poll(() => page.locator('#table a.media').count(), { timeout: 10_000 }).toBe(4);
      expect(await page.$$eval('#table img', (imgs) => imgs.map((i) => i.getAttribute('src')))).toEqual([]);
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('loaded nothing from anywhere but the server', () => {
    expect(requested.length).toBeGreaterThan(0);
    const ours = [server, openDemo, watched, ...[sizes, hostile, rtl, thumbs].filter((s): s is RunningServer => s !== undefined)];
    expect(requested.filter((u) => !ours.some((s) => u.startsWith(`${s.url}/`)))).toEqual([]);
  });
});
