// One `cqa build` of the sample, written for each host with `--host` (writeDist's `host`), served
// by the real server, and checked against the same URL table (issue 22): every API path 200 with
// the JSON type and the build's bytes, ETag → 304, CORS on 200/304/404, the JSON 404 of an unknown
// path, compression with Vary, `_` files and folder listings never served, media typed with
// Range, the default Cache-Control. Each server is started once; a server whose binary is absent
// is skipped with a message saying what to install.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { startPreview } from '../../src/node/server/preview.js';
import { headersFile, writeDist } from '../../src/node/output/dist.js';
import type { Precompress } from '../../src/node/output/dist-compression.js';
import type { Host } from '../../src/node/output/hosts/index.js';
import { DEFAULT_API_CACHE_CONTROL, DEFAULT_MEDIA_CACHE_CONTROL } from '../../src/node/output/hosts/policy.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { MEDIA_CSP } from '../../src/core/http/media-headers.js';
import { CADDY, missing, NGINX, startCaddy, startNginx, startPages, startServe, type RunningHost } from './servers.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-hosts-'));
const reference = join(work, 'reference');
let snapshot: Snapshot;
beforeAll(async () => {
  snapshot = await buildSnapshot({ content: 'content' });
  // The tree with every 404 document (serve's build writes none: it has its 404.html).
  await writeDist(snapshot, { out: reference, precompress: 'none' });
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const JSON_TYPE = 'application/json; charset=utf-8';
const ELMAPI = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';

interface HostCase {
  readonly name: string;
  readonly build: Host;
  readonly precompress: Precompress;
  readonly start: (dist: string) => Promise<RunningHost>;
  /** Why it cannot run here, if it cannot. */
  readonly absent?: string;
  /** Which encodings it serves from the build's siblings or compresses to. */
  readonly codings: readonly ('gzip' | 'br')[];
  /** It sends Vary: Accept-Encoding (miniflare's asset server does not; Cloudflare's edge adds it). */
  readonly vary: boolean;
  /** Each elmapi project's own 404 messages (serve has one 404.html for the whole site). */
  readonly projectNotFound: boolean;
  /** It sends its headers on a 304 (serve sends none: a browser's own revalidation keeps the stored ones). */
  readonly headersOn304: boolean;
  /** It answers Range with 206 (miniflare's asset server sends the whole file; Cloudflare's edge answers Range). */
  readonly range: boolean;
}

const pagesWarnings: string[] = [];
const HOSTS: HostCase[] = [
  {
    name: 'nginx',
    build: 'nginx',
    precompress: 'gzip',
    start: (d) => startNginx(d),
    absent: missing(NGINX, 'nginx-light'),
    codings: ['gzip'],
    vary: true,
    projectNotFound: true,
    headersOn304: true,
    range: true,
  },
  {
    name: 'Caddy',
    build: 'caddy',
    precompress: 'all',
    start: startCaddy,
    absent: missing(CADDY, 'caddy'),
    codings: ['gzip', 'br'],
    vary: true,
    projectNotFound: true,
    headersOn304: true,
    range: true,
  },
  {
    name: 'Cloudflare Pages (miniflare)',
    build: 'cloudflare',
    precompress: 'none',
    start: (d) => startPages(d, pagesWarnings),
    codings: ['br'],
    vary: false,
    projectNotFound: true,
    headersOn304: true,
    range: false,
  },
  {
    name: 'serve',
    build: 'serve',
    precompress: 'none',
    start: startServe,
    codings: ['gzip'],
    vary: true,
    projectNotFound: false,
    headersOn304: false,
    range: true,
  },
  {
    name: 'cqa preview (Netlify files)',
    build: 'netlify',
    precompress: 'all',
    start: async (d) => startPreview({ dir: d, port: 0 }),
    codings: ['gzip', 'br'],
    vary: true,
    projectNotFound: true,
    headersOn304: true,
    range: true,
  },
];

/** Every file under `dir`, '/'-separated. */
function files(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(dir, `${rel}${d.name}/`) : [`${rel}${d.name}`],
  );
}

for (const host of HOSTS) {
  describe.skipIf(host.absent !== undefined)(`${host.name}${host.absent ? ` — skipped: ${host.absent}` : ''}`, () => {
    let dist: string;
    let server: RunningHost;
    beforeAll(async () => {
      dist = join(work, host.build);
      await writeDist(snapshot, { out: dist, host: host.build, precompress: host.precompress });
      server = await host.start(dist);
    }, 60_000);
    afterAll(() => server?.close());

    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(server.url + path, { headers: { 'accept-encoding': 'identity', ...headers }, redirect: 'manual' });

    it("every API path (and each .query index) answers 200, application/json; charset=utf-8, the build's bytes, CORS and the default Cache-Control", async () => {
      // The elmapi3 project (content/shop3) is left out of a tree with other projects (built alone with --project).
      const v3 = [...snapshot.projects.values()].filter((p) => p.record.dialect === 'elmapi3').map((p) => p.record.id);
      const paths = [
        ...snapshot.paths.filter((p) => !v3.includes(p.split('/')[2] as string)),
        ...files(dist)
          .filter((f) => f.endsWith('.query/index.json'))
          .map((f) => `/${f.slice(0, -'/index.json'.length)}`),
      ];
      expect(paths.length).toBeGreaterThan(50);
      for (const path of paths) {
        const res = await get(path.split('/').map(encodeURIComponent).join('/'));
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toBe(JSON_TYPE);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(res.headers.get('cache-control'), path).toBe(DEFAULT_API_CACHE_CONTROL);
        expect(await res.text(), path).toBe(readFileSync(join(dist, path.slice(1), 'index.json'), 'utf8'));
      }
    });

    it('openapi.json and manifest.json are JSON with CORS', async () => {
      for (const path of ['/openapi.json', '/manifest.json']) {
        const res = await get(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toBe(JSON_TYPE);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(await res.text()).toBe(readFileSync(join(dist, path), 'utf8'));
      }
    });

    // Cloudflare's asset server answers OPTIONS 405 whatever _headers says (docs/hosting.md).
    it.skipIf(host.build === 'cloudflare')(
      "the preflight allows what the clients send: If-None-Match, and the v3 SDK's Authorization and project-id",
      async () => {
        const res = await fetch(`${server.url}/api/demo/posts`, {
          method: 'OPTIONS',
          headers: {
            origin: 'http://example.test',
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization,project-id,if-none-match',
          },
        });
        await res.arrayBuffer();
        // serve answers OPTIONS as it answers GET, with the rule's headers (found from outside: without Allow-Headers).
        expect(res.status).toBe(host.build === 'serve' ? 200 : 204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-headers') ?? '').toMatch(/if-none-match.*authorization.*project-id/i);
      },
    );

    // Found from outside: the ElmapiCMS SDK's where, sort and paginate got the whole document, 200.
    // Cloudflare Pages and serve cannot be told to look at the query (docs/hosting.md).
    it.skipIf(host.build === 'serve' || host.build === 'cloudflare')(
      "a query string on an API path answers 400 in the path's dialect, with CORS; an empty one, or one on a media file, is served",
      async () => {
        for (const [path, shape] of [
          ['/api/demo/posts?where[featured]=true', { code: 'query_not_supported', status: 400 }],
          ['/api/demo/nope?limit=1', { code: 'query_not_supported', status: 400 }],
          ['/api?x=1', { code: 'query_not_supported', status: 400 }],
          [
            `/api/${ELMAPI}/articles?limit=1`,
            { error: expect.stringContaining('a static host does not evaluate queries'), code: 'query_not_supported' },
          ],
        ] as const) {
          const res = await get(path);
          expect(res.status, path).toBe(400);
          expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
          expect(res.headers.get('content-type') ?? '', path).toMatch(/^application\/(problem\+)?json; charset=utf-8$/);
          // A refusal is no document: no cache keeps it (found from outside: Caddy and nginx sent the API's public Cache-Control).
          expect(res.headers.get('cache-control'), path).toBe('no-cache');
          const body = await res.json();
          expect(body, path).toMatchObject(shape);
          expect(JSON.stringify(body), path).toContain("use the static client (createClient({ baseUrl, project, mode: 'static' })");
        }
        expect((await get('/api/demo/posts?')).status).toBe(200);
        const media = await get('/media/demo/hero.png?v=2');
        expect(media.status).toBe(200);
        await media.arrayBuffer();
      },
    );

    // Found from outside: the JSON answers of nginx and Caddy (200, 404, the 400 of a query) had no
    // nosniff, which _headers sends for /api/*; cqa preview's text 404 and 405 and its 400 neither.
    it('every answer carries X-Content-Type-Options: nosniff', async () => {
      const etag = (await get('/api/demo/posts')).headers.get('etag') ?? '';
      const requests: (readonly [string, string, Record<string, string>?])[] = [
        ['GET', '/api/demo/posts'],
        ['HEAD', '/api/demo/posts'],
        ['GET', '/openapi.json'],
        ['GET', '/api/demo/posts/no-such-post'],
        ['GET', '/api/demo/posts?limit=1'],
        ['GET', `/api/${ELMAPI}/articles?limit=1`],
        ['OPTIONS', '/api/demo/posts'],
        ['POST', '/api/demo/posts'],
        ['GET', '/api/demo/_x'],
        ['GET', '/media/demo/hero.png'],
        ['GET', '/media/demo/logo.svg'],
        ['GET', '/media/demo/no-such-file.png'],
        ['POST', '/media/demo/hero.png'],
        // Pages answers a path no `_headers` rule names with its own empty 404 (docs/hosting.md).
        ...(host.build === 'cloudflare' ? [] : ([['GET', '/_headers']] as const)),
        // serve sends no headers on a 304 (docs/hosting.md#npx-serve).
        ...(host.headersOn304 ? ([['GET', '/api/demo/posts', { 'if-none-match': etag }]] as const) : []),
      ];
      for (const [method, path, headers] of requests) {
        const res = await fetch(server.url + path, { method, headers, redirect: 'manual' });
        await res.arrayBuffer();
        expect(res.headers.get('x-content-type-options'), `${method} ${path} → ${res.status}`).toBe('nosniff');
      }
    });

    it('an ETag, and If-None-Match answers 304 with CORS', async () => {
      const first = await get('/api/demo/posts');
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await get('/api/demo/posts', { 'if-none-match': etag as string });
      expect(again.status).toBe(304);
      if (host.headersOn304) expect(again.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('an unknown API path answers 404 with the JSON problem, typed JSON, with CORS', async () => {
      const cqa = JSON.parse(readFileSync(join(reference, 'api/404.json'), 'utf8')) as unknown;
      const cases: [string, unknown][] = [
        ['/api/demo/posts/no-such-post', cqa],
        ['/api/no-such-project', cqa],
        ['/api/demo/no-such-collection/x', cqa],
        [`/api/${ELMAPI}/articles/999`, host.projectNotFound ? { error: 'Not found!' } : cqa],
        [`/api/${ELMAPI}/nope`, host.projectNotFound ? { error: 'Collection not found!' } : cqa],
      ];
      for (const [path, body] of cases) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type'), path).toBe(JSON_TYPE);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(JSON.parse(await res.text()), path).toEqual(body);
      }
      // As the clients ask (Accept: application/json): the same answer, but on serve, which then
      // answers its own body without serve.json's headers, CORS included (docs/hosting.md#npx-serve).
      for (const [path, body] of cases) {
        const res = await get(path, { accept: 'application/json' });
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type'), path).toBe(JSON_TYPE);
        if (host.build === 'serve') {
          expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
          expect(await res.json(), path).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
        } else {
          expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
          expect(await res.json(), path).toEqual(body);
        }
      }
    });

    // serve redirects such a path to its 404 (docs/hosting.md#npx-serve).
    it.skipIf(host.build === 'serve')(
      'an API path with a name longer than the file system takes answers the JSON 404 of its prefix, as any unknown path',
      async () => {
        const cqa = JSON.parse(readFileSync(join(reference, 'api/404.json'), 'utf8')) as unknown;
        const long = 'a'.repeat(300);
        const wide = '%C3%A9'.repeat(150); // 150 characters, 300 bytes
        for (const [path, body] of [
          [`/api/${long}`, cqa],
          [`/api/demo/posts/${long}`, cqa],
          [`/api/demo/${wide}`, cqa],
          [`/api/${ELMAPI}/articles/${long}`, { error: 'Not found!' }],
        ] as const) {
          // Found from outside: Caddy answered "404 Not Found" typed JSON.
          const res = await get(path);
          expect(res.status, path.slice(0, 40)).toBe(404);
          expect(res.headers.get('content-type'), path.slice(0, 40)).toBe(JSON_TYPE);
          expect(res.headers.get('access-control-allow-origin'), path.slice(0, 40)).toBe('*');
          expect(JSON.parse(await res.text()), path.slice(0, 40)).toEqual(body);
        }
      },
    );

    // Pages, serve and cqa preview have no rule for the bare /api of a tree of cqa projects (docs/hosting.md).
    it.runIf(host.build === 'nginx' || host.build === 'caddy')('/api itself answers the JSON 404 with CORS, not a redirect', async () => {
      const res = await get('/api');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(JSON.parse(await res.text())).toEqual(JSON.parse(readFileSync(join(reference, 'api/404.json'), 'utf8')));
    });

    // Netlify serves every file by its name (a rule cannot hide one without a forced rewrite); cqa preview does as it does.
    it.skipIf(host.build === 'netlify' || host.build === 'serve')('an API path is no file path: …/index.json answers 404', async () => {
      for (const path of ['/api/demo/posts/index.json', '/api/demo/index.json']) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        await res.arrayBuffer();
      }
    });

    it.skipIf(host.build === 'netlify')('the 404 documents are no API paths: asked for by name, each answers 404', async () => {
      const docs = files(reference).filter((f) => f.startsWith('api/') && f.endsWith('/404.json'));
      expect(docs.length).toBeGreaterThan(1);
      for (const doc of docs) {
        const res = await get(`/${doc}`);
        expect(res.status, doc).toBe(404);
        expect(res.headers.get('content-type'), doc).toBe(JSON_TYPE);
        // serve has one 404 document, the tree's: it answers that one for every name.
        const body = host.projectNotFound ? doc : 'api/404.json';
        expect(JSON.parse(await res.text()), doc).toEqual(JSON.parse(readFileSync(join(reference, body), 'utf8')));
      }
    });

    // serve answers every method alike (docs/hosting.md#serve).
    it.skipIf(host.build === 'serve')(
      'a write (POST, PUT, DELETE) to an API path is refused, never answered with the document',
      async () => {
        for (const method of ['POST', 'PUT', 'DELETE']) {
          const res = await fetch(`${server.url}/api/demo/posts`, { method, body: method === 'DELETE' ? undefined : '{}' });
          expect(res.status, method).toBeGreaterThanOrEqual(400);
          expect(res.status, method).toBeLessThan(500);
          // What it says is what it is (found from outside: Caddy's text typed JSON). Pages answers
          // an empty 405 that _headers types (its own answer: hosting.md says so).
          const text = await res.text();
          if (host.build !== 'cloudflare' && res.headers.get('content-type')?.includes('json'))
            expect(() => JSON.parse(text), `${method}: ${text}`).not.toThrow();
          // A refusal no cache keeps, as Caddy's other refusals (found from outside: it had the API's public Cache-Control).
          if (host.build === 'caddy') expect(res.headers.get('cache-control'), method).toBe('no-cache');
        }
      },
    );

    // The files are named in one case; serve and Caddy match rules without case.
    it('an API path in another case answers 404, as cqa serve does', async () => {
      for (const path of ['/API/demo/posts', '/Api/demo', '/api/DEMO/posts', '/api/demo/Posts']) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        // The JSON 404 where a rule can say so (Pages and cqa preview: their own 404, as for any unknown path).
        if (host.build !== 'cloudflare' && host.build !== 'netlify') expect(res.headers.get('content-type'), path).toBe(JSON_TYPE);
        await res.arrayBuffer();
      }
    });

    it.skipIf(host.build === 'netlify')("the build's 404 pages are no documents: asked for by name, each answers 404", async () => {
      const pages = files(dist).filter((f) => f.endsWith('404.html'));
      for (const page of pages) {
        const res = await fetch(`${server.url}/${page}`, { headers: { 'accept-encoding': 'identity' } });
        expect(res.status, page).toBe(404);
        await res.arrayBuffer();
      }
    });

    it('compressed answers decode to the same bytes, with Vary: Accept-Encoding', async () => {
      // The uncompressed answer says it too, or a cache in front keeps it for every client (found from outside: Caddy).
      if (host.vary)
        for (const coding of ['identity', '']) {
          const res = await get('/api/demo/posts', { 'accept-encoding': coding });
          expect(res.headers.get('content-encoding'), coding).toBeNull();
          expect(res.headers.get('vary') ?? '', coding).toMatch(/accept-encoding/i);
          await res.arrayBuffer();
        }
      for (const coding of host.codings) {
        const res = await fetch(`${server.url}/api/demo/posts`, { headers: { 'accept-encoding': coding } });
        expect(res.headers.get('content-encoding'), coding).toBe(coding);
        if (host.vary) expect(res.headers.get('vary') ?? '', coding).toMatch(/accept-encoding/i);
        expect(await res.text()).toBe(readFileSync(join(dist, 'api/demo/posts/index.json'), 'utf8')); // fetch decodes
      }
    });

    it('configuration files (_headers, _redirects, _nginx.conf, _Caddyfile), dot files and compressed siblings are never served', async () => {
      for (const path of [
        '/_headers',
        '/_redirects',
        '/_nginx.conf',
        '/_Caddyfile',
        '/.well-known/x',
        '/api/demo/_x',
        '/api/demo/posts/index.json.br',
        '/api/demo/posts/index.json.gz',
        // Found from outside: the siblings of the top-level documents were served by name.
        '/openapi.json.br',
        '/openapi.json.gz',
        '/manifest.json.gz',
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        await res.arrayBuffer();
      }
      // Under /api/ the JSON 404 with CORS, as for any path no file has (found from outside: HTML, or an empty body).
      for (const path of ['/api/demo/_collection.yaml', '/api/demo/posts/.hidden', '/api/demo/posts/index.json.gz']) {
        const res = await get(path);
        const text = await res.text();
        expect(res.status, path).toBe(404);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(text.startsWith('{'), `${path}: ${text.slice(0, 40)}`).toBe(true);
        expect(JSON.parse(text), path).toMatchObject({ status: 404 });
      }
    });

    // Found from outside: the rule that hid them was server-wide, so a site served beside the tree
    // (the same-origin setup of docs/client.md) lost /_astro, /_next and /.well-known.
    it.runIf(host.build === 'nginx' || host.build === 'caddy')(
      "a site's own files beside the tree are served (/_astro, /.well-known); dot files and the tree's _ names are not",
      async () => {
        const site = {
          '_astro/app.js': 'app',
          '.well-known/security.txt': 'sec',
          '.git/config': 'git',
          'site/.env': 'env',
          'media/demo/_x.png': 'x',
        };
        for (const [path, text] of Object.entries(site)) {
          mkdirSync(dirname(join(dist, path)), { recursive: true });
          writeFileSync(join(dist, path), text);
        }
        try {
          for (const [path, status] of [
            ['/_astro/app.js', 200],
            ['/.well-known/security.txt', 200],
            ['/.git/config', 404],
            ['/%2egit/config', 404],
            ['/site/.env', 404],
            ['/media/demo/_x.png', 404],
            ['/_nginx.conf', 404],
            ['/_Caddyfile', 404],
          ] as const) {
            const res = await get(path);
            expect(res.status, path).toBe(status);
            await res.arrayBuffer();
          }
        } finally {
          for (const path of ['_astro', '.well-known', '.git', 'site', 'media/demo/_x.png'])
            rmSync(join(dist, path), { recursive: true, force: true });
        }
      },
    );

    // Found from outside: Caddy's file_server answered 500 to a name the file system refuses.
    it('a path no file can have (a NUL, a name or path longer than the file system allows) is a 4xx, never a 5xx', async () => {
      const long = 'a'.repeat(300);
      const wide = '%C3%A9'.repeat(150); // 150 characters, 300 bytes
      const deep = 'a/'.repeat(2500);
      // Found from outside (serve): names and paths over the limit in bytes, not in characters.
      const cjk = '%E6%97%A5'.repeat(86); // 86 characters, 258 bytes
      const mixed = `${'a'.repeat(100)}${'%C3%A9'.repeat(78)}`; // 178 characters, 256 bytes
      const wideDeep = Array.from({ length: 20 }, () => '%E6%97%A5'.repeat(80)).join('/'); // 1,619 characters, 4,819 bytes
      const nearMax = Array.from({ length: 16 }, () => 'a'.repeat(254)).join('/'); // 4,079 characters
      for (const path of [
        '/api/%00',
        '/_Caddyfile%00',
        '/media/x%00.png',
        `/api/${long}`,
        `/media/${wide}`,
        `/${long}`,
        `/api/${deep}`,
        `/media/demo/${cjk}`,
        `/api/demo/posts/${mixed}`,
        `/media/${wideDeep}`,
        `/media/${nearMax}`,
        // A `%` that escapes nothing (a name not encoded): each host's own 4xx (docs/hosting.md), Pages after a redirect.
        '/media/demo/hero%.png',
        '/api/demo/project-media/100%.txt',
        '/api/demo/posts/%zz',
      ]) {
        // serve redirects such paths to its 404, as it does a folder's listing.
        const res = await fetch(server.url + path);
        expect(res.status, path.slice(0, 40)).toBeGreaterThanOrEqual(400);
        expect(res.status, path.slice(0, 40)).toBeLessThan(500);
        // A refusal is kept by no cache (found from outside: Caddy's 400 had the API's public Cache-Control).
        if (res.status === 400) expect(res.headers.get('cache-control') ?? 'no-cache', path.slice(0, 40)).toBe('no-cache');
        await res.arrayBuffer();
      }
    });

    // serve redirects a folder to its 404 (docs/hosting.md#npx-serve).
    it.skipIf(host.build === 'serve')(
      'a media folder is a 404, as a missing file is (found from outside: nginx redirected, then 403)',
      async () => {
        // Found from outside: nginx redirected /media to /media/.
        for (const path of ['/media', '/media/', '/media/demo', '/media/demo/', '/media/demo/posts', '/media/demo/posts/']) {
          const res = await get(path);
          expect(res.status, path).toBe(404);
          // `/media` itself is outside the media rules of Caddy and `_headers`: a 404 all the same.
          if (path !== '/media') expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
          await res.arrayBuffer();
        }
      },
    );

    // Found from outside: cqa preview served `/media/p/evil.svg/` as the file, where cqa serve
    // (docs/decisions.md) and the hosts answer 404.
    it('a media file path with a trailing slash answers 404, never the file', async () => {
      const paths = files(dist)
        .filter((f) => /^media\/demo\/[^/]+\.(png|svg)$/.test(f))
        .map((f) => `/${f}/`);
      expect(paths).toContain('/media/demo/logo.svg/');
      for (const path of paths) {
        const res = await fetch(server.url + path); // redirects followed (serve: to its 404)
        await res.arrayBuffer();
        expect(res.status, path).toBe(404);
      }
    });

    it('no folder is answered with a directory listing', async () => {
      for (const path of ['/', '/api/', '/api', '/media/', '/media/demo/', '/media/demo', '/api/demo/posts/']) {
        const res = await get(path, { accept: 'application/json, text/html' });
        const text = await res.text();
        if (res.status === 200) {
          // Only a document of the build may be a 200: never a listing of files.
          expect(text, path).not.toMatch(/"files"\s*:|<html|Index of/i);
          expect(path, 'a 200 for a folder must be the API document of its path').toBe('/api/demo/posts/');
        }
      }
    });

    it('media files have their type, CORS, the media Cache-Control and answer Range', async () => {
      const media = files(dist).filter((f) => f.startsWith('media/demo/') && /\.(png|jpg)$/.test(f));
      expect(media.length).toBeGreaterThan(1);
      for (const rel of media.slice(0, 4)) {
        const bytes = readFileSync(join(dist, rel));
        const res = await get(`/${rel}`);
        expect(res.status, rel).toBe(200);
        expect(res.headers.get('content-type'), rel).toBe(rel.endsWith('.png') ? 'image/png' : 'image/jpeg');
        expect(res.headers.get('access-control-allow-origin'), rel).toBe('*');
        expect(res.headers.get('cache-control'), rel).toBe(DEFAULT_MEDIA_CACHE_CONTROL);
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes), rel).toBe(true);
        if (!host.range) continue;
        const part = await get(`/${rel}`, { range: 'bytes=2-9' });
        expect(part.status, rel).toBe(206);
        expect(part.headers.get('content-range'), rel).toBe(`bytes 2-9/${bytes.length}`);
        expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(2, 10)), rel).toBe(true);
      }
    });

    it.runIf(host.build === 'nginx' || host.build === 'caddy')(
      "a media file's own .gz beside it is never sent for it, and a missing file's 404 has no Cache-Control a CDN would keep (found from outside)",
      async () => {
        // As copied from the content: report.csv and an older report.csv.gz, notes.txt and a .gz that is no gzip.
        writeFileSync(join(dist, 'media', 'demo', 'report.csv'), 'version,new\n');
        writeFileSync(join(dist, 'media', 'demo', 'report.csv.gz'), gzipSync('version,OLD\n'));
        writeFileSync(join(dist, 'media', 'demo', 'notes.txt'), 'plain\n');
        writeFileSync(join(dist, 'media', 'demo', 'notes.txt.gz'), 'not gzip at all');
        for (const [rel, text] of [
          ['report.csv', 'version,new\n'],
          ['notes.txt', 'plain\n'],
        ]) {
          const res = await get(`/media/demo/${rel}`, { 'accept-encoding': 'gzip' });
          expect(res.headers.get('content-encoding'), rel).toBeNull();
          expect(await res.text(), rel).toBe(text);
        }
        const missing = await get('/media/demo/no-such-file.png');
        expect(missing.status).toBe(404);
        expect(missing.headers.get('cache-control')).toBeNull();
        expect(missing.headers.get('access-control-allow-origin')).toBe('*');
        // The JSON keeps its precompressed sibling: sent as it is (its length; gzip on the fly has none).
        const doc = await get('/api/demo/posts', { 'accept-encoding': 'gzip' });
        expect(doc.headers.get('content-encoding')).toBe('gzip');
        if (host.build === 'nginx')
          expect(doc.headers.get('content-length')).toBe(String(statSync(join(dist, 'api/demo/posts/index.json.gz')).size));
      },
    );

    it('media never run script on the origin: sandboxed, no sniffing, and an SVG is a download', async () => {
      for (const rel of ['media/demo/hero.png', 'media/demo/logo.svg']) {
        const res = await get(`/${rel}`);
        await res.arrayBuffer();
        expect(res.status, rel).toBe(200);
        expect(res.headers.get('content-security-policy'), rel).toBe(MEDIA_CSP);
        expect(res.headers.get('x-content-type-options'), rel).toBe('nosniff');
        expect(res.headers.get('access-control-allow-origin'), rel).toBe('*');
        // serve names every file `inline; filename=…` by itself: only the download must say attachment.
        if (rel.endsWith('.svg')) expect(res.headers.get('content-disposition'), rel).toBe('attachment');
        else expect(res.headers.get('content-disposition') ?? '', rel).not.toMatch(/attachment/);
      }
    });

    if (host.build === 'cloudflare') {
      it('the asset server reports no invalid _redirects rule', () => {
        expect(existsSync(join(dist, '_redirects'))).toBe(true);
        expect(pagesWarnings.join('\n')).not.toMatch(/invalid/i);
      });
    }
  });
}

// Media names a rule line of `_headers` cannot hold are still downloads on nginx and Caddy, whose
// files quote any name (found from outside: `a b.svg`, `x#y.svg`, `dollar$uri.html` were inline).
describe.each([
  { name: 'nginx', build: 'nginx' as const, start: (d: string) => startNginx(d), absent: missing(NGINX, 'nginx-light') },
  { name: 'Caddy', build: 'caddy' as const, start: startCaddy, absent: missing(CADDY, 'caddy') },
])('$name: active media with awkward names', ({ build, start, absent }) => {
  const NAMES = ['a b.svg', 'x#y.svg', 'dollar$uri.html', 'semi;colon.svg', 'quote"d.svg', '{br}.svg', 'pct%41.svg', 'plain.svg'];
  let server: RunningHost | undefined;
  afterAll(() => server?.close());

  it.skipIf(absent !== undefined)('each is sent as a sandboxed download', async () => {
    const content = join(work, `${build}-names-content`);
    const files: Record<string, string> = {
      'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
      'shop/notes/_collection.yaml': 'name: Notes\nfields:\n  title: text\n',
      'shop/notes/a.yaml': 'title: A\n',
    };
    for (const n of NAMES)
      files[`shop/media/${n}`] = n.endsWith('.html') ? '<script>alert(1)</script>' : '<svg xmlns="http://www.w3.org/2000/svg"/>';
    writeTree(content, files);
    const dist = join(work, `${build}-names`);
    await writeDist(await buildSnapshot({ content }), { out: dist, host: build });
    server = await start(dist);
    for (const n of NAMES) {
      const res = await fetch(`${server.url}/media/shop/${encodeURIComponent(n)}`, { headers: { 'accept-encoding': 'identity' } });
      await res.arrayBuffer();
      expect(res.status, n).toBe(200);
      expect(res.headers.get('content-disposition'), n).toBe('attachment');
      expect(res.headers.get('content-security-policy'), n).toBe(MEDIA_CSP);
    }
  });
});

// Found from outside (wrangler pages dev): Pages redirects `/media/shop/page.html` to
// `/media/shop/page` and serves the file there, where the download rule did not reach.
describe('Cloudflare Pages with its own HTML handling', () => {
  let server: RunningHost | undefined;
  afterAll(() => server?.close());

  it('an HTML media file is a sandboxed download at the path Pages serves it from too', async () => {
    const content = join(work, 'pages-html-content');
    writeTree(content, {
      'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
      'shop/notes/_collection.yaml': 'name: Notes\nfields:\n  title: text\n',
      'shop/notes/a.yaml': 'title: A\n',
      'shop/media/page.html': '<script>alert(1)</script>',
      'shop/media/guide/index.html': '<script>alert(2)</script>',
    });
    const dist = join(work, 'pages-html');
    await writeDist(await buildSnapshot({ content }), { out: dist, host: 'cloudflare' });
    server = await startPages(dist, [], 'auto-trailing-slash');
    // Pages serves a folder's index.html at the folder too: a download there as well (docs/security.md).
    for (const path of ['/media/shop/page.html', '/media/shop/guide/index.html', '/media/shop/guide/', '/media/shop/guide']) {
      const res = await fetch(`${server.url}${path}`); // redirects followed, as a browser does
      expect(await res.text(), path).toContain('<script>');
      expect(res.headers.get('content-disposition'), `${path} → ${res.url}`).toBe('attachment');
      expect(res.headers.get('content-security-policy'), path).toBe(MEDIA_CSP);
    }
  });
});

describe('_headers download rules at their cap', () => {
  // Found from outside: the cap cut a pair, and the last HTML file kept its .html rule only.
  it("never splits an HTML file's two paths, and stays within Cloudflare's 100 rules", () => {
    const downloads = ['/media/m/a0.svg', ...Array.from({ length: 60 }, (_, i) => `/media/m/p${String(i).padStart(2, '0')}.html`)];
    const rules = headersFile(false, downloads)
      .split('\n')
      .filter((l) => l.startsWith('/'));
    const html = rules.filter((r) => r.endsWith('.html'));
    expect(rules.length).toBeLessThanOrEqual(100);
    expect(html.length).toBeGreaterThan(40);
    for (const r of html) expect(rules, r).toContain(r.slice(0, -'.html'.length));
  });

  // Netlify and Pages serve a folder's index.html at the folder: the rule names it, with and without its `/`.
  it('names the folder of an index.html, which Netlify and Pages answer with it', () => {
    const rules = headersFile(false, ['/media/m/guide/index.html'])
      .split('\n')
      .filter((l) => l.startsWith('/media/m/'));
    expect(rules).toEqual(['/media/m/guide/index.html', '/media/m/guide/', '/media/m/guide']);
  });
});

/** Writes `files` (path → text) under `dir`. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * One snapshot built for every host (`--host` and its precompression) into `work/<name>/<host>`,
 * and a test per host against the real server: `check` gets its URL and its tree.
 */
function onEveryHost(
  name: string,
  snapshot: () => Promise<Snapshot>,
  check: (host: HostCase, url: string, dist: string) => Promise<void>,
): void {
  let dist: string;
  beforeAll(async () => {
    const snap = await snapshot();
    dist = join(work, name);
    for (const host of HOSTS) await writeDist(snap, { out: join(dist, host.build), host: host.build, precompress: host.precompress });
  }, 60_000);
  for (const host of HOSTS) {
    it.skipIf(host.absent !== undefined)(host.name, async () => {
      const server = await host.start(join(dist, host.build));
      try {
        await check(host, server.url, join(dist, host.build));
      } finally {
        await server.close();
      }
    });
  }
}

// API paths that end like a compressed sibling (`.gz`, `.br`) or hold a `?` are API paths like any
// other (Caddy and cqa preview answered 404 for the first: their sibling rule took every `.gz`;
// Caddy's try_files read a decoded `?` as a query; found from outside).
// An id named like a compressed sibling (`404.json.gz`) is an API path like any other: Caddy's
// rule hiding the siblings, and cqa preview's, matched it by name and answered 404 (found from outside).
describe('API paths ending in .gz or .br, or holding ?', () => {
  const IDS = ['backup.gz', 'notes.br', '404.json.gz'];
  const MEDIA = ['data.tar.gz', 'q?x.png', '404.json.br'];
  onEveryHost(
    'odd-paths',
    async () => {
      const content = join(work, 'odd-paths-content');
      writeTree(content, {
        'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
        'shop/notes/_collection.yaml': 'name: Notes\nfields:\n  title: text\n',
        ...Object.fromEntries(IDS.map((id) => [`shop/notes/${id}.yaml`, `title: ${id}\n`])),
        ...Object.fromEntries(MEDIA.map((name) => [`shop/media/${name}`, 'x\n'])),
      });
      return buildSnapshot({ content });
    },
    async (_host, url, dist) => {
      const paths = [...IDS.map((id) => `/api/shop/notes/${id}`), ...MEDIA.map((m) => `/api/shop/project-media/${m}`)];
      for (const path of paths) {
        const res = await fetch(url + path.split('/').map(encodeURIComponent).join('/'), {
          headers: { 'accept-encoding': 'identity' },
          redirect: 'manual',
        });
        expect(res.status, path).toBe(200);
        expect(await res.text(), path).toBe(readFileSync(join(dist, `${path.slice(1)}/index.json`), 'utf8'));
      }
    },
  );
});

// An elmapi3 tree (`cqa build --project <uuid>`) holds its project document at /api itself: the
// SDK asks `/api/`, other clients `/api`; both are that document on every host, not a redirect
// (nginx answered `/api` with a 301, serve with a 302 to its 404, Caddy with a 404: found from
// outside; serve redirected `/api/` to `/api` too, which a preflight cannot follow).
describe('an elmapi3 build: /api and /api/ are the project document', () => {
  const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
  onEveryHost(
    'v3',
    async () => {
      const content = join(work, 'v3-content');
      cpSync('content/shop3', join(content, 'shop3'), { recursive: true });
      return buildSnapshot({ content });
    },
    async (host, url, dist) => {
      const document = JSON.parse(readFileSync(join(dist, 'api', 'index.json'), 'utf8'));
      expect(document).toMatchObject({ uuid: SHOP3 });
      for (const path of ['/api', '/api/']) {
        const res = await fetch(url + path, { headers: { 'project-id': SHOP3, accept: 'application/json' }, redirect: 'manual' });
        expect(res.status, path).toBe(200);
        // cqa's client asks /api, the SDK /api/: both are read from pages of other origins.
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(res.headers.get('content-type'), path).toBe(JSON_TYPE);
        expect(await res.json(), path).toEqual(document);
      }
      // Another case: Caddy matches paths without case (the tree's files have one), serve's
      // rewrites too; it is a 404 all the same, whose body is what its type says.
      const other = await fetch(`${url}/API`, {
        headers: { 'project-id': SHOP3, accept: 'application/json' },
        redirect: 'manual',
      });
      expect(other.status).toBe(404);
      // serve answers `Accept: application/json` with its own body (docs/hosting.md#serve).
      const notFound =
        host.build === 'serve' ? { error: expect.objectContaining({ code: 'not_found' }) } : { message: 'Collection not found.' };
      if (other.headers.get('content-type') === JSON_TYPE) expect(await other.json()).toEqual(notFound);
      else expect(await other.text()).not.toMatch(/^[[{]/);
      // The SDK's queries: 400 in v3's shape where the host can look at the query (not serve, not Pages).
      if (host.build === 'serve' || host.build === 'cloudflare') return;
      // Another project's uuid: v3's 404, not this project's documents; no header at all: served.
      const OTHER = '11111111-2222-4333-8444-555555555555';
      for (const path of ['/api', '/api/products']) {
        const wrong = await fetch(url + path, { headers: { 'project-id': OTHER } });
        expect(wrong.status, path).toBe(404);
        expect(wrong.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(wrong.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(await wrong.json(), path).toEqual({ message: 'Project not found.' });
        for (const headers of [{}, { 'project-id': '' }] as Record<string, string>[]) {
          const none = await fetch(url + path, { headers });
          expect(none.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
          await none.arrayBuffer();
        }
      }
      for (const path of ['/api/products?where[price][gt]=20', '/api?with=collections']) {
        const refused = await fetch(url + path, { headers: { 'project-id': SHOP3, accept: 'application/json' } });
        expect(refused.status, path).toBe(400);
        expect(await refused.json(), path).toMatchObject({ message: expect.stringContaining('a static elmapi3 build answers each path') });
      }
    },
  );
});

// Found from outside: Caddy answered the folder of a media file named index.html
// (`/media/p/idx/`) with that file, inline (200 text/html, no Content-Disposition): the download
// rule names the file's own path only. A media folder serves no index file on any host.
describe('a media file named index.html is no answer for its folder', () => {
  onEveryHost(
    'media-index',
    async () => {
      const content = join(work, 'media-index-content');
      writeTree(content, {
        'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
        'shop/notes/_collection.yaml': 'name: Notes\nfields:\n  title: text\n',
        'shop/notes/a.yaml': 'title: A\n',
        'shop/media/guide/index.html': '<script>alert(1)</script>',
      });
      return buildSnapshot({ content });
    },
    async (_host, url) => {
      for (const path of ['/media/shop/guide/', '/media/shop/guide']) {
        const res = await fetch(url + path); // redirects followed, as a browser does (serve: to its 404)
        const text = await res.text();
        expect(res.status, `${path} → ${res.url}`).toBe(404);
        expect(text, path).not.toContain('<script>');
      }
      // By its own path, the file is a sandboxed download as before.
      const file = await fetch(`${url}/media/shop/guide/index.html`);
      expect(await file.text()).toContain('<script>');
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe('attachment');
      expect(file.headers.get('content-security-policy')).toBe(MEDIA_CSP);
    },
  );
});

// A media file whose extension names no type (found from outside: Caddy sent `big file.bin`
// without Content-Type, which it gives no `.bin`; every other host says application/octet-stream).
describe('media of no known type', () => {
  const MEDIA = ['big file.bin', 'dump.bin'];
  onEveryHost(
    'untyped-media',
    async () => {
      const content = join(work, 'untyped-media-content');
      writeTree(content, {
        'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
        'shop/notes/_collection.yaml': 'name: Notes\nfields:\n  title: text\n',
        'shop/notes/a.yaml': 'title: A\n',
        ...Object.fromEntries(MEDIA.map((name) => [`shop/media/${name}`, '\u0000\u0001binary'])),
      });
      return buildSnapshot({ content });
    },
    async (_host, url) => {
      for (const name of MEDIA) {
        const res = await fetch(`${url}/media/shop/${encodeURIComponent(name)}`, { headers: { 'accept-encoding': 'identity' } });
        expect(res.status, name).toBe(200);
        expect(res.headers.get('content-type'), name).toBe('application/octet-stream');
        expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
        expect(await res.text(), name).toBe('\u0000\u0001binary');
      }
    },
  );
});

// A media file's Content-Type is the mime_type its document gives it: the nginx, Caddy and serve
// files carry a type per extension of the build, since the server's own table differs (found from
// outside: Debian's nginx sent .vtt, .heic and .mjs as application/octet-stream; Caddy .ico as
// image/vnd.microsoft.icon and .yaml as application/x-yaml; serve .avif with no type at all).
// Cloudflare Pages types by its own table (docs/hosting.md).
describe('media types are the documents’ mime_type', () => {
  const MEDIA = [
    'talk.vtt',
    'photo.heic',
    'PHOTO2.HEIC',
    'pic.avif',
    'module.mjs',
    'favicon.ico',
    'data.yaml',
    'archive.7z',
    'sub dir/notes.md',
    'source.c++', // a regexp's metacharacter in an extension (Caddy's path_regexp)
  ];
  onEveryHost(
    'media-types',
    async () => {
      const content = join(work, 'media-types-content');
      writeTree(content, {
        'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
        ...Object.fromEntries(MEDIA.map((name) => [`shop/media/${name}`, 'x\n'])),
      });
      return buildSnapshot({ content });
    },
    async (host, url, dist) => {
      if (host.build === 'cloudflare') return;
      const list = JSON.parse(readFileSync(join(dist, 'api/shop/project-media/index.json'), 'utf8')) as {
        data: { id: string; mime_type: string }[];
      };
      expect(list.data.map((m) => m.id).sort()).toEqual([...MEDIA].sort());
      for (const { id, mime_type } of list.data) {
        const res = await fetch(`${url}/media/shop/${id.split('/').map(encodeURIComponent).join('/')}`, {
          headers: { 'accept-encoding': 'identity' },
        });
        await res.arrayBuffer();
        expect(res.status, id).toBe(200);
        expect(res.headers.get('content-type'), id).toBe(mime_type);
      }
      // A missing file's 404 is not typed as the file would be.
      const missing = await fetch(`${url}/media/shop/nope.heic`);
      await missing.arrayBuffer();
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type') ?? '').not.toMatch(/heic/);
    },
  );
});
