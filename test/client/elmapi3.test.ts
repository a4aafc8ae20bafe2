// The client against an `elmapi3` project (docs/client.md, Dialects): `dialect: 'elmapi3'` sends
// the `project-id` header to `<baseUrl>/api/…` (no project in the path), maps entries, first,
// count, entry, media and mediaItem to the v3 routes, writes queries ElmapiCMS v3 reads (lists as
// `[]` arrays, not the SDK's collapsing repeated keys; relation filters inside `where`;
// `state: 'only_draft'` → `state=draft`), returns what the server sends, and turns `{"message": …}`
// / `{"error": …}` into ClientErrors — on the sample content/shop3 served by startServer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient, type Fetch } from '../../src/core/client/index.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

const SHOP = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
const ALPHA = '9b1f6c52-3a41-4d7e-9a57-0c1b8e2f4a10';
const SHIRT = '0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90';
let server: RunningServer;
/** Paths and query strings the client sent, in order. */
const sent: string[] = [];
const recording: Fetch = (url, init) => {
  const u = new URL(url);
  sent.push(`${u.pathname}${u.search}`);
  return fetch(url, init);
};

beforeAll(async () => {
  server = await startServer({ content: 'content', port: 0 });
});
afterAll(() => server?.close());

const cms = (token = 'shop3-token') =>
  createClient({ baseUrl: server.url, project: SHOP, token, mode: 'server', dialect: 'elmapi3', fetch: recording });
const titles = (list: readonly { fields: unknown }[]) => list.map((e) => (e.fields as { title?: string }).title);

async function rejection(p: Promise<unknown>): Promise<ClientError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ClientError);
  return e as ClientError;
}

describe("createClient({ dialect: 'elmapi3' }) in server mode", () => {
  it('sends the project-id header to /api/… and reads bare answers', async () => {
    server.clearRequests();
    const project = await cms().project();
    expect(project).toMatchObject({ uuid: SHOP, name: 'Alpine Outfitters', locales: ['en', 'fr'] });
    const list = await cms().entries('products');
    expect(titles(list)).toEqual(['Summit Pack', 'Trail Jacket', 'Alpha Shirt']);
    const [a, b] = server.requests();
    expect(a).toMatchObject({ path: '/api', status: 200, headers: { 'project-id': SHOP }, auth: 'Bearer' });
    expect(b).toMatchObject({ path: '/api/products', status: 200, headers: { 'project-id': SHOP } });
  });

  it('first, count and entry map to the v3 list and entry routes', async () => {
    sent.length = 0;
    const first = await cms().first('products', { sort: 'price:asc', where: { in_stock: true } });
    expect(first?.uuid).toBe(ALPHA);
    expect(await cms().count('products', { where: { price: { gt: 79 } } })).toBe(2);
    const one = await cms().entry('products', ALPHA, { timestamps: true, exclude: ['related'] });
    expect(Object.keys(one)).toEqual(['uuid', 'locale', 'published_at', 'fields', 'created_at', 'updated_at']);
    expect((one.fields as Record<string, unknown>).related).toBeUndefined();
    expect(sent).toEqual([
      '/api/products?where[in_stock]=true&sort=price:asc&limit=1',
      '/api/products?where[price][gt]=79&count',
      `/api/${'products'}/${ALPHA}?timestamps&exclude=related`,
    ]);
    expect(await cms().first('products', { where: { title: 'nope' } })).toBeNull();
  });

  it('lists go as PHP arrays (two bounds stay two), relation filters inside where, only_draft as state=draft', async () => {
    sent.length = 0;
    server.clearRequests();
    expect(titles(await cms().entries('products', { where: { price: { between: [30, 120] } } }))).toEqual(['Summit Pack', 'Trail Jacket']);
    expect(titles(await cms().entries('products', { where: { title: { in: ['Alpha Shirt', 'Summit Pack'] } } }))).toEqual([
      'Summit Pack',
      'Alpha Shirt',
    ]);
    expect(titles(await cms().entries('products', { whereRelation: { related: { title: 'Trail Jacket' } } }))).toEqual(['Alpha Shirt']);
    expect(
      titles(await cms().entries('products', { where: { or: [{ title: { like: 'shirt' } }, { title: { like: 'jacket' } }] } })),
    ).toEqual(['Trail Jacket', 'Alpha Shirt']);
    expect(titles(await cms().entries('products', { where: { images: 'not_null', season: null } }))).toEqual([]);
    expect(titles(await cms().entries('products', { state: 'only_draft' }))).toEqual(['Glacier Boots']);
    // Nothing the server had to drop silently: no X-Cqa-Warning on these (the null filter on a date field excepted).
    expect(
      server
        .requests()
        .filter((r) => r.warnings && !r.url.includes('season'))
        .map((r) => r.url),
    ).toEqual([]);
    expect(sent[0]).toBe('/api/products?where[price][between][]=30&where[price][between][]=120');
    expect(sent[2]).toBe('/api/products?where[related][title]=Trail%20Jacket');
    expect(sent[4]).toBe('/api/products?where[images][not_null]=1&where[season][null]=1');
    expect(sent[5]).toBe('/api/products?state=draft');
  });

  it("paginate and page answer Laravel's page of entries; state: 'draft' is v3's own word", async () => {
    sent.length = 0;
    const page = await cms().entries('products', { paginate: 2, page: 2, sort: 'price:desc' });
    expect(page.meta).toMatchObject({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(titles(page.data)).toEqual(['Alpha Shirt']);
    expect(titles(await cms().entries('products', { state: 'draft' }))).toEqual(['Glacier Boots']);
    expect(sent).toEqual(['/api/products?sort=price:desc&paginate=2&page=2', '/api/products?state=draft']);
    await expect(cms().entries('products', { page: 2 })).rejects.toThrow(/page: give paginate too/);
    await expect(cms().first('products', { paginate: 2 } as never)).rejects.toThrow(/unknown query key 'paginate'/);
    const plain = createClient({ baseUrl: 'http://127.0.0.1:9', project: 'demo', mode: 'server' });
    await expect(plain.entries('posts', { paginate: 2 } as never)).rejects.toThrow(/unknown query key 'paginate'/);
    expect(sent).toHaveLength(2);
  });

  it('what v3 cannot express is a TypeError naming the fix, before any request', async () => {
    sent.length = 0;
    await expect(cms().entries('products', { fields: ['title'] })).rejects.toThrow(/no fields=; use exclude/);
    await expect(cms().entries('products', { state: 'with_draft' })).rejects.toThrow(/no with_draft; use 'only_draft'/);
    await expect(cms().media({ limit: 2 })).rejects.toThrow(/takes a query string/);
    await expect(cms().entry('products', 'alpha-shirt')).rejects.toThrow(/not an entry uuid/);
    await expect(cms().mediaItem('../products')).rejects.toThrow(
      /not a media id of the elmapi3 dialect \(a positive integer, a uuid, or name/,
    );
    expect(() => createClient({ baseUrl: server.url, project: 'shop3', mode: 'server', dialect: 'elmapi3' })).toThrow(
      /the uuid of an elmapi3 project/,
    );
    expect(() => createClient({ baseUrl: server.url, project: SHOP, mode: 'static', dialect: 'elmapi3' })).toThrow(
      /mode 'static' does not support the elmapi3 dialect/,
    );
    expect(sent).toEqual([]);
  });

  it("entry() takes v3's locale and translation_locale; entries() of a singleton is its one entry", async () => {
    const pages = (await cms().entries('pages', { locale: 'en' })) as { uuid: string }[];
    const about = pages[0]?.uuid as string;
    sent.length = 0;
    const french = await cms().entry('pages', about, { translation_locale: 'fr' });
    expect(french.locale).toBe('fr');
    expect(sent).toEqual([`/api/pages/${about}?translation_locale=fr`]);
    await expect(cms().entry('pages', about, { locale: 'fr' })).rejects.toMatchObject({ status: 404 });
    expect(await cms().entries('settings')).toMatchObject({ fields: { site_name: 'Alpine Outfitters' } });
    // Not a key of a cqa project's entry route.
    const plain = createClient({ baseUrl: 'http://127.0.0.1:9', project: 'demo', mode: 'server' });
    await expect(plain.entry('posts', 'x', { translation_locale: 'de' } as never)).rejects.toThrow(
      /unknown query key 'translation_locale'/,
    );
  });

  it('a singleton: first() is its one entry; count() says to use first()', async () => {
    const site = await cms().first('settings');
    const french = await cms().first('settings', { locale: 'fr' });
    expect(site?.fields).toMatchObject({ site_name: 'Alpine Outfitters' });
    expect(french?.fields).toMatchObject({ site_name: 'Alpine Équipement' });
    await expect(cms().count('settings')).rejects.toThrow(/a singleton answers its one entry; use first\(\)/);
  });

  it('media is /api/files (a page of assets), mediaItem by uuid, number or name/<file name>', async () => {
    const page = await cms().media();
    expect(page.meta.total).toBe(1);
    expect(page.data[0]?.filename).toBe('shirt.png');
    expect((await cms().media('paginate=1&type=document')).data).toEqual([]);
    expect((await cms().mediaItem(SHIRT)).filename).toBe('shirt.png');
    expect((await cms().mediaItem('name/shirt.png')).uuid).toBe(SHIRT);
    const n = (await cms().get('/files', 'paginate=1')) as { data: unknown[] };
    expect(n.data).toHaveLength(1);
  });

  it('errors are ClientErrors with the v3 message', async () => {
    expect(await rejection(cms().entry('products', '00000000-0000-4000-8000-000000000000'))).toMatchObject({
      status: 404,
      detail: 'Content not found.',
    });
    expect(await rejection(cms().entries('nope'))).toMatchObject({ status: 404, detail: 'Collection not found.' });
    expect(await rejection(cms().mediaItem('name/nope.png'))).toMatchObject({ status: 404, detail: 'Asset not found' });
    expect(await rejection(cms('travel-token').entries('products'))).toMatchObject({ status: 401, detail: 'Unauthenticated.' });
    const other = createClient({
      baseUrl: server.url,
      project: '00000000-0000-4000-8000-000000000000',
      mode: 'server',
      dialect: 'elmapi3',
    });
    expect(await rejection(other.project())).toMatchObject({ status: 404, detail: 'Project not found.' });
  });
});
