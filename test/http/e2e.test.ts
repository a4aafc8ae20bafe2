// §4 end to end: the same table of cases over a real socket (node:http adapter, via
// startServer) and through the fetch handler (createHandler).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { CASES, JSON_ACCEPT, READ, runCase, TRAVERSALS } from './cases.js';
import { fetchClient, makeModel, socketClient, tempDir, type Client } from './fixture.js';

let snapshot: Snapshot;
let server: RunningServer;
let corsServer: RunningServer;
const clients: Record<string, () => Client> = {};

beforeAll(async () => {
  snapshot = createSnapshot(makeModel(tempDir()));
  server = await startServer({ snapshot });
  corsServer = await startServer({ snapshot, cors: 'https://app.example', cacheControl: 'public, max-age=60' });
  const handler = createHandler(snapshot);
  clients.node = () => socketClient(server.url);
  clients.fetch = () => fetchClient(handler);
});

afterAll(async () => {
  await server?.close();
  await corsServer?.close();
});

describe.each(['node', 'fetch'])('%s adapter', (kind) => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await runCase((clients[kind] as () => Client)(), c);
  });

  it('never serves a file outside media/ (plain, encoded, double-encoded, NUL)', async () => {
    const client = (clients[kind] as () => Client)();
    for (const path of TRAVERSALS) {
      const r = await client({ path });
      // A WHATWG Request normalises `/./` away before the handler sees it: that one may find a.png.
      if (!(kind === 'fetch' && r.text === 'PNGDATA-0123456789')) expect([400, 404], `${path} → ${r.status}`).toContain(r.status);
      expect(r.text).not.toContain('TOP SECRET');
      expect(r.text).not.toContain('tokens:');
      expect(r.text).not.toContain('root:');
    }
  });

  it('HEAD has the same headers as GET', async () => {
    const client = (clients[kind] as () => Client)();
    for (const path of ['/api/alpha/posts', '/api/alpha/posts?limit=3', '/api/nope']) {
      const get = await client({ path, headers: READ });
      const head = await client({ method: 'HEAD', path, headers: READ });
      expect(head.status).toBe(get.status);
      expect(head.headers.etag).toBe(get.headers.etag);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(head.raw.length).toBe(0);
    }
  });

  it('answers with the same ETag for the same bytes and a different one for different bytes', async () => {
    const client = (clients[kind] as () => Client)();
    const a = await client({ path: '/api/alpha/posts?limit=2', headers: READ });
    const b = await client({ path: '/api/alpha/posts?limit=2&offset=0', headers: READ });
    const c = await client({ path: '/api/alpha/posts?limit=3', headers: READ });
    expect(a.text).toBe(b.text);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(c.headers.etag).not.toBe(a.headers.etag);
  });
});

describe('adapters agree', () => {
  it('same status, body and ETag for identity answers', async () => {
    const node = (clients.node as () => Client)();
    const fetch = (clients.fetch as () => Client)();
    for (const path of [
      '/api/alpha',
      '/api/alpha/posts',
      '/api/alpha/posts/p3',
      '/api/alpha/posts?sort=title&limit=4',
      '/api/nope',
      '/healthz',
    ]) {
      const [a, b] = await Promise.all([node({ path, headers: READ }), fetch({ path, headers: READ })]);
      expect(b.status).toBe(a.status);
      expect(b.text).toBe(a.text);
      expect(b.headers.etag).toBe(a.headers.etag);
    }
  });
});

describe('two Authorization headers', () => {
  // Node kept the first and dropped the second (a 200 with one of two tokens chosen silently); a
  // fetch handler sees them joined. Both refuse them now, alike (found from outside).
  it('are refused (401) in node:http as in a fetch handler, even when the first token is good', async () => {
    const { connect } = await import('node:net');
    const { port } = new URL(server.url);
    const raw = await new Promise<string>((done, fail) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `GET /api/alpha/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nAuthorization: ${READ.authorization}\r\nAuthorization: Bearer nope\r\nConnection: close\r\n\r\n`,
        ),
      );
      socket.setEncoding('utf8').on('data', (c: string) => (text += c));
      socket.on('end', () => done(text)).on('error', fail);
    });
    const viaNode = { status: Number(raw.split(' ')[1]), body: raw.slice(raw.indexOf('\r\n\r\n') + 4) };
    const headers = new Headers([
      ['accept', 'application/json'],
      ['authorization', READ.authorization],
      ['authorization', 'Bearer nope'],
    ]);
    const viaFetch = await createHandler(snapshot)(new Request('http://x/api/alpha/posts', { headers }));
    const fromFetch = await viaFetch.text();
    expect(viaNode.status).toBe(401);
    expect(viaFetch.status).toBe(401);
    expect(JSON.parse(viaNode.body)).toEqual(JSON.parse(fromFetch));
  });
});

describe('options', () => {
  it('--cors with an origin: that origin, Vary: Origin; --cache-control with private added for token answers', async () => {
    const client = socketClient(corsServer.url);
    const r = await client({ path: '/api/alpha/posts', headers: { ...READ, origin: 'https://app.example' } });
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(r.headers.vary).toContain('Origin');
    expect(r.headers.vary).toContain('Accept-Encoding');
    expect(r.headers['cache-control']).toBe('private, max-age=60');
    const pub = await client({ path: '/api/pub/notes', headers: JSON_ACCEPT });
    expect(pub.headers['cache-control']).toBe('public, max-age=60');
    const pre = await client({ method: 'OPTIONS', path: '/api/alpha', headers: { origin: 'https://app.example' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('a list of origins echoes only listed ones (fetch handler)', async () => {
    const client = fetchClient(createHandler(snapshot, { cors: 'https://a.example, https://b.example' }));
    const ok = await client({ path: '/api/pub/notes', headers: { ...JSON_ACCEPT, origin: 'https://b.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://b.example');
    const no = await client({ path: '/api/pub/notes', headers: { ...JSON_ACCEPT, origin: 'https://evil.example' } });
    expect(no.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('--max-limit 0 lifts the cap; a custom cap is enforced', async () => {
    const open = fetchClient(createHandler(snapshot, { maxLimit: 0 }));
    expect((await open({ path: '/api/alpha/posts?limit=5000', headers: READ })).status).toBe(200);
    const tight = fetchClient(createHandler(snapshot, { maxLimit: 5 }));
    expect((await tight({ path: '/api/alpha/posts?limit=6', headers: READ })).status).toBe(400);
    expect((await tight({ path: '/api/alpha/posts?limit=5', headers: READ })).status).toBe(200);
  });

  it('an unexpected error becomes a logged 500 problem, and the server keeps answering', async () => {
    const errors: unknown[] = [];
    const boom = () => {
      throw new Error('boom');
    };
    const engine = { queryEntries: boom, queryEntry: boom, queryMediaList: boom, queryMediaItem: boom };
    const client = fetchClient(createHandler(snapshot, { engine, onError: (e) => errors.push(e) }));
    const r = await client({ path: '/api/alpha/posts?limit=1', headers: READ });
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toMatchObject({ status: 500, code: 'internal_error' });
    expect(errors).toHaveLength(1);
    expect((await client({ path: '/api/alpha/posts', headers: READ })).status).toBe(200);
  });

  it('slow clients cannot hold the server: header, request and keep-alive timeouts are set', () => {
    expect(server.server.headersTimeout).toBeGreaterThan(0);
    expect(server.server.headersTimeout).toBeLessThanOrEqual(10_000);
    expect(server.server.requestTimeout).toBeGreaterThan(0);
    expect(server.server.requestTimeout).toBeLessThanOrEqual(30_000);
    expect(server.server.keepAliveTimeout).toBeGreaterThan(0);
  });

  it('--delay holds answers back', async () => {
    const slow = await startServer({ snapshot, delay: 150 });
    try {
      const t0 = performance.now();
      const r = await socketClient(slow.url)({ path: '/healthz' });
      expect(r.status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.close();
    }
  });
});
