// A consumer suite with MSW (setupServer): in-memory fixtures, an override and waitForRequest.
// docs/contract-tests.md#with-msw shows this file.
import { createMswHandlers } from 'content-query-api/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const CMS = 'https://cms.example';
let api;
let server;
beforeAll(async () => {
  api = await createMswHandlers({
    origin: CMS,
    content: {
      'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
      'shop/products/_collection.yaml': { name: 'Products', fields: { title: { type: 'text', required: true }, price: 'number' } },
      'shop/products/mug.yaml': 'title: Mug\nprice: 12\n',
      'shop/products/plate.yaml': 'title: Plate\nprice: 20\n',
    },
  });
  server = setupServer(...api.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  api.reset(); // drop this test's overrides
  api.clearRequests();
});
afterAll(async () => {
  server.close();
  await api.close();
});

// The code under test: what your app does.
const cheapProducts = async () => {
  const res = await fetch(`${CMS}/api/shop/products?where[price][lte]=15`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`the CMS answered ${res.status}`);
  return (await res.json()).data.map((p) => p.title);
};

it('reads the fixtures through the real query engine', async () => {
  expect(await cheapProducts()).toEqual(['Mug']);
  const sent = await api.waitForRequest((r) => r.path === '/api/shop/products');
  expect(sent.query['where[price][lte]']).toBe('15');
  expect(sent.response.status).toBe(200);
});

it('shows a failure the way the app reports it (an override)', async () => {
  api.override('GET', '/api/shop/products', { status: 503, headers: { 'retry-after': '1' } });
  await expect(cheapProducts()).rejects.toThrow('the CMS answered 503');
});

it('refuses a query the real API refuses', async () => {
  const res = await fetch(`${CMS}/api/shop/products?where[prise]=1`, { headers: { accept: 'application/json' } });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ code: 'unknown_field' });
});

it('forces one failure per request with Prefer, as startServer does', async () => {
  const res = await fetch(`${CMS}/api/shop/products`, { headers: { accept: 'application/json', prefer: 'status=429' } });
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe('1');
  expect((await api.waitForRequest((r) => r.status === 429)).injected).toBe(true);
});
