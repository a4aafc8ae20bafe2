// DNS rebinding (docs/security.md#dns-rebinding). A web page at http://rebind.attacker.example:4000/
// whose name then resolves to 127.0.0.1 reads a local `cqa serve` or `cqa preview` as a page of its
// own origin, which no CORS header stops: its requests arrive with `Host: rebind.attacker.example:4000`.
// Found from outside: both servers answered them — /healthz's content errors under --watch (which
// quote drafts and hidden values), a private project's media, and all of a build made with
// --include-private. A loopback server now answers only localhost and addresses.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { writeDist } from '../../src/node/output/dist.js';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { hostAllowed, isLoopback } from '../../src/node/server/host-check.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-rebinding-'));
const TREE = {
  'p/project.yaml': 'id: p\npublic: false\ntokens:\n  - { name: t, token: p-token }\n',
  'p/notes/_collection.yaml': 'fields:\n  title: text\n  secret: { type: text, hidden: true }\n',
  'p/notes/a.yaml': 'title: A\nsecret: hunter2\n',
  'p/media/plan.png': 'private bytes',
};
let serve: RunningServer;
let allowed: RunningServer;
let preview: PreviewServer;

beforeAll(async () => {
  const content = join(work, 'content');
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(content, path)), { recursive: true });
    writeFileSync(join(content, path), text);
  }
  const snapshot = await buildSnapshot({ content });
  serve = await startServer({ snapshot });
  allowed = await startServer({ snapshot, allowedHosts: ['cms.example.test', '.dev.example.test'] });
  await writeDist(snapshot, { out: join(work, 'dist') });
  preview = await startPreview({ dir: join(work, 'dist'), port: 0 });
}, 60_000);
afterAll(async () => {
  await serve?.close();
  await allowed?.close();
  await preview?.close();
  rmSync(work, { recursive: true, force: true });
});

/** GET `path` from the server at `url` with this Host header, as a rebound page's request arrives. */
function get(url: string, path: string, host: string): Promise<{ status: number; type: string; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers: { host, accept: 'application/json' }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a server on a loopback address answers no request for another name', () => {
  const port = (url: string) => new URL(url).port;

  it('cqa serve: a rebound name gets 403 host_not_allowed, not the media or /healthz', async () => {
    for (const path of ['/media/p/plan.png', '/healthz', '/openapi.json', '/']) {
      const r = await get(serve.url, path, `rebind.attacker.example:${port(serve.url)}`);
      expect(r.status, path).toBe(403);
      expect(r.type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(r.body)).toMatchObject({ code: 'host_not_allowed' });
      expect(r.body).not.toContain('private bytes');
    }
    // Its name with a final dot, or in capitals, is the same name.
    expect((await get(serve.url, '/healthz', 'REBIND.attacker.example.')).status).toBe(403);
    // Journaled (and logged) like any answer: a proxy that passes its own Host on shows up there.
    const refused = await serve.waitForRequest((r) => r.status === 403 && r.headers.host === 'REBIND.attacker.example.', { timeout: 2000 });
    expect(refused).toMatchObject({ method: 'GET', path: '/healthz', response: { status: 403 } });
    expect(refused.response?.body).toContain('host_not_allowed');
  });

  it('cqa serve: localhost, a name under .localhost and addresses are answered', async () => {
    for (const host of [
      `127.0.0.1:${port(serve.url)}`,
      `localhost:${port(serve.url)}`,
      'LocalHost',
      'app.localhost:4000',
      '[::1]:4000',
      '10.0.0.5',
    ]) {
      const r = await get(serve.url, '/media/p/plan.png', host);
      expect(r.status, host).toBe(200);
      expect(r.body).toBe('private bytes');
    }
  });

  it('cqa serve: names given in allowedHosts are answered (a proxy that passes its Host on)', async () => {
    for (const host of ['cms.example.test', 'cms.example.test:8080', 'a.dev.example.test', 'dev.example.test'])
      expect((await get(allowed.url, '/healthz', host)).status, host).toBe(200);
    for (const host of ['example.test', 'cms.example.test.attacker.example', 'xdev.example.test'])
      expect((await get(allowed.url, '/healthz', host)).status, host).toBe(403);
  });

  it('cqa preview: a rebound name gets 403, not the build of a private project', async () => {
    for (const path of ['/api/p/notes', '/media/p/plan.png', '/openapi.json']) {
      const r = await get(preview.url, path, `rebind.attacker.example:${port(preview.url)}`);
      expect(r.status, path).toBe(403);
      expect(r.type).toBe('text/plain; charset=utf-8');
      expect(r.body).not.toContain('private bytes');
      expect(r.body).not.toContain('"A"');
    }
    expect((await get(preview.url, '/api/p/notes', `localhost:${port(preview.url)}`)).status).toBe(200);
  });

  it('tells loopback addresses and allowed names apart', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) expect(isLoopback(h), h).toBe(false);
    expect(hostAllowed(undefined)).toBe(true);
    expect(hostAllowed('x')).toBe(false);
    expect(hostAllowed('localhost.attacker.example')).toBe(false);
    expect(hostAllowed('127.0.0.1.attacker.example')).toBe(false);
    // What no host name holds, even where it ends as one under .localhost.
    for (const h of [
      'evil.com#.localhost',
      'evil.com/.localhost',
      'evil.com?.localhost',
      'a b.localhost',
      'evil.com@localhost',
      'x\\.localhost',
    ])
      expect(hostAllowed(h), h).toBe(false);
    for (const h of ['app.localhost:5173', 'LOCALHOST.', '[::1]:80', '127.0.0.1:8080', '']) expect(hostAllowed(h), h).toBe(true);
  });
});
