// The query cost budget (docs/security.md "Query cost", issue 20 item 2): a query whose
// conditions would scan too much is refused with a 400 that names the limit and the fix, before
// any scan, in both dialects, over a socket (`cqa serve`) and through createHandler (the edge
// worker's engine); queries under the budget answer as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { queryEntries } from '../../src/core/query/index.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { ContentModel, EntryRecord, FieldDef, ProjectRecord } from '../../src/core/model/model.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { fetchClient, socketClient, type Client } from './fixture.js';

const T = '2024-01-01T00:00:00.000Z';
const f = (name: string, type: FieldDef['type']): FieldDef => ({ name, type, required: false, multiple: false, hidden: false });
const ROWS = 20_000;
const V3 = '11111111-2222-4333-8444-000000000001';
const all = () => Array.from({ length: ROWS }, (_, k) => post(k + 1));

function post(i: number): EntryRecord {
  return {
    id: String(i),
    locale: 'en',
    draft: false,
    created_at: T,
    updated_at: T,
    published_at: T,
    // About 600 characters of body, as in the attack.
    values: {
      title: `Post ${i}`,
      category: `c${i % 50}`,
      n: i,
      body: `Lorem ipsum dolor sit amet ${i}, consectetur adipiscing. `.repeat(10),
    },
    file: `posts/${i}.yaml`,
  };
}

function project(id: string, dialect?: 'elmapi' | 'elmapi3'): ProjectRecord {
  const entries: EntryRecord[] = [];
  for (let i = 1; i <= ROWS; i++) entries.push(post(i));
  return {
    id,
    name: id,
    description: null,
    default_locale: 'en',
    locales: ['en'],
    public: true,
    tokens: [],
    media: [],
    ...(dialect ? { dialect } : {}),
    collections: [
      {
        slug: 'posts',
        name: 'Posts',
        body_field: 'body',
        sort: [],
        fields: [f('title', 'text'), f('category', 'text'), f('n', 'number'), f('body', 'text')],
        entries,
      },
    ],
  };
}

// The attack: 200 OR'd like patterns with a `_` each, 7.8 KB of URL.
const ATTACK = Array.from({ length: 200 }, (_, i) => `where[or][${i}][body][like]=%25z${i}_y%25`).join('&');
// A pattern whose `_` between letters makes it dear: refused alone, answered once narrowed.
const DEAR = `where[body][like]=${encodeURIComponent(`%i${'_'.repeat(300)}r%`)}`;

let snapshot: Snapshot;
let server: RunningServer;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  const model: ContentModel = { projects: [project('plain'), project('elm', 'elmapi'), project(V3, 'elmapi3')] };
  snapshot = createSnapshot(model);
  server = await startServer({ snapshot, host: '127.0.0.1', port: 0 });
  clients.socket = socketClient(server.url);
  clients.fetch = fetchClient(createHandler(snapshot, { elmapi3: elmapi3Routes }));
}, 60_000);
afterAll(() => server?.close());

describe.each(['socket', 'fetch'])('query cost budget (%s)', (name) => {
  const get = async (path: string) => {
    const r = await (clients[name] as Client)({ path, headers: { accept: 'application/json' } });
    return { status: r.status, type: r.headers['content-type'], json: JSON.parse(r.text) as Record<string, unknown> & unknown[] };
  };

  it("the attack (200 OR'd like patterns over 20,000 entries) is refused with a 400 naming the limit and the fix", async () => {
    expect(ATTACK.length).toBeGreaterThan(7000);
    const r = await get(`/api/plain/posts?${ATTACK}`);
    expect(r.status).toBe(400);
    expect(r.type).toBe('application/problem+json; charset=utf-8');
    expect(r.json.code).toBe('query_too_costly');
    expect(r.json.param).toBe('where');
    expect(r.json.detail).toMatch(
      /^this query would cost ~[\d,]+ units .*; the limit is 1,000,000,000: use fewer or shorter like patterns/,
    );
    expect(r.json.detail).toContain('add an equality or range condition');
    // Asked again (the answer caches key on the exact query): refused again, not run.
    expect((await get(`/api/plain/posts?${ATTACK}&limit=5`)).status).toBe(400);
  });

  it("in the elmapi3 dialect (like as SQLite reads it): a 422 in Laravel's validation shape with the same words; a backtracking pattern answers", async () => {
    const v3 = async (query: string) => {
      const r = await (clients[name] as Client)({ path: `/api/posts?${query}`, headers: { accept: 'application/json', 'project-id': V3 } });
      return { status: r.status, json: JSON.parse(r.text) as { message: string; errors?: Record<string, string[]>; data?: unknown[] } };
    };
    const attack = await v3(ATTACK);
    expect(attack.status).toBe(422);
    expect(attack.json.errors?.where?.[0]).toMatch(/^this query would cost ~[\d,]+ units .*; the limit is 1,000,000,000/);
    // %a%a…%b: a RegExp of [\s\S]* runs backtracked for minutes on 60 letters; the linear matcher answers.
    const many = await v3(`where[body][like]=${encodeURIComponent(`${'%a'.repeat(12)}%b`)}&paginate=5`);
    expect(many.status).toBe(200);
    expect(many.json.data).toEqual([]);
    const some = await v3(`where[body][like]=${encodeURIComponent('%LOREM%12345,%')}&paginate=5`);
    expect(some.status).toBe(200);
    expect(some.json.data).toHaveLength(1);
  });

  it('in the elmapi dialect: its error shape (422, {error, code}) with the same words', async () => {
    const r = await get(`/api/elm/posts?${ATTACK}`);
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('query_too_costly');
    expect(r.json.error).toContain('the limit is 1,000,000,000');
  });

  it('a dear pattern is refused alone and answered once an equality condition narrows the entries', async () => {
    expect((await get(`/api/plain/posts?${DEAR}&count`)).json.code).toBe('query_too_costly');
    // category=c7 leaves 400 of 20,000 entries: the like tests only those.
    const r = await get(`/api/plain/posts?${DEAR}&where[category]=c7&count`);
    expect(r.status).toBe(200);
    const expected = all().filter(
      (p) => p.values.category === 'c7' && /i[\s\S]{300}r/.test((p.values.body as string).toLowerCase()),
    ).length;
    expect(expected).toBeGreaterThan(0);
    expect(r.json).toEqual({ count: expected });
  });

  it('ordinary like queries on 20,000 entries answer as before', async () => {
    const r = await get('/api/plain/posts?where[body][like]=%25amet%201999,%25&fields=title');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ data: [{ id: '1999', title: 'Post 1999' }], meta: { total: 1 } });
    const u = await get('/api/plain/posts?where[title][like]=post%201_9_&count');
    expect(u.json).toEqual({ count: all().filter((p) => /post 1.9./.test((p.values.title as string).toLowerCase())).length });
    const or = await get(
      `/api/plain/posts?${Array.from({ length: 20 }, (_, i) => `where[or][${i}][title][like]=%25t%20${i}_9`).join('&')}&count`,
    );
    expect(or.status).toBe(200);
  });
});

describe('query cost budget: the engine (library) and other operators', () => {
  const plain = () => snapshot.projects.get('plain')!;
  const posts = () => plain().collections.get('posts')!;
  const ctx = { scopes: new Set(['read'] as const), maxLimit: 0 };
  const run = (q: string) => queryEntries(plain(), posts(), q, ctx);

  it('7,000 `_` between two letters is refused; 7,000 `_` alone (a count of characters) is answered', () => {
    const seven = '_'.repeat(7000);
    const dear = run(`where[body][like]=a${seven}a&count`);
    expect(dear.ok).toBe(false);
    expect(!dear.ok && dear.problem.code).toBe('query_too_costly');
    expect(run(`where[body][like]=%25${seven.slice(0, 500)}%25&count`)).toEqual({ ok: true, body: `{"count":${ROWS}}` });
    expect(run(`where[body][like]=%25${seven}%25&count`)).toEqual({ ok: true, body: '{"count":0}' });
  });

  it('a long numeric in/not_in list answers as a set of values (same matches)', () => {
    const values = Array.from({ length: 1000 }, (_, k) => k * 7);
    const inList = run(`where[n][in]=${values.join(',')}&count`);
    expect(inList).toEqual({ ok: true, body: `{"count":${values.filter((v) => v >= 1 && v <= ROWS).length}}` });
    const notIn = run(`where[n][not_in]=${values.join(',')}&count`);
    expect(notIn).toEqual({ ok: true, body: `{"count":${ROWS - values.filter((v) => v >= 1 && v <= ROWS).length}}` });
  });

  it('a sort key given again changes nothing (and is not compared again)', () => {
    const once = run('sort=category:desc&limit=50&fields=title');
    const often = run(`sort=${Array.from({ length: 700 }, () => 'category:desc').join(',')}&limit=50&fields=title`);
    expect(often).toEqual(once);
  });
});
