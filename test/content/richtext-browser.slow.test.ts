// Issue 20, item 1, in a real browser: richtext is put into a page with innerHTML (the documented
// use) in headless Chromium (Debian's, driven by playwright-core) and every link is clicked. No
// dialog may open and no frame may navigate to anything but http(s). A hand-written
// `javascript:` link clicked last proves that the page would have seen one. One browser launch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOptions } from '../chromium.js';
import { renderRichtext } from '../../src/node/content/richtext.js';
import { scriptLinkMarkdown } from './script-link-arbitraries.js';
import { rawHtmlMarkdown } from './raw-html-arbitraries.js';
import { SCRIPT_LINKS } from './script-links.js';

// Never fetched: every request of the page is answered by page.route below.
const SITE = 'http://cqa.test';

let context: BrowserContext;
let page: Page;
const profile = mkdtempSync(join(tmpdir(), 'cqa-chromium-'));
const dialogs: string[] = [];
const navigations: string[] = [];

beforeAll(async () => {
  const launch = chromiumOptions();
  context = await chromium.launchPersistentContext(profile, launch);
  page = await context.newPage();
  await page.route('**/*', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><body></body>' }),
  );
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  await page.goto(`${SITE}/page`);
}, 60_000);

afterAll(async () => {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
});

/** Puts each HTML into its own iframe with innerHTML and clicks its links, one iframe per link. */
async function clickAll(page: Page, snippets: string[]): Promise<number> {
  return page.evaluate(async (snippets) => {
    const mount = async (html: string) => {
      const frame = document.createElement('iframe');
      frame.src = '/frame';
      await new Promise((resolve) => {
        frame.addEventListener('load', resolve, { once: true });
        document.body.append(frame);
      });
      const body = (frame.contentDocument as Document).body;
      body.innerHTML = html;
      return body.querySelectorAll('a');
    };
    let clicked = 0;
    for (const html of snippets) {
      const first = await mount(html);
      for (let j = 0; j < first.length; j++) {
        // A fresh frame per link: following one link must not stop the next from being clicked.
        const links = j === 0 ? first : await mount(html);
        (links[j] as HTMLAnchorElement).click();
        clicked++;
      }
    }
    return clicked;
  }, snippets);
}

describe('richtext links in Chromium', () => {
  it('run no script when clicked after innerHTML', async () => {
    const rendered = SCRIPT_LINKS.map((markdown) => renderRichtext(markdown));
    await clickAll(page, rendered);
    // The control: a script link written by hand, clicked after all the others.
    const control = page.waitForEvent('dialog', { predicate: (d) => d.message() === 'control', timeout: 10_000 });
    expect(await clickAll(page, ['<a href="javascript:alert(\'control\')">control</a>'])).toBe(1);
    await control;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(dialogs).toEqual(['control']);
    expect(navigations.filter((url) => !/^https?:/.test(url))).toEqual([]);
  }, 60_000);

  // Found from outside: after an inline <kbd>, <code>, <pre> or <script> left open, marked passed
  // the rest of the block through unescaped, and this page's dialogs opened.
  it('runs no script from raw HTML in richtext after innerHTML', async () => {
    const seen = dialogs.length;
    const markdown = [
      '<kbd> <img src=x onerror=alert(1)//',
      'x <code> <img src=x onerror=alert(2)//',
      'a <script> <svg onload=alert(3)',
      ...fc.sample(rawHtmlMarkdown, { numRuns: 150, seed: 2026 }),
    ];
    await page.evaluate(
      async (snippets) => {
        for (const html of snippets) {
          const frame = document.createElement('iframe');
          frame.src = '/frame';
          await new Promise((resolve) => {
            frame.addEventListener('load', resolve, { once: true });
            document.body.append(frame);
          });
          (frame.contentDocument as Document).body.innerHTML = html;
        }
      },
      [...markdown.map((m) => renderRichtext(m)), '<img src=x onerror="alert(\'control\')">'],
    );
    // The control, written by hand last, proves that a handler left in the HTML would have run.
    await page.waitForEvent('dialog', { predicate: (d) => d.message() === 'control', timeout: 10_000 }).catch(() => undefined);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(dialogs.slice(seen)).toEqual(['control']);
  }, 60_000);

  it('resolves every generated href and src to http(s), mailto or the page', async () => {
    const samples = fc.sample(scriptLinkMarkdown, { numRuns: 400, seed: 2020 });
    const html = samples.map((markdown) => renderRichtext(markdown)).join('\n');
    const urls = await page.evaluate((html) => {
      const div = document.createElement('div');
      div.innerHTML = html;
      return [...div.querySelectorAll('a[href], img[src]')].map((e) =>
        e instanceof HTMLAnchorElement ? e.href : (e as HTMLImageElement).src,
      );
    }, html);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((url) => !/^(?:https?|mailto):/.test(url))).toEqual([]);
  }, 30_000);
});
