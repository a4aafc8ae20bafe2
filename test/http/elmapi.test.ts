// The `elmapi` dialect end to end (docs/dialects.md, /work/shared/elmapi-dialect.md): the sample
// project content/travel answers every row of the original API's tables — routes, envelopes,
// entry and media objects, errors — and compares text as MySQL's utf8mb4_unicode_ci does, through
// startServer (what `cqa serve` runs) over a socket and through createHandler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/index.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { ProjectRecord } from '../../src/core/model/model.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { fetchClient, sha, socketClient, type Client } from './fixture.js';
import { violations } from './schema-check.js';

const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';
const HEADERS = { accept: 'application/json', authorization: 'Bearer travel-token' };
const NO_READ = 'travel-no-read';

let server: RunningServer;
let snapshot: Snapshot;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  const { model, issues } = await loadContent('content');
  expect(issues).toEqual([]);
  // Only the elmapi project (so an unknown project is answered in its dialect too), plus a token
  // without the read scope.
  const travel = model.projects.find((p) => p.id === TRAVEL) as ProjectRecord;
  const project: ProjectRecord = { ...travel, tokens: [...travel.tokens, { name: 'no-read', sha256: sha(NO_READ), scopes: [] }] };
  snapshot = createSnapshot({ projects: [project] });
  server = await startServer({ snapshot });
  clients.socket = socketClient(server.url);
  clients.fetch = fetchClient(createHandler(snapshot));
});
afterAll(() => server?.close());

const api = (path: string) => `/api/${TRAVEL}${path}`;

describe.each(['socket', 'fetch'])('elmapi dialect (%s)', (name) => {
  const get = async (path: string, headers: Record<string, string> = HEADERS) => {
    const r = await (clients[name] as Client)({ path: api(path), headers });
    return {
      status: r.status,
      type: r.headers['content-type'],
      json: r.text === '' ? undefined : (JSON.parse(r.text) as unknown),
      text: r.text,
    };
  };
  const ids = async (path: string) => ((await get(path)).json as { id: number }[]).map((e) => e.id);

  describe('routes and envelopes', () => {
    it('project: {uuid, name, description} and nothing else', async () => {
      const r = await get('');
      expect(r.status).toBe(200);
      expect(r.type).toBe('application/json; charset=utf-8');
      expect(r.text).toBe(
        `{"uuid":"${TRAVEL}","name":"Wanderlust Travel Notes","description":"Sample content in the elmapi dialect: bilingual travel articles and their authors."}`,
      );
    });

    it('a list is a bare array, [] when nothing matches; published entries in id order', async () => {
      expect(await ids('/articles')).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await get('/articles?where[price][gt]=100')).text).toBe('[]');
    });

    it('?first is a bare entry; first=0 is still on; no match is 404 Not found!', async () => {
      expect((await get('/articles?first')).json).toMatchObject({ id: 1 });
      expect((await get('/articles?first=0')).json).toMatchObject({ id: 1 });
      const none = await get('/articles?first&where[price][gt]=100');
      expect([none.status, none.json]).toEqual([404, { error: 'Not found!' }]);
    });

    it('?count is a bare number (count=0 too), sent as application/json', async () => {
      const r = await get('/articles?count');
      expect([r.status, r.text, r.type]).toEqual([200, '6', 'application/json; charset=utf-8']);
      expect((await get('/articles?count=0&where[locale]=de')).text).toBe('2');
    });

    it('one entry is a bare object; drafts are not there', async () => {
      expect((await get('/articles/3')).json).toMatchObject({ id: 3, title: 'Café culture in Berlin' });
      expect((await get('/articles/7')).json).toEqual({ error: 'Not found!' });
    });

    it('project-media: a bare array in id order; by id; by file name', async () => {
      const list = (await get('/project-media')).json as { id: number; file_name: string }[];
      expect(list.map((m) => m.file_name)).toEqual(['alps.png', 'berlin-skyline.jpg', 'guide.txt', 'leipzig.jpg']);
      expect(list.map((m) => m.id).slice(0, 3)).toEqual([1, 2, 3]);
      expect(list[3]!.id).toBeGreaterThanOrEqual(1_000_000); // derived from the path: no id: in _media.yaml
      expect((await get('/project-media/2')).json).toMatchObject({ id: 2, file_name: 'berlin-skyline.jpg' });
      expect((await get('/project-media/name/guide.txt')).json).toMatchObject({ id: 3, file_name: 'guide.txt' });
      expect((await get(`/project-media/${list[3]!.id}`)).json).toMatchObject({ file_name: 'leipzig.jpg' });
    });

    it('write methods are not there: 405 in the dialect shape', async () => {
      const r = await (clients[name] as Client)({ method: 'POST', path: api('/articles'), headers: HEADERS });
      expect(r.status).toBe(405);
      expect(JSON.parse(r.text)).toMatchObject({ code: 'method_not_allowed' });
    });
  });

  describe('entry object', () => {
    it('key order id, locale, timestamps (with ?timestamps, YYYY-MM-DD HH:MM:SS), then fields; typed values', async () => {
      const r = await get('/articles/1?timestamps');
      const e = r.json as Record<string, unknown>;
      expect(Object.keys(e)).toEqual([
        'id',
        'locale',
        'created_at',
        'updated_at',
        'published_at',
        'title',
        'slug',
        'tags',
        'price',
        'featured',
        'cover',
        'gallery',
        'author',
        'co_authors',
        'meta',
        'body',
      ]);
      expect(e).toMatchObject({
        id: 1,
        locale: 'en',
        created_at: '2022-03-01 09:00:00',
        updated_at: '2022-03-02 10:00:00',
        published_at: '2022-03-04 07:30:00',
        tags: 'mountains,hiking', // several enumeration values: one string
        price: 0,
        featured: true,
        meta: '{"difficulty":"hard","days":6}', // a json field: its JSON text
      });
      expect(r.text).toContain('"price":0,');
    });

    it('without ?timestamps there are none; absent and hidden fields are absent, not null', async () => {
      const e = (await get('/articles/6')).json as Record<string, unknown>;
      expect(Object.keys(e)).toEqual(['id', 'locale', 'title', 'slug', 'tags', 'featured', 'body']);
      expect(JSON.stringify(e)).not.toContain('internal_note');
    });

    it('relations embed the published related entries, which carry timestamps when asked; deeper relations stay ids', async () => {
      const plain = (await get('/articles/3')).json as Record<string, any>;
      expect(plain.author).toEqual({
        id: 2,
        locale: 'en',
        name: 'Jörg Müller',
        email: 'joerg@example.com',
        bio: 'Coffee, trains and cities.',
      });
      expect(plain.co_authors.map((a: { id: number }) => a.id)).toEqual([1]); // 3 is a draft
      expect(plain.co_authors[0].favourite).toBe(1);
      const stamped = (await get('/articles/3?timestamps')).json as Record<string, any>;
      expect(Object.keys(stamped.author).slice(0, 4)).toEqual(['id', 'locale', 'created_at', 'updated_at']);
      expect(stamped.author.updated_at).toBe('2022-02-01 09:30:00');
      expect(stamped.author).not.toHaveProperty('published_at', null);
    });

    it('media fields embed media objects: key order, thumb and size only for images', async () => {
      const e = (await get('/articles/1')).json as Record<string, any>;
      expect(Object.keys(e.cover)).toEqual(['id', 'file_name', 'full_url', 'thumb', 'caption', 'size', 'width', 'height']);
      expect(e.cover).toMatchObject({
        id: 1,
        file_name: 'alps.png',
        caption: 'Morning above the Alpine huts',
        size: 5068,
        width: 640,
        height: 360,
      });
      expect(e.cover.full_url).toBe(`/media/${TRAVEL}/alps.png`);
      expect(e.gallery.map((m: { file_name: string }) => m.file_name)).toEqual(['alps.png', 'leipzig.jpg']);
      const txt = (await get('/project-media/3')).json as Record<string, unknown>;
      expect(Object.keys(txt)).toEqual(['id', 'file_name', 'full_url', 'caption', 'size']);
    });
  });

  describe('errors', () => {
    const rows: [string, string, number, unknown][] = [
      ['unknown collection', '/nope', 404, { error: 'Collection not found!' }],
      ['unknown entry', '/articles/99', 404, { error: 'Not found!' }],
      ['first with no match', '/articles?first&where[title]=zzz', 404, { error: 'Not found!' }],
      ['unknown media item', '/project-media/99', 404, { error: 'File not found!' }],
      ['unknown media name', '/project-media/name/nope.png', 404, { error: 'File not found!' }],
      ['where not an array', '/articles?where=x', 422, { error: 'Incorrect where statement. See documentation: #where-clauses' }],
      ['between without two values', '/articles?where[price][between]=1', 422, { error: 'Incorrect where statement' }],
      ['plain where on an unknown field', '/articles?where[nope]=1', 422, { error: 'Field not found [nope]' }],
      ['other where forms on an unknown field', '/articles?where[nope][like]=1', 422, { error: 'Field not found [nope]' }],
      [
        'whereRelation not an array',
        '/articles?whereRelation=x',
        422,
        { error: 'Incorrect whereRelation statement. See documentation: #where-through-relation' },
      ],
      ['whereRelation on an unknown field', '/articles?whereRelation[nope][name]=x', 422, { error: 'Field not found [nope]' }],
      [
        'whereRelation on a field that is no relation',
        '/articles?whereRelation[title][name]=x',
        422,
        { error: 'This field is not a relation type field.' },
      ],
      [
        'whereRelation on an unknown field of the related collection',
        '/articles?whereRelation[author][nope]=x',
        422,
        { error: 'Relation field not found [nope]' },
      ],
      ['whereRelation matching no related entry', '/articles?whereRelation[author][name]=zzz', 404, { error: 'Record not found!' }],
      ['sort item without a direction', '/articles?sort=price', 422, { error: 'Incorrect sort statement' }],
      ['sort item with two colons', '/articles?sort=price:asc:desc', 422, { error: 'Incorrect sort statement' }],
      [
        'sort item with a colon and no direction',
        '/articles?sort=price:',
        422,
        { error: "sort: direction '' in 'price:' must be asc or desc; write sort=price:asc or sort=price:desc", code: 'invalid_sort' },
      ],
      [
        'offset without limit',
        '/articles?offset=2',
        422,
        { error: 'Incorrect offset statement. Offset must be used with limit. Documentation: #limit' },
      ],
      // Our stricter checks: 422 in the dialect's shape, with our detail and code.
      [
        'unknown parameter',
        '/articles?nope=1',
        422,
        { error: expect.stringContaining("unknown parameter 'nope'"), code: 'unknown_parameter' },
      ],
      [
        'unknown operator',
        '/articles?where[price][foo]=1',
        422,
        { error: expect.stringContaining("unknown operator 'foo'"), code: 'unknown_operator' },
      ],
      ['wrong value type', '/articles?where[price]=cheap', 422, { error: expect.stringContaining("'cheap'"), code: 'invalid_value' }],
      ['first with count', '/articles?first&count', 422, { error: expect.any(String), code: 'conflicting_parameters' }],
      ['unknown state', '/articles?state=all', 422, { error: expect.any(String), code: 'invalid_state' }],
    ];
    it.each(rows)('%s', async (_what, path, status, body) => {
      const r = await get(path);
      expect(r.status, r.text).toBe(status);
      expect(r.type).toBe('application/json; charset=utf-8');
      expect(r.json).toEqual(body);
    });

    it('unknown project', async () => {
      const r = await (clients[name] as Client)({ path: '/api/0123456789abcdef0123456789abcdef/articles', headers: HEADERS });
      expect([r.status, JSON.parse(r.text)]).toEqual([404, { error: 'Project not found!' }]);
    });

    it('no or a wrong token: 401 {"message":"Unauthenticated."}', async () => {
      for (const headers of [{ accept: 'application/json' }, { ...HEADERS, authorization: 'Bearer wrong' }]) {
        const r = await get('/articles', headers);
        expect([r.status, r.text]).toEqual([401, '{"message":"Unauthenticated."}']);
      }
    });

    it("a token without the read ability: 404 with the original's message", async () => {
      const r = await get('/articles', { ...HEADERS, authorization: `Bearer ${NO_READ}` });
      expect([r.status, r.json]).toEqual([404, { error: "API token does'nt have the right permissions!" }]);
    });

    it('drafts need the drafts scope and are shown with it', async () => {
      expect(await ids('/articles?state=with_draft&sort=id:desc&limit=1')).toEqual([7]);
      expect(await ids('/articles?state=only_draft')).toEqual([7]);
    });
  });

  describe('query semantics', () => {
    it('text eq, not, in, not_in ignore case and accents', async () => {
      expect(await ids('/authors?where[name]=asa%20LINDQVIST')).toEqual([1]);
      expect(await ids('/authors?where[name]=jorg%20muller')).toEqual([2]);
      expect(await ids('/authors?where[name][not]=J%C3%96RG%20M%C3%9CLLER')).toEqual([1]);
      expect(await ids('/authors?where[name][in]=ASA%20lindqvist,Jorg%20Muller')).toEqual([1, 2]);
      expect(await ids('/authors?where[name][not_in][]=asa%20lindqvist')).toEqual([2]);
      expect(await ids('/articles?where[tags]=CITY')).toEqual([3, 4, 6]);
    });

    it('like is "contains", folded: É = e, ß = ss', async () => {
      expect(await ids('/articles?where[title][like]=eclair')).toEqual([5]);
      expect(await ids('/articles?where[title][like]=STRASSE')).toEqual([6]);
      expect(await ids('/articles?where[title][like]=HUTTE')).toEqual([2]); // Hütte: ü = u
    });

    it('sort on text follows the collation (É sorts with E, not after Z)', async () => {
      expect(await ids('/articles?sort=title:asc')).toEqual([3, 6, 5, 1, 4, 2]);
      expect(await ids('/articles?sort=title:DESC')).toEqual([2, 4, 1, 5, 6, 3]);
    });

    it('timestamps compare by day in the plain form and lt…gte, by value in between', async () => {
      expect(await ids('/articles?where[created_at][gt]=2022-04-10')).toEqual([5, 6]);
      expect(await ids('/articles?where[created_at]=2022-04-10%2023:00:00')).toEqual([3, 4]);
      expect(await ids('/articles?where[created_at][lte]=2022-03-01%2000:00:00')).toEqual([1, 2]);
      expect(await ids('/articles?where[created_at][between]=2022-03-01%2009:01:00,2022-04-10%2012:05:00')).toEqual([2, 3]);
    });

    it('whereRelation[rel][f]=v means contains', async () => {
      expect(await ids('/articles?whereRelation[author][name]=j%C3%B6rg')).toEqual([3, 4, 5]);
      expect(await ids('/articles?whereRelation[co_authors][name]=LINDQ')).toEqual([3]);
    });

    it('numbers compare as numbers, and limit/offset page', async () => {
      expect(await ids('/articles?where[price][lt]=10&sort=price:asc')).toEqual([1, 2, 5]);
      expect(await ids('/articles?sort=id:asc&limit=2&offset=2')).toEqual([3, 4]);
    });
  });
});

describe('OpenAPI of an elmapi project', () => {
  it("describes the dialect's answers: every served answer conforms to its operation's schema", async () => {
    const doc = JSON.parse(snapshot.openapiOf([TRAVEL]));
    const client = clients.fetch as Client;
    const schemaOf = (path: string, status: string) => {
      const op = doc.paths[path].get.responses[status];
      const resp = op.$ref
        ? op.$ref
            .split('/')
            .slice(1)
            .reduce((o: any, k: string) => o[k], doc)
        : op;
      return resp.content['application/json'].schema;
    };
    const cases: [string, string, string][] = [
      ['', '', '200'],
      ['/articles', '/articles?timestamps', '200'],
      ['/articles', '/articles?count', '200'],
      ['/articles', '/articles?first&timestamps', '200'],
      ['/articles/{content_id}', '/articles/1?timestamps', '200'],
      ['/authors/{content_id}', '/authors/1', '200'],
      ['/project-media', '/project-media', '200'],
      ['/project-media/{media_id}', '/project-media/3', '200'],
      ['/project-media/name/{file_name}', '/project-media/name/alps.png', '200'],
      ['/articles', '/articles?sort=title', '422'],
      ['/articles', '/articles?nope=1', '422'],
      ['/articles/{content_id}', '/articles/99', '404'],
    ];
    for (const [op, path, status] of cases) {
      const r = await client({ path: api(path), headers: HEADERS });
      expect(String(r.status), path).toBe(status);
      expect(violations(JSON.parse(r.text), schemaOf(`/api/${TRAVEL}${op}`, status), doc), path).toEqual([]);
    }
    const unauth = await client({ path: api('/articles'), headers: { accept: 'application/json' } });
    expect(violations(JSON.parse(unauth.text), schemaOf(`/api/${TRAVEL}/articles`, '401'), doc)).toEqual([]);
    // …and a cqa answer does not pass for an elmapi one.
    expect(
      violations({ data: [], meta: { total: 0, limit: null, offset: 0 } }, schemaOf(`/api/${TRAVEL}/articles`, '200'), doc),
    ).not.toEqual([]);
  });
});

describe('a consumer written against the original API', () => {
  // What client code for ElmapiCMS looks like: bare arrays, numeric counts, {"error"} bodies.
  class ElmapiError extends Error {
    constructor(
      readonly status: number,
      message: string,
    ) {
      super(message);
    }
  }
  function client(baseUrl: string, project: string, token: string) {
    const call = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${baseUrl}/api/${project}${path}`, {
        headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { error?: string; message?: string };
      if (!res.ok) throw new ElmapiError(res.status, body.error ?? body.message ?? 'unknown');
      return body as T;
    };
    return {
      project: () => call<{ uuid: string; name: string; description: string | null }>(''),
      entries: <T>(collection: string, query = '') => call<T[]>(`/${collection}${query ? `?${query}` : ''}`),
      count: (collection: string, query = '') => call<number>(`/${collection}?count${query ? `&${query}` : ''}`),
      entry: <T>(collection: string, id: number) => call<T>(`/${collection}/${id}`),
      media: (id: number) => call<{ id: number; file_name: string; full_url: string; thumb?: string }>(`/project-media/${id}`),
    };
  }

  it('lists, counts, reads and handles errors', async () => {
    const cms = client(server.url, TRAVEL, 'travel-token');
    expect((await cms.project()).uuid).toBe(TRAVEL);
    type Article = { id: number; title: string; author?: { id: number; name: string }; cover?: { id: number; thumb: string } };
    const articles = await cms.entries<Article>('articles', 'where[locale]=en&sort=published_at:desc&limit=2');
    expect(Array.isArray(articles)).toBe(true);
    expect(articles.map((a) => typeof a.id)).toEqual(['number', 'number']);
    const total = await cms.count('articles');
    expect(typeof total).toBe('number');
    expect(total).toBe(6);
    const one = await cms.entry<Article>('articles', 3);
    expect(one.author?.name).toBe('Jörg Müller');
    expect((await cms.media(one.cover!.id)).thumb).toEqual(expect.any(String));
    await expect(cms.entry('articles', 999)).rejects.toMatchObject({ status: 404, message: 'Not found!' });
    await expect(cms.entries('nope')).rejects.toMatchObject({ status: 404, message: 'Collection not found!' });
    await expect(cms.entries('articles', 'sort=title')).rejects.toMatchObject({ status: 422, message: 'Incorrect sort statement' });
    await expect(client(server.url, TRAVEL, 'wrong').entries('articles')).rejects.toMatchObject({
      status: 401,
      message: 'Unauthenticated.',
    });
  });
});
