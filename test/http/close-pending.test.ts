// close() ends promptly when an override has not answered yet (found from outside: an override
// whose promise never settled held startServer's close() for 10 s, until every connection was cut;
// the MSW handlers left the app's request pending for ever). The request gets a 503 saying the
// server was closed, and the override's late answer is dropped; a request no override takes is
// answered by the API as before.
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createMswHandlers } from '../../src/msw.js';
import { startServer } from '../../src/node/server/start.js';

const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: text\n',
  'shop/products/mug.yaml': 'title: Mug\n',
};
const ACCEPT = { accept: 'application/json' };
const CLOSED = 'the server was closed before the override of GET /api/shop/products answered';

describe('close() with an override that has not answered', () => {
  it('startServer: close() ends at once; the request is answered 503, and a late answer is dropped', async () => {
    const api = await startServer({ content: TREE });
    let asked!: () => void;
    const wasAsked = new Promise<void>((ok) => (asked = ok));
    let late!: (a: { status: number }) => void;
    api.override('GET', '/api/shop/products', () => {
      asked();
      return new Promise((ok) => (late = ok));
    });
    api.override('GET', '/api/shop/products/mug', () => new Promise(() => {})); // never settles
    const pending = fetch(`${api.url}/api/shop/products`, { headers: ACCEPT });
    const never = fetch(`${api.url}/api/shop/products/mug`, { headers: ACCEPT });
    await wasAsked;
    const t0 = performance.now();
    await api.close();
    expect(performance.now() - t0).toBeLessThan(2500);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({ code: 'service_unavailable', detail: CLOSED });
    expect((await never).status).toBe(503);
    late({ status: 200 }); // after close(): nothing more is sent or thrown
    expect(api.requests().map((r) => [r.path, r.status])).toEqual(
      expect.arrayContaining([
        ['/api/shop/products', 503],
        ['/api/shop/products/mug', 503],
      ]),
    );
  });

  it('startServer: close() right after a client gave up on a delayed request ends at once', async () => {
    // undici opens a new connection when a request is aborted and sends nothing on it: close()
    // waited for it to go (undici's 4 s keep-alive).
    const api = await startServer({ content: TREE });
    await fetch(`${api.url}/api/shop/products`, { headers: { ...ACCEPT, prefer: 'delay=600000' }, signal: AbortSignal.timeout(100) }).catch(
      (e: Error) => e.name,
    );
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await api.close();
    expect(performance.now() - t0).toBeLessThan(2500);
  });

  it('createMswHandlers: close() answers the request the override holds with the same 503', async () => {
    const CMS = 'http://pending.test';
    const api = await createMswHandlers({ origin: CMS, content: TREE });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      let asked!: () => void;
      const wasAsked = new Promise<void>((ok) => (asked = ok));
      api.override('GET', '/api/shop/products', () => {
        asked();
        return new Promise(() => {});
      });
      const pending = fetch(`${CMS}/api/shop/products`, { headers: ACCEPT });
      await wasAsked;
      await api.close();
      const res = await pending;
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'service_unavailable', detail: CLOSED });
      expect(api.requests().map((r) => r.status)).toEqual([503]);
      // MSW still listening after api.close() (msw.close() forgotten): the override is not asked
      // again, and the request is not left pending for ever (attacker, low).
      let askedAfter = 0;
      api.override('GET', '/api/shop/products', () => {
        askedAfter++;
        return new Promise(() => {});
      });
      const after = await fetch(`${CMS}/api/shop/products`, { headers: ACCEPT, signal: AbortSignal.timeout(5000) });
      expect(after.status).toBe(503);
      expect(askedAfter).toBe(0);
    } finally {
      msw.close();
    }
  });

  // Found from outside: with one override set, every route answered 503 after api.close(), naming
  // an override of its own path that did not exist.
  it('createMswHandlers after close(): only a request an override takes gets the 503; the API answers the others', async () => {
    const CMS = 'http://closed.test';
    const api = await createMswHandlers({ origin: CMS, content: TREE });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      let asked = 0;
      api.override('GET', '/api/shop/products/:id', () => {
        asked++;
        return { body: { data: null } };
      });
      await api.close();
      const list = await fetch(`${CMS}/api/shop/products`, { headers: ACCEPT });
      expect(list.status).toBe(200);
      expect((await list.json()).data.map((p: { title: string }) => p.title)).toEqual(['Mug']);
      // Another method than the override's: the API's answer too.
      expect((await fetch(`${CMS}/api/shop/products/mug`, { method: 'HEAD', headers: ACCEPT })).status).toBe(200);
      const taken = await fetch(`${CMS}/api/shop/products/mug`, { headers: ACCEPT });
      expect(taken.status).toBe(503);
      expect(await taken.json()).toMatchObject({
        code: 'service_unavailable',
        detail: 'the server was closed before the override of GET /api/shop/products/mug answered',
      });
      expect(asked).toBe(0);
      expect(api.requests().map((r) => [r.method, r.path, r.status])).toEqual([
        ['GET', '/api/shop/products', 200],
        ['HEAD', '/api/shop/products/mug', 200],
        ['GET', '/api/shop/products/mug', 503],
      ]);
    } finally {
      msw.close();
    }
  });
});
