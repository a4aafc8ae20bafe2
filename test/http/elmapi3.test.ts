// The `elmapi3` dialect (today's ElmapiCMS v3/4.0, /work/shared/elmapi3-dialect.md) as a consumer of
// the real API sees it: requests made exactly as the official SDK makes them (superagent 10,
// `.set('project-id', …)`, `.query(obj)` with nested where), answers read as the templates read
// them (`entry.fields.title`, `meta.total`, `links.next`), against startServer() over a socket and
// the same wire query through the edge handler (createHandler).
import qs from 'qs';
import superagent from 'superagent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/index.js';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { FIELD_TYPES, type ProjectRecord } from '../../src/core/model/model.js';
import { V3_FIELD_TYPES, v3FieldType } from '../../src/core/dialects/elmapi3.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { violations } from './schema-check.js';
import { png, writeTree, type Tree } from '../content/helpers.js';

const SHOP = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
const TOKEN = 'shop3-token';
const ALPHA = '9b1f6c52-3a41-4d7e-9a57-0c1b8e2f4a10';

let server: RunningServer;
let snapshot: Snapshot;
let edge: (r: Request) => Promise<Response>;

beforeAll(async () => {
  const { model, issues } = await loadContent('content');
  expect(issues).toEqual([]);
  const shop = model.projects.find((p) => p.id === SHOP) as ProjectRecord;
  const strict: ProjectRecord = { ...shop, id: '11111111-2222-4333-8444-555555555555', strict: true };
  const readOnly: ProjectRecord = {
    ...shop,
    id: '22222222-2222-4333-8444-555555555555',
    public: true,
    tokens: [{ name: 'r', sha256: shop.tokens[0]?.sha256 as string, scopes: ['read'] }],
  };
  // The whole sample (all three dialects in one server) plus a strict copy and a public copy.
  snapshot = createSnapshot({ projects: [...model.projects, strict, readOnly] });
  server = await startServer({ snapshot, host: '127.0.0.1', port: 0 });
  const h = createHandler(snapshot, { elmapi3: elmapi3Routes });
  edge = (r) => Promise.resolve(h(r));
}, 60_000);
afterAll(() => server?.close());

interface Got {
  status: number;
  body: any;
  text: string;
  warning: string | undefined;
}

type Params = Record<string, unknown>;

/** The SDK's request: base + path, headers it sets, `.query(params)`; errors are answers too. */
async function sdk(path: string, params: Params = {}, project = SHOP, token: string | undefined = TOKEN): Promise<Got> {
  let req = superagent
    .get(`${server.url}/api${path}`)
    .set('Accept', 'application/json')
    .ok(() => true);
  if (project) req = req.set('project-id', project);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  const res = await req.query(params);
  return { status: res.status, body: res.body, text: res.text, warning: res.headers['x-cqa-warning'] };
}

/** The same wire query (superagent 10: qs.stringify with indices: false, strictNullHandling) to the edge handler. */
async function viaEdge(path: string, params: Params = {}, project = SHOP, token: string | undefined = TOKEN): Promise<Got> {
  const q = qs.stringify(params, { indices: false, strictNullHandling: true });
  const headers: Record<string, string> = { accept: 'application/json', host: new URL(server.url).host };
  if (project) headers['project-id'] = project;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await edge(new Request(`${server.url}/api${path}${q ? `?${q}` : ''}`, { headers }));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text, warning: res.headers.get('x-cqa-warning') ?? undefined };
}

const titles = (list: any[]) => list.map((e) => e.fields.title);

describe.each([
  ['startServer + superagent', sdk],
  ['edge handler', viaEdge],
])('elmapi3 (%s)', (_name, call) => {
  it('R1 project: the sheet keys in order; with=collections adds them', async () => {
    const r = await call('/');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['uuid', 'name', 'description', 'preview_url', 'default_locale', 'locales']);
    expect(r.body).toMatchObject({ uuid: SHOP, default_locale: 'en', locales: ['en', 'fr'], preview_url: null });
    const w = await call('/', { with: 'collections' });
    expect(w.body.collections.map((c: any) => c.slug)).toEqual(['pages', 'products', 'settings']);
    expect(w.body.collections[0].fields).toBeUndefined();
  });

  it('R2/R3 collections: is_singleton, flat field list with group children after their group', async () => {
    const list = await call('/collections');
    expect(list.body.find((c: any) => c.slug === 'settings')).toMatchObject({ is_singleton: true });
    expect(Object.keys(list.body[0])).toEqual(['uuid', 'name', 'slug', 'is_singleton', 'created_at', 'updated_at']);
    const one = await call('/collections/products');
    const names = one.body.fields.map((f: any) => `${f.name}:${f.parent_field_id === null ? '' : 'child'}`);
    expect(names.slice(names.indexOf('variants:'), names.indexOf('variants:') + 3)).toEqual(['variants:', 'size:child', 'sku:child']);
    expect((await call('/collections/nope')).body).toEqual({ message: 'Collection not found.' });
    // A collection's times come from its published entries: a draft's would tell that it exists.
    const products = list.body.find((c: any) => c.slug === 'products');
    const stamps = (await call('/products', { timestamps: true })).body.map((e: any) => Date.parse(e.updated_at));
    expect(Date.parse(products.updated_at)).toBe(Math.max(...stamps));
    const drafts = (await call('/products', { state: 'draft', timestamps: true })).body.map((e: any) => Date.parse(e.updated_at));
    expect(Math.max(...drafts)).toBeGreaterThan(Math.max(...stamps)); // the sample's draft is newer
  });

  it("names every cqa field type as one of v3's, the enum its OpenAPI document gives (a newcomer's new type was served outside it)", () => {
    for (const type of FIELD_TYPES) expect(V3_FIELD_TYPES, type).toContain(v3FieldType(type));
  });

  it('R4 list: bare array, newest first, entries {uuid, locale, published_at, fields}', async () => {
    const r = await call('/products');
    expect(r.status).toBe(200);
    expect(titles(r.body)).toEqual(['Summit Pack', 'Trail Jacket', 'Alpha Shirt']);
    const alpha = r.body[2];
    expect(Object.keys(alpha)).toEqual(['uuid', 'locale', 'published_at', 'fields']);
    expect(alpha.uuid).toBe(ALPHA);
    expect(alpha.published_at).toBe('2026-03-01T09:00:00+00:00');
    // Groups first; password never; media a list of assets; date range; enumeration an array.
    expect(Object.keys(alpha.fields)[0]).toBe('variants');
    expect(alpha.fields.supplier_code).toBeUndefined();
    expect(r.text).not.toContain('not-for-the-api');
    expect(alpha.fields.variants).toEqual([
      { size: 'S', sku: 'AS-S' },
      { size: 'M', sku: 'AS-M' },
    ]);
    expect(alpha.fields.season).toEqual({ start: '2026-04-01 00:00:00', end: '2026-09-30 00:00:00' });
    expect(alpha.fields.tags).toEqual(['sale', 'summer']);
    expect(alpha.fields.images[0]).toMatchObject({
      uuid: '0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90',
      filename: 'shirt.png',
      mime_type: 'image/png',
      pending_image_processing: false,
    });
    expect(alpha.fields.images[0].size).toMatch(/^\d+(\.\d\d KB| bytes)$/);
    expect(alpha.fields.images[0].metadata).toMatchObject({ alt_text: 'Alpha Shirt, front' });
    // Relations embed, cycles are stubbed.
    expect(alpha.fields.related[0].fields.title).toBe('Trail Jacket');
    expect(alpha.fields.related[0].fields.related[0]).toEqual({
      uuid: ALPHA,
      locale: 'en',
      published_at: '2026-03-01T09:00:00+00:00',
      fields: [],
    });
  });

  it('paginate + page: Laravel {data, links, meta}; links carry the query', async () => {
    const r = await call('/products', { paginate: 2, sort: 'price:asc' });
    expect(Object.keys(r.body)).toEqual(['data', 'links', 'meta']);
    expect(titles(r.body.data)).toEqual(['Alpha Shirt', 'Summit Pack']);
    expect(r.body.meta).toMatchObject({ current_page: 1, from: 1, last_page: 2, per_page: 2, to: 2, total: 3 });
    expect(Object.keys(r.body.meta)).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    expect(r.body.links.next).toBe(`${server.url}/api/products?paginate=2&sort=price%3Aasc&page=2`);
    expect(r.body.links.prev).toBeNull();
    const next = await call('/products', { paginate: 2, sort: 'price:asc', page: 2 });
    expect(titles(next.body.data)).toEqual(['Trail Jacket']);
    // A name sorted by again changes nothing (and costs nothing: each repeat was one more comparison per pair).
    const repeated = await call('/products', { paginate: 2, sort: ['price:asc', ...Array(500).fill('price:desc')].join(',') });
    expect(repeated.status, JSON.stringify(repeated.body)).toBe(200);
    expect(titles(repeated.body.data)).toEqual(['Alpha Shirt', 'Summit Pack']);
    expect(repeated.warning).toContain("sort names 'price' more than once");
    const past = await call('/products', { paginate: 2, page: 9 });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ current_page: 9, from: null, to: null });
  });

  it('count, first, limit/offset, exclude, timestamps by presence', async () => {
    expect((await call('/products', { count: true, limit: 1 })).body).toEqual({ count: 3 });
    expect((await call('/products', { first: '' })).body.fields.title).toBe('Summit Pack');
    expect(titles((await call('/products', { limit: 1, offset: 1 })).body)).toEqual(['Trail Jacket']);
    const ex = await call('/products', { exclude: 'related,size' });
    expect(ex.body[2].fields.related).toBeUndefined();
    expect(ex.body[2].fields.variants).toEqual([{ sku: 'AS-S' }, { sku: 'AS-M' }]);
    const ts = await call('/products', { timestamps: false });
    expect(Object.keys(ts.body[0])).toEqual(['uuid', 'locale', 'published_at', 'fields', 'created_at', 'updated_at']);
  });

  it('where: operators, numbers compared numerically, like case-blind substring, or groups', async () => {
    expect(titles((await call('/products', { where: { price: { gt: 79 } } })).body)).toEqual(['Summit Pack', 'Trail Jacket']);
    expect(titles((await call('/products', { where: { title: { like: 'shirt' } } })).body)).toEqual(['Alpha Shirt']);
    expect(titles((await call('/products', { where: { tags: 'winter' } })).body)).toEqual(['Trail Jacket']);
    expect(titles((await call('/products', { where: { in_stock: 'false' } })).body)).toEqual(['Trail Jacket']);
    expect(titles((await call('/products', { where: { price: { between: '30,120' } } })).body)).toEqual(['Summit Pack', 'Trail Jacket']);
    const or = await call('/products', { where: { or: { 0: { title: { like: 'shirt' } }, 1: { title: { like: 'jacket' } } } } });
    expect(titles(or.body)).toEqual(['Trail Jacket', 'Alpha Shirt']);
    expect(titles((await call('/products', { where: { related: { title: 'Trail Jacket' } } })).body)).toEqual(['Alpha Shirt']);
  });

  it('like on an enumeration matches whole values only, and says so (found from outside: silent)', async () => {
    const part = await call('/products', { where: { tags: { like: 'sum' } } });
    expect(part.body).toEqual([]);
    expect(part.warning).toContain("enumeration field 'tags' as a JSON list, which 'like' matches by whole values only");
    expect(titles((await call('/products', { where: { tags: { like: 'summer' } } })).body)).toEqual(['Alpha Shirt']);
  });

  it("a group's child is filtered by its own name, as v3 matches value rows by name (found from outside: no entry matched)", async () => {
    // ContentController: whereHas('fieldValues', field name = sku); a child's rows carry the entry's id.
    const sku = await call('/products', { where: { sku: 'AS-M' } });
    expect(titles(sku.body)).toEqual(['Alpha Shirt']);
    expect(sku.warning).toBeUndefined(); // what v3 does, and what a reader expects: no quirk to name
    expect(titles((await call('/products', { where: { size: { in: 'M,XL' } } })).body)).toEqual(['Alpha Shirt']);
    expect(titles((await call('/products', { where: { sku: { like: 'as-' } } })).body)).toEqual(['Alpha Shirt']);
    expect(titles((await call('/products', { where: { sku: { not: 'AS-S' } } })).body)).toEqual(['Summit Pack', 'Trail Jacket']);
    expect((await call('/products', { where: { sku: 'AS-X' } })).body).toEqual([]);
    // The group's name with a child key is a relation filter in v3 (nothing): the warning names the form that works.
    const nested = await call('/products', { where: { variants: { sku: 'AS-M' } } });
    expect(nested.body).toEqual([]);
    expect(nested.warning).toContain("a group's child is filtered by its own name: where[sku]=value");
  });

  it('the SDK array forms collapse as PHP collapses them, with a warning naming the fix', async () => {
    const r = await call('/products', { where: { price: { between: [30, 120] } } });
    // One bound left: v3 only checks that price has a value.
    expect(titles(r.body)).toEqual(['Summit Pack', 'Trail Jacket', 'Alpha Shirt']);
    expect(r.warning).toContain("where[price][between] was sent 2 times; PHP keeps only '120': send '30,120'");
    const or = await call('/products', { where: { or: [{ title: { like: 'shirt' } }, { title: { like: 'jacket' } }] } });
    expect(titles(or.body)).toEqual(['Trail Jacket']);
  });

  it('silent quirks answered as v3 does, each with X-Cqa-Warning', async () => {
    const unknown = await call('/products', { where: { colour: 'red' } });
    expect(unknown.body).toEqual([]);
    expect(unknown.warning).toContain("no field 'colour'");
    expect(unknown.warning).not.toContain('did you mean');
    // A name one typo away: the did-you-mean of cqa's own 400s, in the warning (where and sort).
    expect((await call('/products', { where: { prise: 30 } })).warning).toContain("ElmapiCMS matches no entry; did you mean 'price'?");
    expect((await call('/products', { sort: 'published_on:desc' })).warning).toContain(
      "no field 'published_on' in collection 'products': ElmapiCMS ignores it; did you mean 'published_at'?",
    );
    // A first key that is no operator makes a relation filter (matches nothing); a later one is eq.
    const first = await call('/products', { where: { price: { gtt: 25 } } });
    expect(first.body).toEqual([]);
    expect(first.warning).toContain("'gtt' is not an operator");
    const op = await call('/products', { where: { price: { gt: 20, gtt: 25 } } });
    expect(titles(op.body)).toEqual(['Alpha Shirt']);
    expect(op.warning).toContain("unknown operator 'gtt'");
    const inNumber = await call('/products', { where: { price: { in: '25,120' } } });
    expect(inNumber.body).toEqual([]);
    expect(inNumber.warning).toContain("'in' on text only");
    // Found from outside: the hint named where[uuid] for where[related]=<uuid>.
    for (const [where, fix] of [
      [{ related: ALPHA }, 'where[related][uuid]=<uuid>'],
      [{ related: { in: ALPHA } }, 'where[related][uuid][in]=<uuid>'],
      [{ or: [{ related: ALPHA }] }, 'where[or][related][uuid]=<uuid>'], // the SDK sends no indices
    ] as const) {
      const relation = await call('/products', { where });
      expect(relation.body, JSON.stringify(where)).toEqual([]);
      expect(relation.warning, JSON.stringify(where)).toContain(
        `against stored integer ids, never a uuid: no entry matches; filter on the related entry instead: ${fix}`,
      );
    }
    const sort = await call('/products', { sort: 'price:desc' });
    expect(titles(sort.body)).toEqual(['Alpha Shirt', 'Trail Jacket', 'Summit Pack']);
    expect(sort.warning).toContain('add paginate=N');
    expect((await call('/products')).warning).toBeUndefined();
  });

  it("what v3 reads otherwise than the SDK's typed values suggest is said in a warning", async () => {
    const published = titles((await call('/products')).body);
    for (const state of ['with_draft', 'only_draft']) {
      const r = await call('/products', { state });
      expect(titles(r.body), state).toEqual(published);
      expect(r.warning, state).toContain(`state=${state}: ElmapiCMS knows only state=draft`);
    }
    const stamped = await call('/products', { timestamps: false });
    expect(Object.keys(stamped.body[0])).toContain('created_at');
    expect(stamped.warning).toContain('timestamps=false turns timestamps on');
    const locale = await call('/products', { locale: 'xx' });
    expect(locale.body).toEqual([]);
    expect(locale.warning).toContain("locale 'xx' is none of this project's (en, fr)");
    expect((await call('/products', { fields: 'title' })).warning).toContain('ElmapiCMS has no fields parameter');
    expect((await call(`/products/${ALPHA}`, { with: 'related' })).warning).toContain('reads with only on /api');
    for (const fine of [{ state: 'published' }, { timestamps: true }, { locale: 'fr' }])
      expect((await call('/products', fine)).warning, JSON.stringify(fine)).toBeUndefined();
  });

  it('the quirks v3 applies silently to flags, limits, state, timestamps and unknown parameters are said (found from outside)', async () => {
    const all = titles((await call('/products')).body);
    const one = await call('/products', { first: false });
    expect(one.body.fields.title).toBe(all[0]);
    expect(one.warning).toContain('first=false turns first on');
    expect((await call('/products', { count: 0 })).warning).toContain('count=0 turns count on');
    for (const limit of ['0', '-5', 'abc']) {
      const r = await call('/products', { limit });
      expect(titles(r.body), limit).toEqual(all);
      expect(r.warning, limit).toContain(`limit=${limit} is not a positive number: ElmapiCMS ignores it`);
    }
    const zero = await call('/products', { paginate: 0 });
    expect(titles(zero.body)).toEqual(all);
    expect(zero.warning).toContain('paginate=0 is not a positive number: ElmapiCMS does not paginate');
    const negative = await call('/products', { paginate: -1 });
    expect(titles(negative.body)).toEqual(all);
    expect(negative.warning).toContain('paginate=-1 is below 1: ElmapiCMS pages with it in a way this mock does not copy');
    const below = await call('/products', { limit: 2, offset: -1 });
    expect(titles(below.body)).toEqual(all.slice(0, 2));
    expect(below.warning).toContain('offset=-1 is below 0');
    const state = await call('/products', { where: { state: 'draft' } });
    expect(state.body).toEqual([]);
    expect(state.warning).toContain('where[state]=draft is ANDed with the state parameter (absent: published only)');
    // How the SDK sends a Date: ISO, compared as text with 'YYYY-MM-DD HH:MM:SS' (a space sorts before 'T').
    const iso = await call('/products', { where: { published_at: { gte: new Date('2026-03-01T00:00:00Z') } } });
    expect(titles(iso.body)).not.toContain('Alpha Shirt'); // published 2026-03-01 09:00:00
    expect(iso.warning).toContain("send '2026-03-01 00:00:00' (the same time in UTC)");
    const day = await call('/products', { where: { published_at: '2026-03-01' } });
    expect(day.body).toEqual([]);
    expect(day.warning).toContain('for that day send where[published_at][gte]=2026-03-01&where[published_at][lt]=2026-03-02');
    // Round two (found from outside): an offset in UTC, 'not' a day, the comma list, no such date, a day as the upper bound.
    expect((await call('/products', { where: { published_at: { gt: '2026-03-15T01:00:00+02:00' } } })).warning).toContain(
      "send '2026-03-14 23:00:00' (the same time in UTC)",
    );
    expect((await call('/products', { where: { published_at: { not: '2026-03-01' } } })).warning).toContain(
      'to leave that day out, send where[or][0][published_at][lt]=2026-03-01&where[or][1][published_at][gte]=2026-03-02',
    );
    // Inside a where[or] or a numeric group the pair must be written otherwise (v3 nests no where[or]).
    expect(
      (await call('/products', { where: { or: { 0: { published_at: { not: '2026-03-01' } }, 1: { title: 'Beta' } } } })).warning,
    ).toContain(
      'replace it in this where[or] with where[or][<an index>][published_at][lt]=2026-03-01&where[or][<another index>][published_at][gte]=2026-03-02',
    );
    // A numeric group holding a where[or]: ContentController@index reads `or` there as a field name
    // (a relation filter that matches nothing), so no pair can be offered inside it. (This case
    // once asserted the pair where[0][or][<an index>]…; the upstream code shows that form never works.)
    const nestedOr = await call('/products', { where: { 0: { or: { 0: { published_at: { not: '2026-03-01' } } } } } });
    expect(nestedOr.body).toEqual([]);
    expect(nestedOr.warning).toContain('ElmapiCMS reads where[or] and numeric groups only at the top of where');
    expect((await call('/products', { where: { 0: { published_at: { not: '2026-03-01' } } } })).warning).toContain(
      'send where[or][0][published_at][lt]=2026-03-01&where[or][1][published_at][gte]=2026-03-02',
    );
    expect((await call('/products', { where: { published_at: { in: '2026-03-01,2026-03-02' } } })).warning).toContain(
      "the day '2026-03-02' alone matches no entry",
    );
    expect((await call('/products', { where: { published_at: '2026-02-30' } })).warning).toContain("'2026-02-30' is no date");
    expect((await call('/products', { where: { published_at: { lte: '2026-03-01' } } })).warning).toContain(
      'send where[published_at][lt]=2026-03-02',
    );
    expect((await call('/products', { where: { published_at: { between: '2026-02-01,2026-03-01' } } })).warning).toContain(
      'send 2026-03-01 23:59:59 as the upper bound',
    );
    expect((await call('/products', { offset: 0 })).warning).toBeUndefined(); // the SDK's offset 0, limit undefined
    const unknown = await call('/products', { select: 'title', _: '1700000000' });
    expect(titles(unknown.body)).toEqual(all);
    expect(unknown.warning).toContain("ElmapiCMS has no parameter 'select' here and ignores it");
    expect(unknown.warning).not.toContain("'_'"); // a cache-buster
    // A header value is ASCII: the warnings' own dash is spelled '-', not escaped (found from outside: \u2014).
    expect((await call('/products', { state: 'only_draft' })).warning).toContain('published entries only - there is no mode with both');
    expect((await call(`/products/${ALPHA}`, { populate: '*' })).warning).toContain(
      "no parameter 'populate' here and ignores it; it reads state, locale, translation_locale, exclude, timestamps",
    );
  });

  it('a list where v3 reads one value is said, never silently ignored (found from outside)', async () => {
    // The header spells … as ... (headerText: a header value is ASCII).
    const raw = async (query: string) => {
      const res = await fetch(`${server.url}/api/products?${query}`, {
        headers: { 'project-id': SHOP, authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
      });
      return { status: res.status, body: (await res.json()) as any, warning: res.headers.get('x-cqa-warning') ?? '' };
    };
    // On a field v3 puts the list in "%$v%" (Array to string conversion): a 500, a 422 here.
    const like = await raw('where[title][like][a]=x');
    expect(like.status).toBe(422);
    expect(like.warning).toBe(
      "where[title][like] is a list (where[title][like][...]=...) where ElmapiCMS compares one value: ElmapiCMS puts it in '%...%' (Array to string conversion), a 500 in ElmapiCMS; send where[title][like]=value",
    );
    const scalars = await raw('limit[]=1&paginate[]=3&locale[]=en&count');
    for (const name of ['limit', 'paginate', 'locale'])
      expect(scalars.warning).toContain(
        `${name} is a list (${name}[...]=...) where ElmapiCMS reads one value: it is ignored here; send ${name}=...`,
      );
    // A repeated state is not told to use state[] (a 422): one value only.
    const repeated = await raw('state=draft&state=published');
    expect(repeated.warning).toContain(
      "state was sent 2 times; PHP keeps only 'published': send 'draft,published' (one comma-separated value)",
    );
    expect(repeated.warning).not.toContain('state[]');
    // Lists where v3 takes them stay quiet.
    expect((await raw('where[title][in][]=a&where[title][in][]=b')).warning).toBe('');
    // A public project ignores a token that is not its own, as v3 does, and says so.
    const foreign = await fetch(`${server.url}/api/products?count`, {
      headers: { 'project-id': '22222222-2222-4333-8444-555555555555', authorization: 'Bearer nonsense', accept: 'application/json' },
    });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('x-cqa-warning')).toMatch(/^the token is none of this project .*ElmapiCMS ignores it on a public project/);
  });

  it('strict: true turns the warnings into 422 in Laravel validation shape', async () => {
    const r = await call('/products', { where: { colour: 'red' } }, '11111111-2222-4333-8444-555555555555');
    expect(r.status).toBe(422);
    expect(Object.keys(r.body)).toEqual(['message', 'errors']);
    expect(r.body.errors['where[colour]'][0]).toContain("no field 'colour'");
    expect((await call('/products', {}, '11111111-2222-4333-8444-555555555555')).status).toBe(200);
    const low = await call('/products', { paginate: '1', page: '0' }, '11111111-2222-4333-8444-555555555555');
    expect(low.status).toBe(422);
    expect(low.body.errors.page[0]).toContain('page=0 is below 1');
    const many = await call('/files', { paginate: '1000' }, '11111111-2222-4333-8444-555555555555');
    expect(many.status).toBe(422);
    expect(many.body.errors.paginate[0]).toContain('paginate=1000 is read as 100');
  });

  it('project, collection and file routes say each parameter they ignore; strict makes it a 422 (found by fuzzing)', async () => {
    const STRICT = '11111111-2222-4333-8444-555555555555';
    const cases: [string, Params, string, string][] = [
      ['/', { limit: '1' }, 'limit', "ElmapiCMS has no parameter 'limit' on /api and ignores it; it reads with"],
      ['/', { with: 'collections,authors' }, 'with', "loads only collections and fields (with=collections,fields); 'authors' adds nothing"],
      ['/collections', { limit: '1' }, 'limit', "no parameter 'limit' on /api/collections and ignores it; it reads none"],
      ['/collections/products', { where: { x: '1' } }, 'where', "no parameter 'where' on /api/collections/<slug>"],
      [
        '/files',
        { where: { x: '1' } },
        'where',
        "no parameter 'where' on /api/files and ignores it; it reads paginate, page, search, type",
      ],
      ['/files', { sort: 'filename' }, 'sort', "no parameter 'sort' on /api/files"],
      ['/files', { limit: { 0: '1' } }, 'limit', "no parameter 'limit' on /api/files"],
      ['/files', { type: 'images' }, 'type', 'type=images is none of image, video, audio, document: ElmapiCMS lists every file'],
      ['/files', { search: { 0: 'shirt' } }, 'search', 'search is a list (search[…]=…) where ElmapiCMS reads one value'],
      ['/files/0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90', { fields: 'url' }, 'fields', "no parameter 'fields' on /api/files/<id>"],
      ['/files/name/shirt.png', { limit: '1' }, 'limit', "no parameter 'limit' on /api/files/name/<filename>"],
      [`/products/${ALPHA}/versions`, { limit: '1' }, 'limit', "no parameter 'limit' on /api/<slug>/<uuid>/versions"],
    ];
    for (const [path, params, param, text] of cases) {
      const r = await call(path, params);
      expect(r.status, path).toBe(200);
      expect(r.warning, `${path} ${JSON.stringify(params)}`).toContain(text.replace(/…/g, '...'));
      const refused = await call(path, params, STRICT);
      expect(refused.status, `${path} strict`).toBe(422);
      expect(refused.body.errors[param][0]).toContain(text);
    }
    // What each reads is still read without a word; a cache-buster (_t) is not said.
    for (const [path, params] of [
      ['/', { with: 'collections,fields', _t: '1' }],
      ['/files', { paginate: '10', page: '1', search: 'shirt', type: 'image' }],
      ['/collections', { _: '1' }],
    ] as const) {
      const r = await call(path, params);
      expect(r.status, path).toBe(200);
      expect(r.warning, path).toBeUndefined();
    }
  });

  it('strict: a parameter named as a property of Object.prototype is a 422 naming it, never a 500 (found by fuzzing)', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await call('/products', { [name]: '1' }, '11111111-2222-4333-8444-555555555555');
      expect(r.status, name).toBe(422);
      expect(r.body.errors[name][0], name).toContain(`ElmapiCMS has no parameter '${name}' here`);
    }
  });

  it('singleton: one bare entry in the default locale; locale=fr the translation', async () => {
    expect((await call('/settings')).body.fields.site_name).toBe('Alpine Outfitters');
    expect((await call('/settings', { locale: 'fr' })).body.fields.site_name).toBe('Alpine Équipement');
  });

  it('R5 entry, translation_locale, state=draft (drafts scope), 404 bodies', async () => {
    const pages = (await call('/pages', { locale: 'en' })).body;
    const about = pages[0].uuid;
    expect((await call(`/pages/${about}`)).body.fields.title).toBe('About us');
    expect((await call(`/pages/${about}`, { translation_locale: 'fr' })).body.fields.title).toBe('À propos');
    expect((await call(`/pages/${about}`, { translation_locale: 'de' })).body).toEqual({
      message: "Translation not found for locale 'de'.",
    });
    // ContentController@show filters the named entry by locale before it looks for the translation
    // (found from outside: cqa answered the translation).
    const both = await call(`/pages/${about}`, { locale: 'fr', translation_locale: 'fr' });
    expect(both.status).toBe(404);
    expect(both.body).toEqual({ message: 'Content not found.' });
    expect(both.warning).toContain("locale=fr still restricts the entry named in the path (it is in 'en')");
    expect((await call(`/pages/${about}`, { locale: 'en', translation_locale: 'fr' })).body.fields.title).toBe('À propos');
    expect((await call(`/products/${ALPHA}`, { translation_locale: 'fr' })).body).toEqual({
      message: 'This entry has no translations linked.',
    });
    expect((await call('/products/00000000-0000-4000-8000-000000000000')).body).toEqual({ message: 'Content not found.' });
    expect((await call('/nope')).body).toEqual({ message: 'Collection not found.' });
    const drafts = await call('/products', { state: 'draft' });
    expect(titles(drafts.body)).toEqual(['Glacier Boots']);
    expect(drafts.body[0].fields.price).toBe('210.000000');
    expect((await call('/products', { state: 'draft' }, '22222222-2222-4333-8444-555555555555', '')).status).toBe(403);
  });

  it('files: paginated (25), by uuid, by name; 404 {"error":"Asset not found"}', async () => {
    const r = await call('/files');
    expect(r.body.meta).toMatchObject({ per_page: 25, total: 1 });
    expect(r.body.data[0].filename).toBe('shirt.png');
    expect((await call('/files/0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90')).body.filename).toBe('shirt.png');
    expect((await call('/files/name/shirt.png')).body.uuid).toBe('0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90');
    expect((await call('/files/name/nope.png')).body).toEqual({ error: 'Asset not found' });
  });

  it('files: type= names a kind; a name of Object.prototype is no kind, never a 500 (found by fuzzing)', async () => {
    expect((await call('/files', { type: 'image' })).body.meta.total).toBe(1);
    expect((await call('/files', { type: 'video' })).body.meta.total).toBe(0);
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await call('/files', { type });
      expect(r.status, type).toBe(200);
      expect(r.body.meta.total, type).toBe(1);
    }
  });

  it('auth and project errors (§6, §7)', async () => {
    expect(await call('/products', {}, '', TOKEN)).toMatchObject({ status: 400, body: { message: 'Project header missing.' } });
    expect(await call('/products', {}, '00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { message: 'Project not found.' },
    });
    expect(await call('/products', {}, SHOP, '')).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    expect(await call('/products', {}, SHOP, 'travel-token')).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    expect(await call('/products', {}, SHOP, 'uak_x')).toMatchObject({ status: 401 });
    const pub = '22222222-2222-4333-8444-555555555555';
    expect((await call('/products', {}, pub, '')).status).toBe(200);
    expect(await call('/files', {}, pub, '')).toMatchObject({
      status: 403,
      body: { message: "API token doesn't have the right abilities!" },
    });
    expect(await call(`/products/${ALPHA}/versions`, {}, pub, '')).toMatchObject({ status: 403 });
    expect((await call(`/products/${ALPHA}/versions`)).body[0]).toMatchObject({ version_number: 1, is_current_published: true });
    expect((await call(`/products/${ALPHA}/versions/2`)).body).toEqual({ message: 'Version not found.' });
  });

  it('a related draft is never named without the drafts scope (cqa promise; v3 would stub it)', async () => {
    const pub = '22222222-2222-4333-8444-555555555555';
    const drafts = (await call('/products', { state: 'draft' })).body;
    const boots = drafts[0].uuid;
    for (const [project, token] of [
      [pub, ''],
      [pub, TOKEN],
    ] as const) {
      const r = await call('/products', { timestamps: '' }, project, token);
      expect(r.text).not.toContain(boots);
      expect(r.body[0].fields.related).toEqual([]);
      expect((await call('/products', { where: { related: { title: 'Glacier Boots' } } }, project, token)).body).toEqual([]);
      expect((await call(`/products/${boots}/versions`, {}, project, TOKEN)).status).toBe(404);
      expect((await call(`/products/${boots}`, { translation_locale: 'fr' }, project, token)).body).toEqual({
        message: 'Content not found.',
      });
    }
  });

  it('answers fit the OpenAPI document of the project (its operation, by status)', async () => {
    const STRICT = '11111111-2222-4333-8444-555555555555';
    const docOf = (id: string) => JSON.parse(snapshot.openapiOf([id]));
    const fits = (doc: any, path: string, r: Got) => {
      let res = doc.paths[path].get.responses[String(r.status)];
      expect(res, `${path} ${r.status}`).toBeDefined();
      if (res.$ref)
        res = res.$ref
          .split('/')
          .slice(1)
          .reduce((o: any, k: string) => o[k], doc);
      expect(violations(r.body, res.content['application/json'].schema, doc), `${path} ${r.status}: ${r.text.slice(0, 200)}`).toEqual([]);
    };
    const doc = docOf(SHOP);
    expect(doc.paths['/api'].get.parameters[0]).toMatchObject({
      name: 'project-id',
      in: 'header',
      required: true,
      schema: { enum: [SHOP] },
    });
    const about = (await call('/pages', { locale: 'en' })).body[0].uuid;
    const cases: [string, string, Params?, string?, string?][] = [
      ['/api', '/'],
      ['/api', '/', { with: 'collections,fields' }],
      ['/api/collections', '/collections'],
      ['/api/collections/{slug}', '/collections/products'],
      ['/api/products', '/products'],
      ['/api/products', '/products', { timestamps: '', exclude: 'tags,size' }],
      ['/api/products', '/products', { paginate: 2, page: 2, sort: 'price:desc' }],
      ['/api/products', '/products', { count: '' }],
      ['/api/products', '/products', { first: '' }],
      ['/api/products', '/products', { state: 'draft' }],
      ['/api/products', '/products', { where: { colour: 'red' } }],
      ['/api/products/{uuid}', `/products/${ALPHA}`, { timestamps: '' }],
      ['/api/products/{uuid}', '/products/00000000-0000-4000-8000-000000000000'],
      ['/api/products', '/products', {}, '', ''],
      ['/api/products', '/products', {}, SHOP, ''],
      ['/api/products', '/products', { sort: { 0: 'price' } }],
      ['/api/settings', '/settings'],
      ['/api/pages/{uuid}', `/pages/${about}`, { translation_locale: 'fr' }],
      ['/api/pages/{uuid}', `/pages/${about}`, { translation_locale: 'de' }],
      ['/api/products/{uuid}/versions', `/products/${ALPHA}/versions`],
      ['/api/products/{uuid}/versions/{version}', `/products/${ALPHA}/versions/1`],
      ['/api/files', '/files', { paginate: 1 }],
      ['/api/files/{identifier}', '/files/0d4c3e55-8f0a-4f7e-b2a1-5c9d6e7f8a90'],
      ['/api/files/name/{filename}', '/files/name/shirt.png'],
      ['/api/files/name/{filename}', '/files/name/nope.png'],
    ];
    const statuses = new Set<number>();
    for (const [op, path, params = {}, project = SHOP, token = TOKEN] of cases) {
      const r = await call(path, params, project, token);
      statuses.add(r.status);
      fits(doc, op, r);
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 422]);
    // exclude= may drop a required field: fewer keys than the schema requires (as documented there).
    const narrowed = (await call('/products', { exclude: 'title' })).body;
    expect(violations(narrowed, doc.paths['/api/products'].get.responses['200'].content['application/json'].schema, doc)).not.toEqual([]);
    const strictDoc = docOf(STRICT);
    const refused = await call('/products', { where: { colour: 'red' } }, STRICT);
    expect(refused.status).toBe(422);
    fits(strictDoc, '/api/products', refused);
    // An array where v3 reads one string crashes v3 (a 500); here a 422 naming the fix, strict or not.
    const array = await call('/products', { sort: { 0: 'price' } });
    expect(array.status).toBe(422);
    expect(array.body.errors.sort[0]).toContain('sort must be one string');
    expect((await call('/products', { state: { 0: 'draft' } })).body.errors.state[0]).toContain('state must be one string: state=draft');
    expect((await call('/products', { sort: { 0: 'price' } }, STRICT)).status).toBe(422);
    expect((await call('/', { with: { 0: 'fields' } }, STRICT)).body.errors.with[0]).toContain('with=collections,fields');
  });

  it('other dialects are routed as before in the same server', async () => {
    const res = await fetch(`${server.url}/api/demo`, { headers: { accept: 'application/json', authorization: 'Bearer demo-token' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.id).toBe('demo');
    // A path that is nobody's names both shapes (found from outside: only /api/<project_id> was said, in a tree with v3 projects).
    const lost = await fetch(`${server.url}/nope`, { headers: { accept: 'application/json' } });
    expect(lost.status).toBe(404);
    expect(((await lost.json()) as any).detail).toBe(
      "nothing at '/nope'; API paths start with /api/<project_id> (an elmapi3 project's: /api, with the header project-id: <project uuid>)",
    );
  });
});

describe('elmapi3 writes: the mock is read-only', () => {
  /** A write as the SDK's createEntry/updateEntry/deleteEntry sends it: JSON body, project-id, Bearer. */
  async function write(via: 'server' | 'edge', method: string, path: string, token = TOKEN, project = SHOP): Promise<Got> {
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', 'project-id': project };
    if (token) headers.authorization = `Bearer ${token}`;
    const init = { method, headers, body: JSON.stringify({ fields: { title: 'New' } }) };
    const res =
      via === 'server' ? await fetch(`${server.url}/api${path}`, init) : await edge(new Request(`${server.url}/api${path}`, init));
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text), text, warning: res.headers.get('x-cqa-warning') ?? undefined };
  }

  it.each(['server', 'edge'] as const)(
    "%s: v3's write routes answer 403 Forbidden as to a read-only token, saying why; other methods stay 405",
    async (via) => {
      for (const [method, path, ability] of [
        ['POST', '/products', 'create'],
        ['PUT', `/products/${ALPHA}`, 'update'],
        ['PATCH', `/products/${ALPHA}`, 'update'],
        ['POST', `/products/${ALPHA}/publish`, 'update'],
        ['DELETE', `/products/${ALPHA}`, 'delete'],
        ['POST', '/files', 'create'],
        ['DELETE', '/files/1', 'delete'],
        ['POST', '/bulk/products/entries', 'create'],
        ['POST', '/collections', 'admin'],
        ['DELETE', '/collections/products', 'admin'],
      ]) {
        const r = await write(via, method as string, path as string);
        expect(r, `${method} ${path}`).toMatchObject({ status: 403, body: { message: 'Forbidden.' } });
        expect(r.warning, `${method} ${path}`).toContain(`read-only`);
        expect(r.warning, `${method} ${path}`).toContain(`'${ability}' ability`);
      }
      // Authentication first, as v3's middleware does: no token is a 401, a public project's anonymous write a 403.
      expect(await write(via, 'POST', '/products', '')).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
      expect(await write(via, 'POST', '/products', '', '22222222-2222-4333-8444-555555555555')).toMatchObject({ status: 403 });
      for (const [method, path] of [
        ['DELETE', ''],
        ['POST', `/products/${ALPHA}/extra`],
        ['PUT', '/products'],
      ]) {
        const r = await write(via, method as string, path as string);
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.body.message).toMatch(/method is not supported for route api.*Supported methods: GET, HEAD\./);
      }
    },
  );
});

describe('warnings in the request journal; strict for every project', () => {
  it('server.requests() carries the X-Cqa-Warning texts of each answer (none: no key)', async () => {
    server.clearRequests();
    const warned = await sdk('/products', { where: { colour: 'red' }, sort: 'price:desc' });
    await sdk('/products');
    const [one, two] = server.requests();
    expect(one?.warnings).toEqual(warned.warning?.split(' | '));
    expect(one?.warnings).toEqual([expect.stringContaining("no field 'colour'"), expect.stringContaining('add paginate=N')]);
    expect(two?.warnings).toBeUndefined();
    expect(two && 'warnings' in two).toBe(false);
  });

  it('keeps the X-Cqa-Warning header under about 2 KB, a client fetch reads it, and the journal has every text whole', async () => {
    server.clearRequests();
    // Found from outside: 8 sort items of tabs (each escaped as \\u0009, the name quoted twice) made a 40 KB header, which Node's fetch refused.
    const tabs = (n: number) => '%09'.repeat(n);
    const sort = ['id', ...Array.from({ length: 8 }, (_, i) => `price${tabs(300 + i)}`)].join(',');
    const res = await fetch(`${server.url}/api/products?paginate=2&sort=${sort}`, {
      headers: { 'project-id': SHOP, authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    const header = res.headers.get('x-cqa-warning') ?? '';
    expect(header.length).toBeLessThanOrEqual(2048 + 60);
    expect(header).toMatch(/ \| \d+ more in the request journal and the log$/);
    const [record] = server.requests();
    expect(record?.warnings?.length).toBeGreaterThan(header.split(' | ').length - 1);
    expect(Math.max(...(record?.warnings ?? []).map((w) => w.length))).toBeGreaterThan(400);
  });

  it('keeps the values of secret-looking parameters out of the warnings it records (the answer still quotes them)', async () => {
    const logged: string[] = [];
    const s = await startServer({ snapshot, host: '127.0.0.1', port: 0, onRequest: (r) => logged.push(JSON.stringify(r)) });
    try {
      const res = await superagent
        .get(`${s.url}/api/products?count&api_token=S3CRET-A1&api_token=S3CRET-A2&where[secret]=S3CRET-W`)
        .set('project-id', SHOP)
        .set('Authorization', `Bearer ${TOKEN}`)
        .set('Accept', 'application/json')
        .ok(() => true);
      expect(res.headers['x-cqa-warning']).toContain("PHP keeps only 'S3CRET-A2'");
      for (let i = 0; i < 200 && logged.length < 1; i++) await new Promise((done) => setTimeout(done, 10));
      const [r] = s.requests();
      expect(r?.warnings).toEqual(expect.arrayContaining([expect.stringContaining("PHP keeps only '[redacted]'")]));
      expect(r?.response?.headers['x-cqa-warning']).toContain("PHP keeps only '[redacted]'");
      // Found from outside: a strict project's 422 body, a value the answer escapes (é as \u00e9)
      // and names like passcode or access_code kept them.
      const strict = await superagent
        .get(
          `${s.url}/api/products?count&api_token=S3CRET-s%C3%A9cret1&api_token=S3CRET-s%C3%A9cret2&passcode=S3CRET-P&passcode=S3CRET-P2&access_code=S3CRET-C&access_code=S3CRET-C2`,
        )
        .set('project-id', '11111111-2222-4333-8444-555555555555')
        .set('Authorization', `Bearer ${TOKEN}`)
        .set('Accept', 'application/json')
        .ok(() => true);
      expect(strict.status).toBe(422);
      expect(strict.text).toMatch(/S3CRET/); // the client that sent them is answered as v3 would
      // Found from outside again: a value with blanks around it (Laravel trims it), one with '…'
      // (a header spells it '...'), page links that carry the query, and more secret names.
      await superagent
        .get(
          `${s.url}/api/products?paginate=1&api_token=%20S3CRET-T1%20&api_token=S3CRET-E%E2%80%A6&passphrase=S3CRET-PP&passphrase=S3CRET-PQ&authcode=S3CRET-AC&authcode=S3CRET-AD`,
        )
        .set('project-id', SHOP)
        .set('Authorization', `Bearer ${TOKEN}`)
        .set('Accept', 'application/json')
        .ok(() => true);
      await superagent
        .get(`${s.url}/api/products?paginate=1&api_token=S3CRET-LINK`)
        .set('project-id', SHOP)
        .set('Authorization', `Bearer ${TOKEN}`)
        .set('Accept', 'application/json')
        .ok(() => true);
      for (let i = 0; i < 200 && logged.length < 4; i++) await new Promise((done) => setTimeout(done, 10));
      const all = JSON.stringify(s.requests()) + logged.join('\n');
      expect(all).not.toMatch(/S3CRET/);
    } finally {
      await s.close();
    }
  });

  it('startServer({ strict: true }) (cqa serve --strict) makes every elmapi3 project strict; other dialects unchanged', async () => {
    const strict = await startServer({ snapshot, host: '127.0.0.1', port: 0, strict: true });
    try {
      const r = await superagent
        .get(`${strict.url}/api/products`)
        .set('Accept', 'application/json')
        .set('project-id', SHOP)
        .set('Authorization', `Bearer ${TOKEN}`)
        .query({ where: { colour: 'red' } })
        .ok(() => true);
      expect(r.status).toBe(422);
      expect(r.body.errors['where[colour]'][0]).toContain("no field 'colour'");
      expect(strict.requests()[0]?.warnings?.[0]).toContain("no field 'colour'");
      const clean = await superagent
        .get(`${strict.url}/api/products`)
        .set('Accept', 'application/json')
        .set('project-id', SHOP)
        .set('Authorization', `Bearer ${TOKEN}`)
        .ok(() => true);
      expect(clean.status).toBe(200);
      const demo = await fetch(`${strict.url}/api/demo/posts?limit=1`, {
        headers: { accept: 'application/json', authorization: 'Bearer demo-token' },
      });
      expect(demo.status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('an edge handler made without the elmapi3 routes', () => {
  it('answers a v3 request 501 naming the option, and the other dialects as before', async () => {
    const plain = createHandler(snapshot);
    const v3 = await plain(
      new Request('http://x/api/products', {
        headers: { accept: 'application/json', 'project-id': SHOP, authorization: `Bearer ${TOKEN}` },
      }),
    );
    expect(v3.status).toBe(501);
    expect(((await v3.json()) as { message: string }).message).toContain('createHandler(snapshot, { elmapi3: elmapi3Routes })');
    const demo = await plain(
      new Request('http://x/api/demo', { headers: { accept: 'application/json', authorization: 'Bearer demo-token' } }),
    );
    expect(demo.status).toBe(200);
    // A path naming no project and no header: the 404 of the other dialects (no v3 routes here).
    expect((await plain(new Request('http://x/api/products', { headers: { accept: 'application/json' } }))).status).toBe(404);
  });

  it('a cqa typo without the header stays a 404 naming the project, with the v3 routes too', async () => {
    const res = await edge(
      new Request('http://x/api/dmeo/posts', { headers: { accept: 'application/json', authorization: 'Bearer demo-token' } }),
    );
    expect(res.status).toBe(404);
  });
});

const WEB = '22222222-3333-4444-8555-666666666666';

/** GET `/api<path>` with the project-id header from createHandler over a one-project elmapi3 tree of `files` (besides its project.yaml). */
async function v3Tree(files: Tree, id = WEB): Promise<(path: string) => Promise<Response>> {
  const { model, issues } = await loadContent(writeTree({ 'p/project.yaml': `id: ${id}\ndialect: elmapi3\npublic: true\n`, ...files }));
  expect(issues).toEqual([]);
  const handle = createHandler(createSnapshot(model), { elmapi3: elmapi3Routes });
  return (path) => handle(new Request(`http://x/api${path}`, { headers: { 'project-id': id, accept: 'application/json' } }));
}

/** Every one of `n` entries related to all the others (`i0` … `i<n-1>`), with `extra` lines each. */
function web(n: number, extra = ''): Tree {
  const tree: Tree = {
    'p/items/_collection.yaml': 'fields:\n  title: text\n  body: text\n  rel: { type: relation, collection: items, multiple: true }\n',
  };
  const all = Array.from({ length: n }, (_, j) => `i${j}`);
  for (let i = 0; i < n; i++) tree[`p/items/i${i}.yaml`] = `title: T${i}\n${extra}rel: [${all.filter((_, j) => j !== i).join(', ')}]\n`;
  return tree;
}

describe('elmapi3: a Markdown field', () => {
  it("shows as richtext whose output format is markdown, as the Markdown it answers (v3's richtext is HTML otherwise)", async () => {
    const get = await v3Tree({ 'p/posts/hello.md': '---\ntitle: Hello\n---\nBody *text*.\n' }, '33333333-2222-4333-8444-555555555555');
    const json = async (path: string) => (await get(path)).json() as any;
    const body = (await json('/collections/posts')).fields.find((f: any) => f.name === 'body');
    expect(body).toMatchObject({ type: 'richtext', options: { editor: { outputFormat: 'markdown' } } });
    expect((await json('/posts'))[0].fields.body).toBe('Body *text*.');
  });
});

describe('elmapi3: a web of relations', () => {
  it('embeds at most 8 Mi characters of values per answer, then stubs the rest with a warning (30 entries related to each other made 68 MB; long bodies a 500)', async () => {
    const res = await (await v3Tree(web(40, `body: ${'x'.repeat(20_000)}\n`)))('/items?paginate=1');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(text.length).toBeLessThan(10 * 1024 * 1024);
    expect(res.headers.get('x-cqa-warning')).toMatch(/reached cqa's bound on embedded entries .* the rest are stubs/);
    // Related entries first embed in full, then as stubs: fields [].
    const first = (JSON.parse(text) as any).data[0].fields.rel as any[];
    expect(first[0].fields.title).toMatch(/^T\d+$/);
    expect(JSON.stringify(first).includes('"fields":[]')).toBe(true);
  });

  it('stops at twice the bound: a media list of 60,000 references is cut, not 42 MB of assets (found from outside)', async () => {
    const get = await v3Tree({
      'p/media/a.png': png(1, 1),
      'p/items/_collection.yaml': 'fields:\n  title: text\n  pics: { type: media, multiple: true }\n',
      'p/items/x.yaml': `title: X\npics:\n${'  - a.png\n'.repeat(60_000)}`,
    });
    const res = await get('/items');
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBeLessThan(20 * 1024 * 1024);
    expect(res.headers.get('x-cqa-warning')).toMatch(/past twice that relations and media are left out/);
  });

  it('nests at most 100 levels: a chain of 3,000 entries each related to the next is a 200, not a 500 (found by fuzzing: the stack overflowed)', async () => {
    const tree: Tree = { 'p/items/_collection.yaml': 'fields:\n  title: text\n  next: { type: relation, collection: items }\n' };
    const n = 3000;
    const name = (i: number) => `i${String(i).padStart(4, '0')}`;
    // i0000 is the newest: the list's first entry, whose chain is the longest.
    for (let i = 0; i < n; i++)
      tree[`p/items/${name(i)}.yaml`] =
        `title: T${i}\n${i + 1 < n ? `next: ${name(i + 1)}\n` : ''}created_at: ${new Date(Date.UTC(2020, 0, 1) + (n - i) * 60_000).toISOString()}\n`;
    const res = await (await v3Tree(tree))('/items?paginate=1');
    expect(res.status).toBe(200);
    let e = ((await res.json()) as any).data[0];
    let depth = 0;
    while (e.fields.next) {
      e = e.fields.next;
      depth++;
    }
    expect(e.fields).toEqual([]); // the stub at the bound
    expect(depth).toBe(100);
    expect(res.headers.get('x-cqa-warning')).toMatch(/reached cqa's bound on embedded entries .*relations 100 levels deep/);
  }, 60_000);

  it('counts the stubs too: 250 small entries each related to all the others (found from outside: a 500 at 1.7 GB)', async () => {
    const res = await (await v3Tree(web(250)))('/items?paginate=1');
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBeLessThan(32 * 1024 * 1024);
    expect(res.headers.get('x-cqa-warning')).toMatch(/reached cqa's bound on embedded entries/);
  });
});

describe('elmapi3: a tree of elmapi3 projects only', () => {
  it('a path outside /api says where v3 paths are, not /api/<project_id>', async () => {
    const { model } = await loadContent(
      writeTree({ 'p/project.yaml': `id: ${WEB}\ndialect: elmapi3\npublic: true\n`, 'p/posts/a.yaml': 'title: A\n' }),
    );
    const handle = createHandler(createSnapshot(model), { elmapi3: elmapi3Routes });
    for (const path of ['/apix', '/foo']) {
      const res = await handle(new Request(`http://x${path}`));
      expect(res.status, path).toBe(404);
      const { message } = (await res.json()) as { message: string };
      expect(message, path).toBe(
        `nothing at '${path}'; API paths start with /api, with the header project-id: <project uuid> (docs/dialects.md)`,
      );
    }
  });
});
