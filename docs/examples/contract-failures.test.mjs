// A contract test of the unhappy path: the API answers 503 once, your code retries, and the
// journal shows what your client sent. Forced with `Prefer: status=503` on one request.
import { startServer } from 'content-query-api';
import { ClientError, createClient } from 'content-query-api/client';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

// The code under test: the latest German posts, retried once when the API is unavailable.
async function latestGermanPosts(cms) {
  const query = { where: { locale: 'de' }, sort: 'published_at:desc', limit: 3 };
  try {
    return await cms.entries('posts', query);
  } catch (error) {
    if (!(error instanceof ClientError) || error.status !== 503) throw error;
    return cms.entries('posts', query);
  }
}

// A fetch that asks the mock server to fail the next request with `status`.
function failingNext(status) {
  let armed = true;
  return (url, init) => {
    const headers = new Headers(init?.headers);
    if (armed) headers.set('Prefer', `status=${status}`);
    armed = false;
    return fetch(url, { ...init, headers });
  };
}

let server;
beforeAll(async () => {
  server = await startServer({ content: 'content' }); // a free port on 127.0.0.1
});
afterAll(() => server.close());
beforeEach(() => server.clearRequests());

const client = (fetch) => createClient({ baseUrl: server.url, project: 'demo', token: 'demo-token', mode: 'server', fetch });

it('retries once after a 503 and sends the same query again', async () => {
  const { data } = await latestGermanPosts(client(failingNext(503)));
  expect(data).toHaveLength(3);

  const [failed, retried] = server.requests();
  expect(failed).toMatchObject({ status: 503, injected: true });
  expect(retried).toMatchObject({ status: 200, injected: false, auth: 'Bearer' });
  expect(retried.query).toEqual({ 'where[locale]': 'de', sort: 'published_at:desc', limit: '3' });
  expect(retried.headers.authorization).toBeUndefined(); // the journal never keeps credentials
});

it('does not retry a 429', async () => {
  const error = await latestGermanPosts(client(failingNext(429))).catch((e) => e);
  expect(error).toMatchObject({ status: 429, code: 'too_many_requests' });
  expect(server.requests()).toHaveLength(1);
});

it('an override (an empty list) still fails on purpose: the retry gets the empty list', async () => {
  server.override('GET', '/api/demo/posts', { body: { data: [], meta: { total: 0, limit: 3, offset: 0 } } });
  try {
    const { data } = await latestGermanPosts(client(failingNext(503)));
    expect(data).toEqual([]);
    // The outage came first (the override was not asked), then the override answered.
    expect(server.requests().map((r) => [r.status, r.injected])).toEqual([
      [503, true],
      [200, false],
    ]);
  } finally {
    server.reset();
  }
});
