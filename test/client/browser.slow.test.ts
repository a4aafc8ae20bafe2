// The static client in a real browser: a page bundled with esbuild, served by `cqa preview`
// together with a `cqa build` tree, run in headless Chromium (Debian's `chromium`, driven by
// playwright-core; never a downloaded browser). Its answers must be the server's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { serveBoth, serverAnswer, type Sites } from './fixture.js';

let sites: Sites;
let context: BrowserContext;
const profile = mkdtempSync(join(tmpdir(), 'cqa-chromium-'));

beforeAll(async () => {
  const launch = chromiumOptions();
  sites = await serveBoth(await buildSnapshot({ content: 'content' }));
  const bundle = await build({
    entryPoints: ['test/client/browser-page.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(join(sites.dist, 'client-page.js'), bundle.outputFiles[0]!.text);
  writeFileSync(
    join(sites.dist, 'client-page.html'),
    '<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="/client-page.js"></script>\n',
  );
  context = await chromium.launchPersistentContext(profile, launch);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await sites?.close();
  rmSync(profile, { recursive: true, force: true });
});

const REQUESTS: [string, string][] = [
  ['/posts', 'where[locale]=de&sort=published_at:desc&limit=3'],
  ['/posts', 'where[tags][in][]=travel&where[tags][in][]=food&fields=title,tags&timestamps'],
  ['/posts', 'whereRelation[author][role]=editor&count'],
  ['/posts', 'where[or][0][featured]=true&where[or][1][reading_time][gte]=8&sort=reading_time:desc,id'],
  ['/products', 'where[price][between]=10,50&where[in_stock]=true&sort=price:desc&limit=5&offset=1'],
  ['/products', 'where[name][like]=%25lamp%25&first'],
  ['/products', 'where[image]=not_null&exclude=description,specs'],
  ['/stores', 'where[opens][lte]=09:00&sort=closes:desc'],
  ['/events', 'where[starts_at][gte]=2024-01-01&where[free]=false'],
  ['/posts', 'where[prise]=1'],
  ['/posts', 'where[reading_time][like]=5'],
  ['/nope', ''],
];

describe('static client in headless Chromium', () => {
  it('answers like cqa serve, from a page on the preview origin', async () => {
    const page = await context.newPage();
    const responses: { url: string; status: number }[] = [];
    page.on('response', (r) => responses.push({ url: r.url(), status: r.status() }));
    await page.goto(`${sites.preview.url}/client-page.html`);
    await page.waitForFunction(() => document.title === 'ready', undefined, { timeout: 10_000 });

    const answers = await page.evaluate(
      (requests) =>
        (window as unknown as { cqa: { run: (r: [string, string][]) => Promise<{ status: number; body: string }[]> } }).cqa.run(requests),
      REQUESTS,
    );
    for (const [k, [path, query]] of REQUESTS.entries()) {
      const expected = await serverAnswer(sites, 'demo', path, query, 'demo-token');
      const got = answers[k]!;
      expect(got.status, `${path}?${query}`).toBe(expected.status);
      if (expected.status === 200) expect(got.body, `${path}?${query}`).toBe(expected.body);
      else {
        const p = JSON.parse(expected.body) as { code: string; detail: string; param?: string };
        expect(JSON.parse(got.body), `${path}?${query}`).toEqual({ code: p.code, detail: p.detail, param: p.param });
      }
    }
    expect(answers.filter((a) => a.status === 200).length).toBe(9);

    // The typed methods, and the browser kept the documents: later calls revalidated them (304).
    const methods = (await page.evaluate(() => (window as unknown as { cqa: { methods: () => Promise<unknown> } }).cqa.methods())) as {
      latest: unknown;
      count: number;
      first: { title: string } | null;
    };
    expect(methods.latest).toEqual(
      JSON.parse((await serverAnswer(sites, 'demo', '/posts', 'where[locale]=de&sort=published_at:desc&limit=3', 'demo-token')).body),
    );
    expect(methods.count).toBe(
      JSON.parse((await serverAnswer(sites, 'demo', '/products', 'where[price][gt]=20&count', 'demo-token')).body).count,
    );
    expect(methods.first?.title).toEqual(expect.any(String));
    const lists = responses.filter((r) => r.url.endsWith('/api/demo/posts')).map((r) => r.status);
    expect(lists[0]).toBe(200);
    expect(lists.slice(1)).toContain(304);
    expect(lists.filter((s) => s === 200)).toHaveLength(1);
    await page.close();
  }, 60_000);
});
