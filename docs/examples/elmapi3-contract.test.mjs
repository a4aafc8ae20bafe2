// docs/dialects.md shows this file.
// Client code written for today's ElmapiCMS (v3/4.0), against the mock: an `elmapi3` project,
// named by the project-id header. The journal shows what the real API would have done silently.
import { startServer } from 'content-query-api';
import { ClientError, createClient } from 'content-query-api/client';
import { afterAll, beforeAll, expect, it } from 'vitest';

const project = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
let server;
let cms;
beforeAll(async () => {
  server = await startServer({ content: 'content' });
  cms = createClient({ baseUrl: server.url, project, token: 'shop3-token', mode: 'server', dialect: 'elmapi3' });
});
afterAll(() => server.close());

it('lists products as {uuid, locale, published_at, fields}, newest first', async () => {
  const products = await cms.entries('products', { where: { price: { between: [30, 120] } } });
  expect(products.map((p) => p.fields.title)).toEqual(['Summit Pack', 'Trail Jacket']);
  expect(await cms.count('products')).toBe(3);
  const [request] = server.requests();
  expect(request.headers['project-id']).toBe(project); // sent on every request, no project in the path
});

it('says in the journal what ElmapiCMS would have done silently', async () => {
  server.clearRequests();
  await cms.get('/products', 'sort=price:desc'); // a custom field, without paginate
  const [request] = server.requests();
  expect(request.warnings).toEqual([expect.stringContaining('add paginate=N to sort by it')]);
});

it("gets the dialect's errors as ClientErrors", async () => {
  const error = await cms.entry('products', '00000000-0000-4000-8000-000000000000').catch((e) => e);
  expect(error).toBeInstanceOf(ClientError);
  expect(error).toMatchObject({ status: 404, detail: 'Content not found.' });
});

it('answers 422 where ElmapiCMS is silent, with startServer({ strict: true }) (cqa serve --strict)', async () => {
  const strict = await startServer({ content: 'content', strict: true });
  try {
    const client = createClient({ baseUrl: strict.url, project, token: 'shop3-token', mode: 'server', dialect: 'elmapi3' });
    const error = await client.entries('products', { where: { colour: 'red' } }).catch((e) => e);
    expect(error).toMatchObject({ status: 422, detail: expect.stringContaining("no field 'colour'") });
  } finally {
    await strict.close();
  }
});
