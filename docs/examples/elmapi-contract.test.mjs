// Client code written for the original ElmapiCMS API, against the mock: an `elmapi` project.
import { startServer } from 'content-query-api';
import { ClientError, createClient } from 'content-query-api/client';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server;
let cms;
beforeAll(async () => {
  server = await startServer({ content: 'content' });
  cms = createClient({
    baseUrl: server.url,
    project: '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47',
    token: 'travel-token',
    mode: 'server',
    dialect: 'elmapi', // the project's `dialect:`; its answers do not say it
  });
});
afterAll(() => server.close());

it('lists articles as a bare array, with integer ids', async () => {
  const articles = await cms.entries('articles', { sort: 'price:desc', limit: 2, offset: 1 });
  expect(articles).toHaveLength(2);
  expect(typeof articles[0].id).toBe('number');
  expect(await cms.count('articles')).toBe(6);
  expect(await cms.first('authors', { where: { name: 'jorg muller' } })).toMatchObject({ id: 2, name: 'Jörg Müller' });
});

it("gets the dialect's errors as ClientErrors", async () => {
  const error = await cms.entry('articles', 99).catch((e) => e);
  expect(error).toBeInstanceOf(ClientError);
  expect(error).toMatchObject({ status: 404, detail: 'Not found!' });
});
