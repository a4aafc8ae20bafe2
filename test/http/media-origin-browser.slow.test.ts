// Media on the API origin, in a real browser (docs/security.md, "Media origin"): headless Chromium
// opens each media file that tries to run script — HTML, SVG, XML, XHTML, JavaScript, HTML
// disguised as PNG or text — from `cqa serve` and from `cqa preview` of a build. No script may run
// (a download, or a sandboxed document). And the explorer keeps no token where another page of
// its origin could read it: the field is cleared once used, and a page that opens it keeps no handle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { loadContent } from '../../src/node/content/index.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { ACTIVE, DISGUISED, mediaTree, TRAVEL } from './media-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-media-browser-'));
let server: RunningServer;
let preview: PreviewServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  const launch = chromiumOptions();
  const root = join(work, 'content');
  await mediaTree(root);
  const { model, issues } = await loadContent(root);
  expect(issues).toEqual([]);
  const snapshot = createSnapshot(model);
  server = await startServer({ snapshot });
  await writeDist(snapshot, { out: join(work, 'dist') });
  preview = await startPreview({ dir: join(work, 'dist'), port: 0 });
  browser = await chromium.launch(launch);
  context = await browser.newContext({ acceptDownloads: true });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  await preview?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Opens `url` in a new tab; what the page logged and whether it became a download. */
async function open(url: string): Promise<{ logged: string[]; downloaded: boolean }> {
  const page = await context.newPage();
  const logged: string[] = [];
  let downloaded = false;
  page.on('console', (m) => logged.push(m.text()));
  page.on('download', () => {
    downloaded = true;
  });
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 10_000 });
  } catch (err) {
    // A download aborts the navigation; anything else is a real failure.
    if (!/download|ERR_ABORTED/i.test(String(err))) throw err;
  }
  await page.close();
  return { logged, downloaded };
}

describe.each(['serve', 'preview'])('media files opened in Chromium (%s)', (name) => {
  const base = () => (name === 'serve' ? server.url : preview.url);

  it('runs no script from HTML, SVG, XML, XHTML or JS media: each is a download', async () => {
    const paths = [...Object.keys(ACTIVE).map((f) => `/media/site/${f}`), `/media/${TRAVEL}/page.html`];
    for (const path of paths) {
      const r = await open(base() + path);
      expect(
        r.logged.filter((l) => l.includes('MEDIA SCRIPT RAN')),
        path,
      ).toEqual([]);
      expect(r.downloaded, path).toBe(true);
    }
  }, 60_000);

  it('runs no script from HTML disguised as an image or text', async () => {
    for (const f of Object.keys(DISGUISED)) {
      const r = await open(`${base()}/media/site/${f}`);
      expect(
        r.logged.filter((l) => l.includes('MEDIA SCRIPT RAN')),
        f,
      ).toEqual([]);
    }
  }, 30_000);
});

describe('the explorer and its token', () => {
  it('clears the token field once the token is used, and keeps working with it', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.focus('#token');
    await page.keyboard.type('travel-token');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#token-status'), { timeout: 10_000 }).toMatch(/Token accepted/);
    expect(await page.inputValue('#token')).toBe('');
    expect(await page.content()).not.toContain('travel-token');
    await page.click('#forget');
    await expect.poll(() => page.textContent('#token-status'), { timeout: 10_000 }).toMatch(/readable without a token|No project/);
    await page.close();
  }, 30_000);

  it('gives a page of the same origin that opens it no handle on its document', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/healthz`);
    const reach = await page.evaluate(async () => {
      const w = window.open('/');
      await new Promise((done) => setTimeout(done, 1500));
      try {
        return w === null || w.closed ? 'cut off' : typeof w.document.getElementById('token');
      } catch (err) {
        return `refused: ${String(err)}`;
      }
    });
    expect(reach).not.toBe('object');
    for (const p of context.pages()) if (p !== page) await p.close();
    await page.close();
  }, 30_000);
});
