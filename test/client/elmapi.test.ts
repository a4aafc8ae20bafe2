// The client against an `elmapi` project (docs/client.md, Dialects): `dialect: 'elmapi'` reads
// bare arrays, numbers and objects, returns what the server sends (integer ids, `YYYY-MM-DD
// HH:MM:SS` timestamps, media with `thumb`), writes queries the dialect accepts (sort directions,
// no offset without limit) and turns `{"error": …}` / `{"message": …}` into ClientErrors — on the
// sample project content/travel served by startServer (what `cqa serve` runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient, StaticTreeError, type Fetch } from '../../src/core/client/index.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';
let server: RunningServer;
/** Query strings the client sent, in order. */
const sent: string[] = [];
const recording: Fetch = (url, init) => {
  sent.push(new URL(url).search.slice(1));
  return fetch(url, init);
};

beforeAll(async () => {
  server = await startServer({ content: 'content', port: 0 });
});
afterAll(() => server?.close());

const cms = () =>
  createClient({ baseUrl: server.url, project: TRAVEL, token: 'travel-token', mode: 'server', dialect: 'elmapi', fetch: recording });

/** What the server answers to the same request, parsed. */
async function raw(path: string, query = ''): Promise<unknown> {
  const res = await fetch(`${server.url}/api/${TRAVEL}${path}${query ? `?${query}` : ''}`, {
    headers: { accept: 'application/json', authorization: 'Bearer travel-token' },
  });
  expect(res.status).toBe(200);
  return res.json();
}

async function rejection(p: Promise<unknown>): Promise<ClientError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ClientError);
  return e as ClientError;
}

describe("createClient({ dialect: 'elmapi' }) in server mode", () => {
  it('returns the bare project document, lists, numbers and entries the server sends', async () => {
    const c = cms();
    expect(c.dialect).toBe('elmapi');
    expect(await c.project()).toEqual({ uuid: TRAVEL, name: 'Wanderlust Travel Notes', description: expect.any(String) });

    const list = await c.entries('articles', {
      where: { tags: { like: 'city' } },
      // @ts-expect-error: the types want a direction on every elmapi sort item; plain JS gets ':asc' added
      sort: ['price:desc', 'id'],
      limit: 2,
      offset: 1,
    });
    // sort items get their direction, as the dialect requires (`sort=id` is a 422 there)
    expect(sent.at(-1)).toBe('where[tags][like]=city&sort=price:desc,id:asc&limit=2&offset=1');
    expect(Array.isArray(list)).toBe(true);
    expect(list).toEqual(await raw('/articles', sent.at(-1)));
    expect(list.length).toBeGreaterThan(0);
    for (const e of list) expect(typeof e.id).toBe('number');

    expect(await c.count('articles')).toBe(await raw('/articles', 'count'));
    expect(await c.count('articles', { where: { tags: { like: 'city' } } })).toBeGreaterThan(0);

    // case- and accent-blind text, the dialect's collation
    const jorg = await c.first('authors', { where: { name: 'jorg muller' } });
    expect(jorg).toEqual({ id: 2, locale: 'en', name: 'Jörg Müller', email: 'joerg@example.com', bio: 'Coffee, trains and cities.' });
    expect(await c.first('authors', { where: { name: 'nobody' } })).toBeNull();
    expect(await c.first('articles', { sort: 'id:desc', offset: 1 })).toEqual(
      (await c.entries('articles', { sort: 'id:desc', limit: 1, offset: 1 }))[0],
    );

    const hut = await c.entry('articles', 1, { timestamps: true });
    expect(hut).toEqual(await raw('/articles/1', 'timestamps'));
    expect(hut).toMatchObject({
      id: 1,
      created_at: '2022-03-01 09:00:00',
      tags: 'mountains,hiking',
      meta: '{"difficulty":"hard","days":6}',
    });
    expect(Object.keys(hut).slice(0, 5)).toEqual(['id', 'locale', 'created_at', 'updated_at', 'published_at']);
  });

  it('returns media items with integer ids and thumbs, by id and by file name', async () => {
    const c = cms();
    const media = await c.media();
    expect(media).toEqual(await raw('/project-media'));
    expect(media.map((m) => m.id).slice(0, 3)).toEqual([1, 2, 3]);
    expect(await c.mediaItem(2)).toMatchObject({ id: 2, file_name: 'berlin-skyline.jpg', thumb: expect.any(String) });
    expect(await c.mediaItem('name/alps.png')).toMatchObject({ id: 1, file_name: 'alps.png' });
    expect(await c.media({ sort: 'size', limit: 1 })).toEqual([expect.objectContaining({ file_name: 'guide.txt' })]);
  });

  it("turns the dialect's error bodies into ClientErrors with status, detail and code when present", async () => {
    const c = cms();
    expect(await rejection(c.entry('articles', 99))).toMatchObject({ status: 404, code: 'http_error', detail: 'Not found!' });
    expect(await rejection(c.entries('articles', { where: { nope: 1 } }))).toMatchObject({ status: 422, detail: 'Field not found [nope]' });
    expect(await rejection(c.entries('nope'))).toMatchObject({ status: 404, detail: 'Collection not found!' });
    expect(await rejection(c.mediaItem(404))).toMatchObject({ status: 404, detail: 'File not found!' });
    const strict = await rejection(c.entries('articles', 'bogus=1'));
    expect(strict).toMatchObject({ status: 422, code: 'unknown_parameter' });
    expect(strict.message).toMatch(/^422 unknown_parameter: .*bogus/);
    // a raw query string is sent as it is: the server's own rule answers
    expect(await rejection(c.entries('articles', 'sort=price'))).toMatchObject({ status: 422, detail: 'Incorrect sort statement' });

    const anonymous = createClient({ baseUrl: server.url, project: TRAVEL, mode: 'server', dialect: 'elmapi' });
    expect(await rejection(anonymous.count('articles'))).toMatchObject({ status: 401, detail: 'Unauthenticated.' });
  });

  it('refuses an offset without a limit before sending it, with the fix in the message', async () => {
    const before = sent.length;
    await expect(cms().entries('articles', { offset: 2 })).rejects.toThrow(/needs a limit with an offset; add limit/);
    expect(sent.length).toBe(before);
  });

  it("a client without dialect: 'elmapi' on an elmapi project says what to change", async () => {
    const c = createClient({ baseUrl: server.url, project: TRAVEL, token: 'travel-token', mode: 'server' });
    await expect(c.entries('authors', { sort: 'id:asc' })).rejects.toThrow(/another dialect; pass dialect: 'elmapi'/);
    await expect(c.count('authors')).rejects.toThrow(/pass dialect: 'elmapi'/);
  });
});

describe('static mode and the elmapi dialect', () => {
  it('is refused with a clear error (not supported yet)', async () => {
    expect(() => createClient({ baseUrl: server.url, project: TRAVEL, mode: 'static', dialect: 'elmapi' })).toThrow(
      /mode 'static' does not support the elmapi dialect yet; use mode 'server'/,
    );
    // Without the option, over a built elmapi tree: its project document holds no schema.
    const tree: Fetch = async () => new Response(JSON.stringify({ uuid: TRAVEL, name: 'T', description: null }), { status: 200 });
    const c = createClient({ baseUrl: 'https://cdn.example.com', project: TRAVEL, mode: 'static', fetch: tree });
    await expect(c.count('articles')).rejects.toThrow(StaticTreeError);
    await expect(c.count('articles')).rejects.toThrow(/static mode supports the cqa dialect only/);
  });
});
