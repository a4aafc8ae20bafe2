// The explorer page at `/` in a real browser: headless Chromium (Debian's `chromium`, driven by
// playwright-core; never a downloaded browser) against startServer on the sample content. A person
// types a token, builds a query with the form, runs it: the page must show the request the server
// got and exactly the server's answer, in both dialects; a wrong token must say 401.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

const CHROMIUM = process.env.CQA_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';

let server: RunningServer;
/** The sample tree with `demo` made public: a travel token sees it too, as an anonymous reader. */
let openDemo: RunningServer;
let context: BrowserContext;
const work = mkdtempSync(join(tmpdir(), 'cqa-explorer-'));
/** Every URL the browser asked for: the page must need nothing from anywhere else. */
const requested: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: this test runs the explorer page in a real browser. Install Debian's package ` +
        '(`apt-get update && apt-get install -y chromium`) or point CQA_CHROMIUM at a Chromium binary.',
    );
  }
  server = await startServer({ snapshot: await buildSnapshot({ content: 'content' }), port: 0 });
  cpSync('content', join(work, 'content'), { recursive: true });
  const yaml = join(work, 'content', 'demo', 'project.yaml');
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^public: false$/m, 'public: true'));
  openDemo = await startServer({ snapshot: await buildSnapshot({ content: join(work, 'content') }), port: 0 });
  context = await chromium.launchPersistentContext(join(work, 'profile'), { executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30_000 });
  context.on('request', (r) => requested.push(r.url()));
}, 60_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  await openDemo?.close();
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
  await expect.poll(() => page.textContent('#token-status')).toMatch(on === server ? /No project here is public/ : /readable without a token/);
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
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie, location.href])).toEqual([0, 0, '', `${server.url}/`]);

    // A bad value is the API's 400, shown with its detail.
    await page.fill('#conditions .condition .value', 'cheap');
    const bad = await run(page);
    expect(bad.status).toBe('400 Bad Request');
    expect(JSON.parse(bad.answer)).toEqual((await apiAnswer('/api/demo/products?where[price][gt]=cheap&sort=price:desc&limit=3', 'demo-token')).body);

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
    await page.selectOption('#conditions .condition .field', 'locale');
    await page.fill('#conditions .condition .value', 'de');
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

  it('says so when the token is refused (401), and shows no project', async () => {
    const page = await openWithToken('not-a-token');
    const status = (await page.textContent('#token-status')) ?? '';
    expect(status).toMatch(/^The server refused this token \(401 Unauthorized\): /);
    expect(await page.$$('#project-list article')).toHaveLength(0);
    expect(await page.isDisabled('#run')).toBe(true);
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

  it('loaded nothing from anywhere but the server', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((u) => !u.startsWith(`${server.url}/`) && !u.startsWith(`${openDemo.url}/`))).toEqual([]);
  });
});
