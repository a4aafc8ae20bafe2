// A contract test: your code's queries against the mock server, through the server client.
import { startServer } from 'content-query-api';
import { ClientError, createClient } from 'content-query-api/client';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server;
let cms;
beforeAll(async () => {
  server = await startServer({ content: 'content' }); // a free port on 127.0.0.1
  cms = createClient({ baseUrl: server.url, project: 'demo', token: 'demo-token', mode: 'server' });
});
afterAll(() => server.close());

it('lists the three latest German posts, newest first', async () => {
  const { data, meta } = await cms.entries('posts', { where: { locale: 'de' }, sort: 'published_at:desc', limit: 3 });
  expect(data).toHaveLength(3);
  expect(data.every((post) => post.locale === 'de')).toBe(true);
  expect(meta).toMatchObject({ limit: 3, offset: 0 });
});

it('gets a clear 400 for a field that does not exist', async () => {
  const error = await cms.entries('posts', { where: { prise: 1 } }).catch((e) => e);
  expect(error).toBeInstanceOf(ClientError);
  expect(error).toMatchObject({ status: 400, code: 'unknown_field', param: 'where[prise]' });
});
