// What a static host answers besides the documents (docs/hosting.md): the JSON 404 documents and
// the `_redirects` rules that send unknown API paths to them, in each project's dialect, and
// `cqa preview` refusing a query string (a static host would ignore it) with a 400 that says
// where queries are answered. Built from the sample content: `demo` (cqa) and `travel` (elmapi).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { parseNotFoundRules, startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { writeDist } from '../../src/node/output/dist.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-static-host-'));
const out = join(work, 'dist');
const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';
const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
let server: PreviewServer;

beforeAll(async () => {
  await writeDist(await buildSnapshot({ content: 'content' }), { out, precompress: 'br' });
  server = await startPreview({ dir: out, port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { port } = new URL(server.url);
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

const json = (b: Buffer) => JSON.parse(b.toString('utf8'));

describe('static 404s', () => {
  it('cqa build writes the 404 documents and the _redirects rules after the rewrite, most specific first', () => {
    const redirects = readFileSync(join(out, '_redirects'), 'utf8');
    const rules = redirects.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(rules).toEqual([
      '/api/*  /api/:splat/index.json  200',
      `/api/${TRAVEL}/articles/*  /api/${TRAVEL}/articles/404.json  404`,
      `/api/${TRAVEL}/authors/*  /api/${TRAVEL}/authors/404.json  404`,
      `/api/${TRAVEL}/project-media/*  /api/${TRAVEL}/project-media/404.json  404`,
      `/api/${TRAVEL}/*  /api/${TRAVEL}/404.json  404`,
      '/api/*  /api/404.json  404',
    ]);
    expect(json(readFileSync(join(out, 'api/404.json')))).toMatchObject({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      code: 'not_found',
    });
    expect(readFileSync(join(out, `api/${TRAVEL}/articles/404.json`), 'utf8')).toBe('{"error":"Not found!"}');
    expect(readFileSync(join(out, `api/${TRAVEL}/project-media/404.json`), 'utf8')).toBe('{"error":"File not found!"}');
    expect(readFileSync(join(out, `api/${TRAVEL}/404.json`), 'utf8')).toBe('{"error":"Collection not found!"}');
    // docs/hosting.md shows exactly these rules.
    const docs = readFileSync('docs/hosting.md', 'utf8');
    const block = /<!-- sample _redirects[^\n]*\n```\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(block?.trim().split('\n')).toEqual(rules);
    // manifest.json names the dialect of a project that is not cqa (for cqa preview's errors);
    // the elmapi3 project is left out (built alone with --project: elmapi3-build.test.ts).
    const manifest = json(readFileSync(join(out, 'manifest.json')));
    expect(existsSync(join(out, 'api', SHOP3))).toBe(false);
    expect(manifest.projects.map((p: { id: string; dialect?: string }) => [p.id, p.dialect])).toEqual([
      [TRAVEL, 'elmapi'],
      ['demo', undefined],
    ]);
    // The 404 rules as `cqa preview` reads them: only the status-404 lines.
    expect(parseNotFoundRules(redirects).map((r) => r.to)).toEqual(rules.slice(1).map((l) => l.split(/\s+/)[1]));
  });

  it('cqa preview answers an unknown API path with the 404 document of the first matching rule', async () => {
    const problem = await get('/api/demo/posts/no-such-post');
    expect(problem.status).toBe(404);
    expect(problem.headers['content-type']).toBe('application/json; charset=utf-8'); // from _headers, as on the hosts
    expect(problem.headers['access-control-allow-origin']).toBe('*');
    expect(json(problem.body)).toMatchObject({ status: 404, code: 'not_found', detail: expect.stringContaining('static build') });
    expect(json((await get('/api/no-such-project')).body)).toMatchObject({ status: 404, code: 'not_found' });
    const cases: [string, string][] = [
      [`/api/${TRAVEL}/articles/no-such-article`, 'Not found!'],
      [`/api/${TRAVEL}/project-media/999999`, 'File not found!'],
      [`/api/${TRAVEL}/no-such-collection`, 'Collection not found!'],
    ];
    for (const [path, error] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(json(r.body), path).toEqual({ error });
    }
    const head = await get('/api/demo/posts/no-such-post', {}, 'HEAD');
    expect(head.status).toBe(404);
    expect(head.body.length).toBe(0);
    // Its precompressed sibling, when the build wrote one.
    const br = await get('/api/demo/nope', { 'accept-encoding': 'br' });
    expect(br.status).toBe(404);
    expect(br.headers['content-encoding']).toBe('br');
    expect(json(brotliDecompressSync(br.body))).toMatchObject({ code: 'not_found' });
    // Outside /api/ there is no rule: the host's own plain 404.
    const plain = await get('/no-such-page');
    expect(plain.status).toBe(404);
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await get('/api/demo/posts')).status).toBe(200);
  });
});

describe('cqa preview and query strings', () => {
  it('answers 400 in the cqa dialect: a static host does not evaluate queries', async () => {
    const r = await get('/api/demo/posts?where[featured]=true&limit=2');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const p = json(r.body);
    expect(p).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, code: 'query_not_supported' });
    expect(p.detail).toContain('a static host does not evaluate queries');
    expect(p.detail).toContain('cqa serve');
    expect(p.detail).toContain("mode: 'static'");
    expect(p.detail).toContain('content-query-api/client');
    // Also where the path is unknown: the query is the mistake to fix first.
    expect((await get('/api/demo/nope?limit=1')).status).toBe(400);
  });

  it("answers 400 in the elmapi dialect's shape for an elmapi project", async () => {
    const r = await get(`/api/${TRAVEL}/articles?limit=1`);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json(r.body)).toEqual({
      error: expect.stringContaining('a static host does not evaluate queries'),
      code: 'query_not_supported',
    });
  });

  it('still serves an empty query and media files with a query (cache busting)', async () => {
    expect((await get('/api/demo/posts?')).status).toBe(200);
    expect((await get('/media/demo/hero.png?v=2')).status).toBe(200);
  });
});
