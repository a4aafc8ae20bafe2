// content-query-api/msw in a real browser: the browser entry under MSW's setupWorker, with MSW's
// own mockServiceWorker.js served by a small test server on 127.0.0.1, in headless Chromium
// (Debian's `chromium`, driven by playwright-core; never a downloaded browser).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { snapshotText } from '../../src/core/snapshot/portable.js';

const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: text\n  price: number\n',
  'shop/products/mug.yaml': 'title: Mug\nprice: 12\n',
  'shop/products/plate.yaml': 'title: Plate\nprice: 20\n',
};

let server: Server;
let origin: string;
let context: BrowserContext;
const profile = mkdtempSync(join(tmpdir(), 'cqa-chromium-msw-'));

beforeAll(async () => {
  const launch = chromiumOptions();
  const page = await build({
    entryPoints: ['test/msw/browser-page.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, [string, string]> = {
    '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/page.js"></script>\n'],
    '/page.js': ['text/javascript', page.outputFiles[0]!.text],
    // MSW's worker script, from the installed package (what `npx msw init` copies).
    '/mockServiceWorker.js': ['text/javascript', readFileSync('node_modules/msw/lib/mockServiceWorker.js', 'utf8')],
    '/snapshot.json': ['application/json', snapshotText(await buildSnapshot({ content: TREE }))],
  };
  server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
    res.end(file?.[1] ?? 'not here: the API must be answered by the worker');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  context = await chromium.launchPersistentContext(profile, launch);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  rmSync(profile, { recursive: true, force: true });
});

it('answers the page through setupWorker: queries, errors, Prefer, overrides, the journal', async () => {
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, undefined, { timeout: 20_000 });
  const result = await page.evaluate(() => (window as unknown as { __result: unknown }).__result);
  expect(result).toEqual({
    list: [200, ['Mug']],
    bad: [400, 'unknown_field'],
    forced: [503, '1'],
    overridden: [418, { id: 'mug' }],
    seen: [418, '{"id":"mug"}'],
    journal: [
      '200 /api/shop/products?where[price][lte]=15',
      '400 /api/shop/products?where[prise]=1',
      '503 /api/shop/products injected',
      '418 /api/shop/products/mug',
    ],
    refused:
      "createMswHandlers: in a browser, give a snapshot: build one with `cqa build content --snapshot snapshot.json` and pass loadSnapshot(text) from 'content-query-api/edge' as snapshot",
  });
}, 60_000);
