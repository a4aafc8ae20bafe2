// docs/edge.md's Cloudflare Workers recipe, as a user runs it: `cqa build content --snapshot`
// (the compiled CLI), the page's worker.js bundled as wrangler would (its wrangler.toml's Text
// rule makes snapshot.json a text module), in workerd. It answers like `cqa serve` on content/.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { socketClient } from '../http/fixture.js';
import { bundle, docBlock, ROOT, startWorker, tomlString, type RunningWorker } from './workerd.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-recipe-'));
let worker: RunningWorker;
let server: RunningServer;

beforeAll(async () => {
  const file = join(work, 'snapshot.json');
  execFileSync(process.execPath, [join(ROOT, 'bin', 'cqa.js'), 'build', 'content', '--snapshot', file], {
    cwd: ROOT,
    stdio: 'pipe',
    timeout: 60_000,
  });
  const toml = docBlock('wrangler.toml');
  worker = await startWorker({
    code: await bundle(docBlock('worker.js')),
    compatibilityDate: tomlString(toml, 'compatibility_date'),
    snapshotModule: readFileSync(file, 'utf8'),
  });
  server = await startServer({ content: join(ROOT, 'content') });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the Cloudflare Workers recipe of docs/edge.md', () => {
  it("imports the snapshot as text, as its wrangler.toml's rule says", () => {
    const toml = docBlock('wrangler.toml');
    expect(tomlString(toml, 'main')).toBe('worker.js');
    expect(toml).toMatch(/\[\[rules\]\]\ntype = "Text"\nglobs = \["\*\*\/snapshot\.json"\]/);
    expect(docBlock('worker.js')).toContain("from './snapshot.json'");
  });

  it('answers the sample query with the same body as cqa serve', async () => {
    const headers = { authorization: 'Bearer demo-token', accept: 'application/json' };
    const path = '/api/demo/posts?where[locale]=de&sort=published_at:desc&limit=3';
    const [edge, serve] = await Promise.all([socketClient(worker.url)({ path, headers }), socketClient(server.url)({ path, headers })]);
    expect(edge.status).toBe(200);
    expect(JSON.parse(edge.text).data).toHaveLength(3);
    expect(edge.text).toBe(serve.text);
    expect(edge.headers.etag).toBe(serve.headers.etag);
  });

  it('checks tokens and drafts as cqa serve does', async () => {
    const edge = socketClient(worker.url);
    const serve = socketClient(server.url);
    for (const [path, headers] of [
      ['/api/demo/posts', { accept: 'application/json' }],
      ['/api/demo/posts?state=only_draft&count', { accept: 'application/json', authorization: 'Bearer demo-token' }],
      ['/api/demo/posts', { accept: 'application/json', authorization: 'Bearer wrong' }],
      ['/healthz', {}],
    ] as const) {
      const [a, b] = await Promise.all([edge({ path, headers }), serve({ path, headers })]);
      expect(a.status, path).toBe(b.status);
      expect(a.text, path).toBe(b.text);
    }
  });
});
