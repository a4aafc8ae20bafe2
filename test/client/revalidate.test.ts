// The static client on hosts that fail in the ways real ones do (issue 22): a refused
// If-None-Match preflight, a host gone or answering 5xx after the first call, a page or directory
// listing where a document should be. Failures are injected into the fetch in front of `cqa preview`;
// test/hosting/client-nginx.slow.test.ts does the same in Chromium against real nginx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient, StaticTreeError, type Fetch } from '../../src/core/client/index.js';
import { loadContent } from '../../src/node/content/index.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { serveBoth, type Sites } from './fixture.js';

let sites: Sites;
beforeAll(async () => {
  const { model, issues } = await loadContent('content');
  expect(issues).toEqual([]);
  sites = await serveBoth(createSnapshot(model));
});
afterAll(() => sites.close());

type Fault = 'none' | 'preflight' | 'down' | '503' | 'html' | 'listing' | 'cut';

/** A fetch to `cqa preview` that fails as told, counting the requests it was asked for. */
function faulty() {
  const state = { fault: 'none' as Fault, requests: 0, conditional: 0 };
  const f: Fetch = async (url, init) => {
    state.requests++;
    const conditional = 'if-none-match' in init.headers;
    if (conditional) state.conditional++;
    // What a browser reports when the CORS preflight or the connection fails.
    if (state.fault === 'down' || (state.fault === 'preflight' && conditional)) throw new TypeError('Failed to fetch');
    if (state.fault === '503') return new Response('busy', { status: 503 });
    if (state.fault === 'cut') {
      // Headers arrive, then the connection drops in the middle of the body.
      const body = new ReadableStream({ start: (c) => c.error(new TypeError('network error')) });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    }
    if (state.fault === 'html')
      return new Response('<!doctype html><title>Index of /api/</title>', { status: 200, headers: { 'content-type': 'text/html' } });
    if (state.fault === 'listing')
      return new Response('{"files":[{"base":"index.json"}],"directory":"/api/demo/"}', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    return fetch(url.replace(sites.server.url, sites.preview.url), init);
  };
  return { state, fetch: f };
}

const PREVIEW = () => sites.preview.url;
const calls = (c: ReturnType<typeof createClient>) => [
  () => c.project(),
  () => c.entries('posts', { sort: 'id', limit: 3 }),
  () => c.entries('posts', { where: { tags: 'travel' } }),
  () => c.count('posts'),
  () => c.entry('posts', 'hello-world'),
  () => c.entries('products', { sort: 'price:desc' }),
  () => c.media(),
];

describe('a failed revalidation answers from the copy the client holds', () => {
  it('a host that exposes ETag but refuses the If-None-Match preflight: every call right, and no second failing preflight per document', async () => {
    const { state, fetch } = faulty();
    const client = createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static', fetch });
    const first = [];
    for (const call of calls(client)) first.push(JSON.stringify(await call()));
    state.fault = 'preflight';
    let refused = 0;
    for (let round = 0; round < 3; round++) {
      const again = [];
      for (const call of calls(client)) again.push(JSON.stringify(await call()));
      expect(again).toEqual(first);
      if (round === 0) refused = state.conditional;
    }
    // Once refused (by the documents asked for at once), the client asks without If-None-Match.
    expect(refused).toBeGreaterThan(0);
    expect(state.conditional).toBe(refused);
  });

  for (const fault of ['down', '503', 'cut'] as const) {
    it(`a host ${{ down: 'out of reach', '503': 'answering 503', cut: 'dropping the connection mid-body' }[fault]} after the first calls: the same answers, from the copies`, async () => {
      const { state, fetch } = faulty();
      const client = createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static', fetch });
      const first = [];
      for (const call of calls(client)) first.push(JSON.stringify(await call()));
      state.fault = fault;
      const again = [];
      for (const call of calls(client)) again.push(JSON.stringify(await call()));
      expect(again).toEqual(first);
    });
  }
});

describe('errors name the host problem and the fix, never a bare TypeError', () => {
  const cases: [Fault, RegExp][] = [
    ['down', /could not fetch http:\/\/127\.0\.0\.1:\d+\/api\/demo \(Failed to fetch\): .*Access-Control-Allow-Origin/],
    ['503', /\/api\/demo: the static host answered 503; try again later/],
    ['html', /not those of a cqa build .*index\.json .*directory listing/],
    ['listing', /is not a cqa-dialect project document|not those of a cqa build/],
    ['cut', /could not fetch http:\/\/127\.0\.0\.1:\d+\/api\/demo \(network error\)/],
  ];
  for (const [fault, message] of cases) {
    it(`${fault}, with nothing downloaded yet: StaticTreeError`, async () => {
      const { state, fetch } = faulty();
      state.fault = fault;
      const client = createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static', fetch });
      for (const call of calls(client)) {
        const err = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(StaticTreeError);
        expect((err as Error).message).toMatch(message);
      }
    });
  }

  it('a list document replaced by a directory listing: StaticTreeError, not a TypeError', async () => {
    const { fetch } = faulty();
    const listing: Fetch = (url, init) =>
      url.endsWith('/api/demo/posts')
        ? Promise.resolve(new Response('{"files":[{"base":"index.json"}]}', { status: 200 }))
        : fetch(url, init);
    const client = createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static', fetch: listing });
    const err = await client.entries('posts').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StaticTreeError);
    expect((err as Error).message).toMatch(/not those of a cqa build/);
    await expect(client.entry('posts', 'nope')).rejects.toBeInstanceOf(StaticTreeError);
  });

  it('an unknown entry is still a ClientError 404 (a host answer, not a host problem)', async () => {
    const client = createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static' });
    const err = await client.entry('posts', 'no-such-post').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ClientError).status).toBe(404);
  });
});

describe('revalidate option', () => {
  const requestsFor = async (revalidate: 'always' | 'never' | number) => {
    const { state, fetch } = faulty();
    const client = createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static', fetch, revalidate });
    await client.entries('posts');
    const after = state.requests;
    await client.entries('posts');
    return state.requests - after;
  };

  it("'always' asks the host again on every call; 'never' and a period not yet over do not", async () => {
    expect(await requestsFor('always')).toBe(3); // project, list, query index
    expect(await requestsFor(0)).toBe(3);
    expect(await requestsFor('never')).toBe(0);
    expect(await requestsFor(3_600_000)).toBe(0);
  });

  it('a value that is none of those is refused when the client is made', () => {
    for (const bad of [-1, Number.NaN, 'sometimes', Number.POSITIVE_INFINITY]) {
      expect(() => createClient({ baseUrl: PREVIEW(), project: 'demo', mode: 'static', revalidate: bad as never })).toThrow(
        /revalidate must be 'always', 'never' or a number/,
      );
    }
  });
});
