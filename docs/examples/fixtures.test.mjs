// startServer with an in-memory tree, a per-route override and waitForRequest.
import { startServer } from 'content-query-api';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

let api;
beforeAll(async () => {
  api = await startServer({
    content: {
      'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
      'shop/products/_collection.yaml': { name: 'Products', fields: { title: { type: 'text', required: true } } },
      'shop/products/mug.yaml': 'title: Mug\n',
    },
  });
});
afterEach(() => api.reset());
afterAll(() => api.close());

const titles = async () => {
  const res = await fetch(`${api.url}/api/shop/products`, { headers: { accept: 'application/json' } });
  return res.ok ? (await res.json()).data.map((p) => p.title) : `error ${res.status}`;
};

it('serves the tree', async () => {
  expect(await titles()).toEqual(['Mug']);
});

it('answers one route as the test says, then as the API does again', async () => {
  api.override('GET', '/api/shop/products', { body: { data: [], meta: { total: 0, limit: null, offset: 0 } } });
  expect(await titles()).toEqual([]);
  api.reset();
  expect(await titles()).toEqual(['Mug']);
});

it('waits for the request and sees its answer', async () => {
  api.clearRequests();
  void titles();
  const record = await api.waitForRequest((r) => r.path === '/api/shop/products', { timeout: 5000 });
  expect(record.response.status).toBe(200);
  expect(record.response.body).toContain('"title":"Mug"'); // the body as text (null for HEAD, 304, media)
});
