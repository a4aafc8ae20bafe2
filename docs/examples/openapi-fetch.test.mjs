// openapi-fetch against startServer(), sending where-clauses through the package's querySerializer.
// docs/openapi.md#openapi-fetch shows this file.
import { querySerializer, startServer } from 'content-query-api';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server;
let api;
beforeAll(async () => {
  server = await startServer({ content: 'content' });
  api = createClient({ baseUrl: server.url, querySerializer, headers: { Authorization: 'Bearer demo-token' } });
});
afterAll(() => server.close());

it('sends where[f][op] and in lists', async () => {
  const { data, response } = await api.GET('/api/demo/posts', {
    params: { query: { where: { reading_time: { gte: 5 }, tags: { in: ['travel', 'food'] } }, sort: 'reading_time:asc' } },
  });
  expect(response.status).toBe(200);
  expect(data.data.length).toBeGreaterThan(0);
  expect(data.data.every((post) => post.reading_time >= 5)).toBe(true);
  expect(new URL(response.url).search).toBe(
    '?where[reading_time][gte]=5&where[tags][in][]=travel&where[tags][in][]=food&sort=reading_time:asc',
  );
});
