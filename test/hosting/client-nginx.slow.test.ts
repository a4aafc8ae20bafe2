// The static client in headless Chromium, on a page of another origin, against nginx serving a
// `cqa build` the way people first configure it (issue 22): the JSON type and CORS on /api/, and
// nginx's own answer to OPTIONS (405) — once with `Access-Control-Expose-Headers: ETag` (the
// client sees the ETag, so its revalidation sends If-None-Match, whose preflight nginx refuses)
// and once without — and with the recipe `cqa build --host nginx` writes, where the preflight is
// answered and documents come back as 304s. Every answer, asked three times over, must be what
// `cqa serve` answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { writeDist } from '../../src/node/output/dist.js';
import { serveBoth, serverAnswer, type Sites } from '../client/fixture.js';
import { missing, NGINX, startNginx, type RunningHost } from './servers.js';

// Skipped only without nginx; without Chromium it fails, as test/client/browser.slow.test.ts does.
const absent = missing(NGINX, 'nginx-light');

const REQUESTS: [string, string][] = [
  ['', ''],
  ['/posts', 'where[locale]=de&sort=published_at:desc&limit=3'],
  ['/posts', 'where[tags][in][]=travel&where[tags][in][]=food&fields=title,tags&timestamps'],
  ['/posts', 'whereRelation[author][role]=editor&count'],
  ['/products', 'where[price][between]=10,50&where[in_stock]=true&sort=price:desc&limit=5&offset=1'],
  ['/products', 'where[name][like]=%25lamp%25&first'],
  ['/stores', 'where[opens][lte]=09:00&sort=closes:desc'],
  ['/posts/hello-world', ''],
  ['/project-media', 'limit=2'],
  ['/posts', 'where[prise]=1'],
  ['/nope', ''],
];

/** What a first nginx setup looks like: no OPTIONS handling, so nginx answers a preflight 405. */
const naiveSite = (dist: string, exposeEtag: boolean) => (port: number) =>
  [
    'server {',
    `    listen 127.0.0.1:${port};`,
    `    root ${dist};`,
    'location /api/ {',
    '      default_type application/json;',
    '      add_header Access-Control-Allow-Origin "*" always;',
    ...(exposeEtag ? ['      add_header Access-Control-Expose-Headers "ETag" always;'] : []),
    '      try_files $uri/index.json =404;',
    '      error_page 404 /api/404.json;',
    '    }',
    '    location = /api/404.json { internal; default_type application/json; add_header Access-Control-Allow-Origin "*" always; }',
    '}',
  ].join('\n    ');

describe.skipIf(absent !== undefined)(`static client in Chromium against nginx${absent ? ` — skipped: ${absent}` : ''}`, () => {
  let sites: Sites;
  let context: BrowserContext;
  let pages: Server;
  let pageOrigin: string;
  const profile = mkdtempSync(join(tmpdir(), 'cqa-chromium-'));
  const hosts: RunningHost[] = [];

  let recipeDist: string;
  beforeAll(async () => {
    const launch = chromiumOptions();
    const snapshot = await buildSnapshot({ content: 'content' });
    sites = await serveBoth(snapshot);
    recipeDist = join(profile, 'nginx-dist');
    await writeDist(snapshot, { out: recipeDist, host: 'nginx', precompress: 'gzip' });
    const bundle = await build({
      entryPoints: ['test/hosting/client-page.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const js = bundle.outputFiles[0]!.text;
    // The page's own origin: another port than nginx's, so every request to the tree is cross-origin.
    pages = createServer((req, res) => {
      if (req.url?.startsWith('/page.js')) res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="/page.js"></script>\n');
    });
    await new Promise<void>((ok) => pages.listen(0, '127.0.0.1', ok));
    pageOrigin = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
    context = await chromium.launchPersistentContext(profile, launch);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await Promise.all(hosts.map((h) => h.close()));
    await new Promise((ok) => pages?.close(ok));
    await sites?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  /** Three rounds of REQUESTS from the page, each answer compared with cqa serve's; the statuses of /api/demo/posts as the browser saw them. */
  async function compare(nginx: RunningHost): Promise<number[]> {
    const statuses: number[] = [];
    const page = await context.newPage();
    page.on('response', (r) => {
      if (r.url() === `${nginx.url}/api/demo/posts` && r.request().method() === 'GET') statuses.push(r.status());
    });
    await page.goto(`${pageOrigin}/page.html?api=${encodeURIComponent(nginx.url)}`);
    await page.waitForFunction(() => document.title === 'ready', undefined, { timeout: 10_000 });
    const rounds = [];
    for (let round = 0; round < 3; round++) {
      rounds.push(
        await page.evaluate(
          (requests) =>
            (window as unknown as { cqa: { run: (r: [string, string][]) => Promise<{ status: number; body: string }[]> } }).cqa.run(
              requests,
            ),
          REQUESTS,
        ),
      );
    }
    await page.close();
    for (const [k, [path, query]] of REQUESTS.entries()) {
      const expected = await serverAnswer(sites, 'demo', path, query, 'demo-token');
      for (const [round, answers] of rounds.entries()) {
        const got = answers[k]!;
        const label = `round ${round + 1}: ${path}?${query}`;
        expect(got.status, `${label}: ${got.body}`).toBe(expected.status);
        if (expected.status === 200) expect(got.body, label).toBe(expected.body);
        else {
          const p = JSON.parse(expected.body) as { code: string; detail: string; param?: string };
          expect(JSON.parse(got.body), label).toEqual({ code: p.code, detail: p.detail, param: p.param });
        }
      }
    }
    return statuses;
  }

  for (const exposeEtag of [true, false]) {
    it(`answers like cqa serve, call after call, ${exposeEtag ? 'with' : 'without'} Access-Control-Expose-Headers: ETag (nginx answers OPTIONS 405)`, async () => {
      const nginx = await startNginx(sites.dist, naiveSite(sites.dist, exposeEtag));
      hosts.push(nginx);
      const preflight = await fetch(`${nginx.url}/api/demo/posts`, { method: 'OPTIONS' });
      expect(preflight.status).toBe(405); // the setup this test is about
      await compare(nginx);
    }, 60_000);
  }

  it('with the recipe of docs/hosting.md (_nginx.conf): the same answers, and documents revalidated with 304s', async () => {
    const nginx = await startNginx(recipeDist);
    hosts.push(nginx);
    const statuses = await compare(nginx);
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1)).toContain(304);
  }, 60_000);
});
