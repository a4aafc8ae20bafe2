// Ids and slugs the client puts into request paths: `entry('posts', '../authors/anna-schmidt')`
// returned an author, since the URL resolves `..` before it is sent — an app passing a URL
// parameter as the id could be steered to any path of its project. Every such argument is now
// checked by the content rules before any request, in both modes and both dialects, and refused
// with a ClientError naming it. The servers themselves never resolve `..` in a path either.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { ClientError, createClient, type Client, type Fetch } from '../../src/core/client/index.js';
import { serveBoth, type Sites } from './fixture.js';

let sites: Sites;
const requested: string[] = [];
const recording: Fetch = (url, init) => {
  requested.push(url);
  return fetch(url, init);
};
const clients: [string, () => Client][] = [
  ['server', () => createClient({ baseUrl: sites.server.url, project: 'demo', token: 'demo-token', mode: 'server', fetch: recording })],
  ['static', () => createClient({ baseUrl: sites.preview.url, project: 'demo', mode: 'static', fetch: recording })],
];
const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';
const elmapi = () =>
  createClient({ baseUrl: sites.server.url, project: TRAVEL, token: 'travel-token', mode: 'server', dialect: 'elmapi', fetch: recording });

beforeAll(async () => {
  sites = await serveBoth(await buildSnapshot({ content: 'content' }));
}, 60_000);
afterAll(() => sites?.close());

/** The ClientError `run` rejects with, and that no request was sent for it. */
async function refused(run: () => Promise<unknown>): Promise<ClientError> {
  requested.length = 0;
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClientError);
  expect(requested).toEqual([]);
  return err as ClientError;
}

const BAD_IDS = [
  '../authors/anna-schmidt',
  '..',
  '.',
  'a/b',
  '%2e%2e',
  '..%2Fauthors%2Fanna-schmidt',
  'x?y',
  'x#y',
  '',
  ' ',
  'a\\b',
  '-x',
  'é',
  'a'.repeat(201),
];
const BAD_SLUGS = ['../authors', '..', 'posts/..', 'project-media', 'posts?x', '', '%2e%2e'];
const BAD_MEDIA = ['../authors', 'a/../../x', './hero.png', 'a//b', '', 'a\\b', 'x\u0000'];

describe.each(clients)('createClient in %s mode', (_mode, make) => {
  it.each(BAD_IDS)('entry(posts, %j) is refused before any request, naming the id', async (id) => {
    const err = await refused(() => make().entry('posts', id));
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_path_segment');
    expect(err.param).toBe('id');
    expect(err.detail).toContain(`entry id '${id.slice(0, 200)}' is not an entry id`);
  });

  it('a number for an id is refused, saying to pass it as a string (found from outside)', async () => {
    const err = await refused(() => make().entry('posts', 5 as never));
    expect(err.detail).toBe("entry id 5 is not an entry id: ids are strings, pass '5'");
    // Not for a number whose text is no id either (round two).
    for (const n of [Number.NaN, -1, 1e21]) expect((await refused(() => make().entry('posts', n as never))).detail).not.toContain('pass');
  });

  it.each(BAD_SLUGS)('a collection %j is refused in entries, first, count and entry', async (slug) => {
    const c = make();
    for (const run of [
      () => c.entries(slug as never),
      () => c.first(slug as never),
      () => c.count(slug as never),
      () => c.entry(slug as never, 'hello-world'),
    ]) {
      const err = await refused(run);
      expect(err.param).toBe('collection');
      expect(err.detail).toContain(`collection '${slug}' is not a collection slug`);
    }
  });

  it.each(BAD_MEDIA)('mediaItem(%j) is refused', async (id) => {
    const err = await refused(() => make().mediaItem(id));
    expect(err.param).toBe('id');
    expect(err.detail).toContain('is not a media id');
  });

  it("get() refuses '.' and '..' segments", async () => {
    for (const path of ['/posts/../authors', '/..', '/./posts', 'posts'])
      expect((await refused(() => make().get(path))).param).toBe('path');
  });

  it('valid ids still answer, a missing one with the 404 as before', async () => {
    const c = make();
    expect(((await c.entry('posts', 'hello-world')) as { id: string }).id).toBe('hello-world');
    expect(((await c.mediaItem('hero.png')) as { id: string }).id).toBe('hero.png');
    expect(await c.count('authors')).toBeGreaterThan(0);
    const missing = await c.entry('posts', 'anna-schmidt').catch((e: unknown) => e);
    expect((missing as ClientError).status).toBe(404);
  });
});

describe("createClient({ dialect: 'elmapi' })", () => {
  it.each(BAD_IDS)('entry(articles, %j) is refused', async (id) => {
    expect((await refused(() => elmapi().entry('articles', id))).param).toBe('id');
  });

  it.each(['abc', '1/..', '0', '-1', '../1', 1.5, 0])(
    'mediaItem(%j) is refused: the dialect names media by positive integers',
    async (id) => {
      expect((await refused(() => elmapi().mediaItem(id as never))).param).toBe('id');
    },
  );

  it('a project id that is not one is refused when the client is made', () => {
    expect(() => createClient({ baseUrl: sites.server.url, project: '../demo', mode: 'server' })).toThrow(/project must be a project id/);
  });
});

describe('the server never resolves .. in a request path', () => {
  /** A raw request: fetch() would resolve `..` and `%2e%2e` itself before sending. */
  function raw(path: string): Promise<{ status: number; body: string }> {
    const { hostname, port } = new URL(sites.server.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: hostname, port, path, headers: { authorization: 'Bearer demo-token' }, timeout: 5000 }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    '/api/demo/posts/../authors/anna-schmidt',
    '/api/demo/posts/%2e%2e/authors/anna-schmidt',
    '/api/demo/posts/..%2Fauthors%2Fanna-schmidt',
    '/api/demo/posts/%2E%2E%2Fauthors%2Fanna-schmidt',
    '/api/demo/posts/..%5Cauthors%5Canna-schmidt',
  ])('%s is no author', async (path) => {
    const r = await raw(path);
    expect([400, 404]).toContain(r.status);
    expect(r.body).not.toContain('"Anna');
  });
});
