// Netlify has no local server: the `_redirects` and `_headers` of a build (the sample, with
// thumbnails-free media and an elmapi project) are checked against the syntax Netlify documents
// (docs.netlify.com, "Redirects and rewrites" and "Custom headers"), and the Cloudflare build
// against the narrower set of statuses Pages accepts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { writeDist } from '../../src/node/output/dist.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-netlify-'));
beforeAll(async () => {
  const snapshot = await buildSnapshot({ content: 'content' });
  await writeDist(snapshot, { out: join(work, 'netlify') });
  await writeDist(snapshot, { out: join(work, 'cloudflare'), host: 'cloudflare' });
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Netlify's statuses for `_redirects` (optionally forced with `!`). */
const NETLIFY_STATUSES = new Set(['200', '301', '302', '303', '307', '308', '404', '410', '451']);
/** Cloudflare Pages': redirects and 200 rewrites only. */
const PAGES_STATUSES = new Set(['200', '301', '302', '303', '307', '308']);

const rules = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

/** The documented shape of one `_redirects` rule: `from to [status[!]]`. */
function checkRule(line: string, statuses: ReadonlySet<string>): void {
  const fields = line.split(/\s+/);
  expect(fields.length, line).toBeGreaterThanOrEqual(2);
  expect(fields.length, line).toBeLessThanOrEqual(3);
  const [from = '', to = '', status = '301'] = fields;
  expect(from, line).toMatch(/^\//);
  // A splat is `*` at the end of `from` only, and `:splat` in `to` needs one.
  expect(from.slice(0, -1), line).not.toContain('*');
  if (to.includes(':splat')) expect(from.endsWith('*'), line).toBe(true);
  expect(to, line).toMatch(/^\//);
  expect(statuses.has(status.replace(/!$/, '')), `${line}: status ${status}`).toBe(true);
}

/** The documented shape of `_headers`: a path at the start of a line, then indented `Name: value` lines. */
function checkHeaders(text: string): void {
  let path: string | undefined;
  let headers = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      if (path !== undefined) expect(headers, `${path} sets no header`).toBeGreaterThan(0);
      expect(line, 'a path').toMatch(/^\/\S*$/);
      path = line;
      headers = 0;
      continue;
    }
    expect(path, `${line}: a header before any path`).toBeDefined();
    expect(line, 'an indented header').toMatch(/^ {2}[!#$%&'*+.^_`|~0-9A-Za-z-]+: [^\r\n]+$/);
    headers++;
  }
  expect(headers).toBeGreaterThan(0);
}

describe('Netlify _redirects and _headers (documented syntax)', () => {
  it('every _redirects rule is `from to status` with a documented status and a trailing splat', () => {
    const lines = rules(readFileSync(join(work, 'netlify/_redirects'), 'utf8'));
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) checkRule(line, NETLIFY_STATUSES);
    // The rewrite first, then the 404 rules, most specific first (the first match wins).
    expect(lines[0]).toBe('/api/*  /api/:splat/index.json  200');
    const prefixes = lines.slice(1).map((l) => l.split(/\s+/)[0] as string);
    for (let i = 1; i < prefixes.length; i++) {
      const before = prefixes.slice(0, i).map((p) => p.slice(0, -1));
      expect(
        before.some((p) => (prefixes[i] as string).slice(0, -1).startsWith(p)),
        `${prefixes[i]} is shadowed by an earlier rule`,
      ).toBe(false);
    }
  });

  it('_headers: paths and indented headers; the API typed JSON with CORS and Cache-Control', () => {
    const text = readFileSync(join(work, 'netlify/_headers'), 'utf8');
    checkHeaders(text);
    expect(text).toMatch(/^\/api\/\*\n {2}Content-Type: application\/json; charset=utf-8\n/m);
    expect(text).toMatch(/^ {2}Cache-Control: public, max-age=0, must-revalidate$/m);
    expect(text).toMatch(/^\/media\/\*\n(?: {2}.*\n)* {2}Cache-Control: public, max-age=3600$/m);
  });
});

describe('Cloudflare Pages _redirects', () => {
  it('only statuses Pages accepts (no 404 rule), and a 404.html beside each JSON 404 document', () => {
    const lines = rules(readFileSync(join(work, 'cloudflare/_redirects'), 'utf8'));
    expect(lines).toEqual(['/api/*  /api/:splat/index.json  200']);
    for (const line of lines) checkRule(line, PAGES_STATUSES);
    checkHeaders(readFileSync(join(work, 'cloudflare/_headers'), 'utf8'));
    expect(readFileSync(join(work, 'cloudflare/api/404.html'), 'utf8')).toBe(readFileSync(join(work, 'cloudflare/api/404.json'), 'utf8'));
    const travel = 'api/5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';
    expect(readFileSync(join(work, `cloudflare/${travel}/articles/404.html`), 'utf8')).toBe('{"error":"Not found!"}');
  });
});
