// A delay of the MSW handlers and of createHandler ends as startServer's does: when the client
// gives up (the request's signal aborts: its place among the held answers is free again) and on
// close() (the answers still held back go out at once). Before, the delay ran to its end: a test
// that aborted a `Prefer: delay=20000` request kept node:test's process alive 20 s, and two
// abandoned delayed requests with maxHeld 2 made the next one a 503 too_many_delayed.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { createMswHandlers } from '../../src/msw.js';
import { makeModel, tempDir, TOKENS } from '../http/fixture.js';

const CMS = 'http://held.test';
const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: text\n',
  'shop/products/mug.yaml': 'title: Mug\n',
};
const LONG = { accept: 'application/json', prefer: 'delay=600000' };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createMswHandlers', () => {
  it('a client that gives up frees its place among the held answers (maxHeld), as with startServer', async () => {
    const api = await createMswHandlers({ origin: CMS, content: TREE, maxHeld: 2 });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      for (let i = 0; i < 2; i++) {
        const gaveUp = await fetch(`${CMS}/api/shop/products`, { headers: LONG, signal: AbortSignal.timeout(50) }).catch(
          (e: Error) => e.name,
        );
        expect(gaveUp).toBe('TimeoutError');
      }
      await pause(50);
      const next = await fetch(`${CMS}/api/shop/products`, { headers: { ...LONG, prefer: 'delay=10' } });
      expect(next.status).toBe(200);
      expect(next.headers.get('preference-applied')).toBe('delay=10');
      // The abandoned requests are journaled when they ended, not 600 s later.
      expect(api.requests().map((r) => r.path)).toEqual(['/api/shop/products', '/api/shop/products', '/api/shop/products']);
    } finally {
      msw.close();
      await api.close();
    }
  });

  it('close() sends the answers a delay still holds back at once', async () => {
    const api = await createMswHandlers({ origin: CMS, content: TREE });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const t0 = performance.now();
      const slow = fetch(`${CMS}/api/shop/products`, { headers: LONG });
      await pause(100);
      await api.close();
      const res = await slow;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
      expect(performance.now() - t0).toBeLessThan(10_000);
    } finally {
      msw.close();
    }
  });

  it('leaves no timer behind: node:test with an aborted Prefer: delay=600000 request ends at once (compiled lib/)', async () => {
    const msw = pathToFileURL(resolve('lib/msw.js')).href;
    const script = `
      import { createMswHandlers } from ${JSON.stringify(msw)};
      import { setupServer } from 'msw/node';
      import { after, before, it } from 'node:test';
      import assert from 'node:assert/strict';
      let api, server;
      before(async () => {
        api = await createMswHandlers({ origin: ${JSON.stringify(CMS)}, content: ${JSON.stringify(TREE)} });
        server = setupServer(...api.handlers);
        server.listen({ onUnhandledRequest: 'error' });
      });
      after(async () => { server.close(); await api.close(); });
      it('the app gives up after 100 ms on a slow API', async () => {
        await assert.rejects(fetch(${JSON.stringify(`${CMS}/api/shop/products`)}, { headers: ${JSON.stringify(LONG)}, signal: AbortSignal.timeout(100) }));
      });`;
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--test-reporter=tap', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((ok) => child.on('exit', ok));
    clearTimeout(killer);
    expect(out).toContain('# pass 1');
    expect(code).toBe(0);
    expect(performance.now() - t0).toBeLessThan(15_000);
  });
});

describe('createHandler', () => {
  const READ = { accept: 'application/json', authorization: `Bearer ${TOKENS.read}` };

  it('ends a delay when the request is aborted, and frees its place', async () => {
    const handler = createHandler(createSnapshot(makeModel(tempDir())), { prefer: true, maxHeld: 1 });
    const gone = new AbortController();
    const first = handler(
      new Request('http://h.test/api/alpha/posts', { headers: { ...READ, prefer: 'delay=600000' }, signal: gone.signal }),
    );
    await pause(20);
    gone.abort();
    await first; // settled once the client left, not after 600 s
    const next = await handler(new Request('http://h.test/api/alpha/posts', { headers: { ...READ, prefer: 'delay=5' } }));
    expect(next.status).toBe(200);
  });

  it('close() sends the held answers now, and holds none back after it', async () => {
    const handler = createHandler(createSnapshot(makeModel(tempDir())), { delay: 600_000 });
    const held = handler(new Request('http://h.test/api/alpha/posts', { headers: READ }));
    await pause(20);
    handler.close();
    expect((await held).status).toBe(200);
    expect((await handler(new Request('http://h.test/api/alpha/posts', { headers: READ }))).status).toBe(200);
  });
});
