// The explorer page's HTTP side (docs/explorer.md), through every server that serves the API:
// startServer, the main createHandler and the edge handler given `explorerPage`. A browser asking
// for `/` gets the page, with a CSP that allows only its own hashed blocks, an ETag and no-cache;
// `/docs` and `/api` send it there; every other client gets exactly what it got before (404), and
// `ui: false` / `cqa serve --no-ui` turn the page off.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerPage } from '../../src/edge.js';
import { createHandler as createEdgeHandler } from '../../src/core/http/fetch.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { fetchClient, makeModel, socketClient, tempDir, type Client } from './fixture.js';

/** What Chromium sends for a page. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

let snapshot: Snapshot;
let server: RunningServer;
let serverWithoutUi: RunningServer;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  snapshot = createSnapshot(makeModel(tempDir()));
  server = await startServer({ snapshot });
  serverWithoutUi = await startServer({ snapshot, ui: false });
  clients.node = socketClient(server.url);
  clients.fetch = fetchClient(createHandler(snapshot));
  clients.edge = fetchClient(createEdgeHandler(snapshot, { explorer: explorerPage }));
});
afterAll(async () => {
  await server?.close();
  await serverWithoutUi?.close();
});

const base64Sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
const inline = (html: string, tag: string) => html.slice(html.indexOf(`<${tag}>`) + tag.length + 2, html.indexOf(`</${tag}>`));

describe.each(['node', 'fetch', 'edge'])('the explorer page (%s)', (kind) => {
  const client = () => clients[kind] as Client;

  it('answers a browser at / with the page: CSP by hash, ETag, no-cache, nothing from elsewhere', async () => {
    const r = await client()({ path: '/', headers: { accept: BROWSER } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.text).toMatch(/^<!doctype html>/);
    expect(r.text).toContain('<title>Content Query API explorer</title>');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(r.headers.vary).toContain('Accept');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const csp = r.headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'sha256-${base64Sha256(inline(r.text, 'script'))}'`);
    expect(csp).toContain(`style-src 'sha256-${base64Sha256(inline(r.text, 'style'))}'`);
    expect(csp).toContain("connect-src 'self'");
    // One document, no CDN: every link is to this server, no script or style is fetched.
    expect(r.text).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet|https?:\/\//);
    // The Node servers link to the API reference page; the edge page has none unless given Swagger UI.
    const links = kind === 'edge' ? ['data:,', '/openapi.json', '/healthz'] : ['data:,', '/reference', '/openapi.json', '/healthz'];
    expect([...r.text.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1])).toEqual(links);
  });

  it('serves the API reference page at /reference (Node servers): Swagger UI inlined, allowed by hash', async () => {
    const r = await client()({ path: '/reference', headers: { accept: BROWSER } });
    if (kind === 'edge') {
      expect(r.status).toBe(404);
      return;
    }
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cross-origin-opener-policy']).toBe('same-origin');
    const csp = r.headers['content-security-policy'] ?? '';
    const blocks = (tag: string) => [...r.text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] as string);
    const scripts = blocks('script');
    const styles = blocks('style');
    expect(scripts).toHaveLength(2);
    expect(styles).toHaveLength(2);
    expect(scripts[0]).toContain('SwaggerUIBundle');
    // Every inline block runs by its hash, nothing else runs: no source, no eval, no inline handler.
    expect(csp).toContain(`script-src ${scripts.map((t) => `'sha256-${base64Sha256(t)}'`).join(' ')};`);
    expect(csp).toContain(`style-src ${styles.map((t) => `'sha256-${base64Sha256(t)}'`).join(' ')};`);
    expect(csp).not.toMatch(/unsafe|\*|https?:/);
    expect(r.text).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet/);
    const again = await client()({ path: '/reference', headers: { accept: BROWSER, 'if-none-match': r.headers.etag as string } });
    expect(again.status).toBe(304);
    const slash = await client()({ path: '/reference/', headers: { accept: BROWSER } });
    expect([slash.status, slash.headers.location]).toEqual([302, '/reference']);
    // Not for API clients: the API's 404, as before.
    expect((await client()({ path: '/reference', headers: { accept: 'application/json' } })).status).toBe(404);
  });

  it('compresses the large reference page once, off the thread, then serves those bytes (found from outside: 200–290 ms of brotli per visit)', async () => {
    if (kind !== 'node') return;
    const own = await startServer({ snapshot });
    try {
      const get = () => socketClient(own.url)({ path: '/reference', headers: { accept: BROWSER, 'accept-encoding': 'br' } });
      const first = await get();
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers['content-length']).toBeUndefined(); // streamed: compressed for this answer
      let later = await get();
      for (let i = 0; i < 100 && later.headers['content-length'] === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        later = await get();
      }
      // The kept bytes: their length is known, and they decode to the same page under the same ETag.
      expect(Number(later.headers['content-length'])).toBe(later.raw.length);
      expect(later.raw.length).toBeLessThan(later.body.length / 2);
      expect(later.text).toBe(first.text);
      expect(later.headers.etag).toBe(first.headers.etag);
    } finally {
      await own.close();
    }
  });

  it('revalidates (304), answers HEAD without a body, and compresses for a browser', async () => {
    const first = await client()({ path: '/', headers: { accept: BROWSER } });
    const again = await client()({ path: '/', headers: { accept: BROWSER, 'if-none-match': first.headers.etag as string } });
    expect(again.status).toBe(304);
    expect(again.raw.length).toBe(0);
    const head = await client()({ method: 'HEAD', path: '/', headers: { accept: BROWSER } });
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    expect(head.headers.etag).toBe(first.headers.etag);
    const gz = await client()({ path: '/', headers: { accept: BROWSER, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.raw.length).toBeLessThan(first.raw.length / 2);
    expect(gz.text).toBe(first.text);
  });

  it('sends a browser from /docs and /api to /', async () => {
    for (const path of ['/docs', '/docs/', '/api', '/api/']) {
      const r = await client()({ path, headers: { accept: BROWSER } });
      expect(r.status, path).toBe(302);
      expect(r.headers.location, path).toBe('/');
    }
  });

  it('leaves every other client where it was: the same 404 as without the page', async () => {
    expect((await client()({ path: '/', headers: { accept: BROWSER } })).status).toBe(200);
    const before = socketClient(serverWithoutUi.url);
    const asks: Record<string, string>[] = [
      {},
      { accept: '*/*' },
      { accept: 'application/json' },
      { accept: 'application/json, text/html' },
      { accept: 'text/html;q=0.5, application/json' },
    ];
    for (const headers of asks) {
      for (const path of ['/', '/docs', '/api']) {
        const r = await client()({ path, headers });
        const was = await before({ path, headers });
        expect(r.status, `${path} ${headers.accept}`).toBe(404);
        expect(r.text).toBe(was.text);
        expect(r.headers['content-type']).toBe(was.headers['content-type']);
      }
    }
    // Other methods and other paths are the API's, as before.
    expect((await client()({ method: 'POST', path: '/', headers: { accept: BROWSER } })).status).toBe(405);
    expect((await client()({ path: '/index.html', headers: { accept: BROWSER } })).status).toBe(404);
  });
});

describe("the page's live refresh", () => {
  it('polls /healthz with X-CQA-Explorer: poll, which the server neither journals nor logs', async () => {
    const lines: string[] = [];
    const s = await startServer({ snapshot, quiet: false, log: (l) => lines.push(l) });
    try {
      const asks: Record<string, string>[] = [{ accept: 'application/json', 'x-cqa-explorer': 'poll' }, { accept: 'application/json' }];
      for (const headers of asks) {
        const r = await fetch(`${s.url}/healthz`, { headers });
        expect(r.status).toBe(200);
        await r.text();
      }
      expect(s.requests().map((r) => [r.path, r.headers['x-cqa-explorer']])).toEqual([['/healthz', undefined]]);
      expect(lines.filter((l) => l.startsWith('GET /healthz'))).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

describe('turning the page off', () => {
  it('startServer({ ui: false }), createHandler(…, { ui: false }) and an edge handler without explorer answer 404', async () => {
    const on = [
      socketClient(server.url),
      fetchClient(createHandler(snapshot, { ui: true })),
      fetchClient(createEdgeHandler(snapshot, { explorer: explorerPage })),
    ];
    for (const c of on) expect((await c({ path: '/', headers: { accept: BROWSER } })).status).toBe(200);
    const off = [
      socketClient(serverWithoutUi.url),
      fetchClient(createHandler(snapshot, { ui: false })),
      fetchClient(createEdgeHandler(snapshot)),
    ];
    for (const c of off) {
      const r = await c({ path: '/', headers: { accept: BROWSER } });
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    }
  });

  it('cqa serve prints the page URL, and --no-ui turns the page off', async () => {
    const serve = async (args: string[]) => {
      const child = spawn(process.execPath, ['bin/cqa.js', 'serve', 'content', '--port', '0', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let out = '';
        const url = await new Promise<string>((ok, fail) => {
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            const m = /serving \S+ at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (m && out.includes('try: curl')) ok(m[1] as string);
          });
          child.once('exit', (code) => fail(new Error(`cqa serve exited ${code}: ${out}`)));
        });
        const res = await fetch(`${url}/`, { headers: { accept: BROWSER } });
        await res.arrayBuffer();
        return { status: res.status, out };
      } finally {
        child.kill('SIGTERM');
      }
    };
    const on = await serve([]);
    expect(on.status).toBe(200);
    expect(on.out).toMatch(/explorer: http:\/\/127\.0\.0\.1:\d+\/ {2}\(open it in a browser\)/);
    const off = await serve(['--no-ui']);
    expect(off.status).toBe(404);
    expect(off.out).not.toContain('explorer:');
  }, 30_000);
});
