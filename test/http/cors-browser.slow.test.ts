// CORS as a browser applies it (found from outside): a page on another origin that sends the
// headers front-end code adds — Content-Type on a GET, X-Requested-With, one of its own — besides
// the token must pass the preflight of `cqa serve`, as it passes ElmapiCMS's (Laravel allows every
// header). Headless Chromium (Debian's), driven by playwright-core.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

let api: RunningServer;
let page: Server;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  api = await startServer({ content: 'content' });
  page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  browser = await chromium.launch(chromiumOptions());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
  await api?.close();
});

describe('a page on another origin', () => {
  it('reads the API with the headers front-end code adds, and sees the ETag', async () => {
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    const results = await tab.evaluate(async (base) => {
      const sets: Record<string, string>[] = [
        { authorization: 'Bearer demo-token' },
        { authorization: 'Bearer demo-token', 'content-type': 'application/json' },
        { authorization: 'Bearer demo-token', 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' },
        { authorization: 'Bearer demo-token', 'x-client-version': '1.2.3', prefer: 'delay=1' },
      ];
      const out: { status: number | string; etag: string | null }[] = [];
      for (const headers of sets) {
        try {
          const res = await fetch(`${base}/api/demo/posts?limit=1`, { headers });
          out.push({ status: res.status, etag: res.headers.get('etag') });
        } catch (err) {
          out.push({ status: String(err), etag: null });
        }
      }
      return out;
    }, api.url);
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.etag).toMatch(/^"/);
    }
    await tab.close();
  });
});
