// The explorer's request model (src/core/http/explorer/browser/query.ts, schema.ts), run in Node
// against the API of the sample content: what the form learns from the API (field types, values,
// relation targets, in both dialects), the operators it offers per field (the engine's own table:
// each offered one is accepted, each other one refused), and the paths it composes (accepted by
// the server, and read back into the same form state, so a shared link opens the same view).
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/index.js';
import { OPERATORS, type Op } from '../../src/core/query/operators.js';
import { compose, emptyQuery, hashOf, parsePath, trimValue, type QueryState } from '../../src/core/http/explorer/browser/query.js';
import {
  filterable,
  fromOpenApi,
  fromProjectAnswer,
  fromV3Answers,
  opsOf,
  type Field,
  type Project,
} from '../../src/core/http/explorer/browser/schema.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { V3_OPERATORS } from '../../src/core/http/elmapi3/where.js';

const TRAVEL = '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47';
let handler: (r: Request) => Promise<Response>;

async function get(path: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await handler(
    new Request(`http://cqa.test${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } }),
  );
  return { status: res.status, body: await res.json() };
}

/** The projects as the page learns them: the OpenAPI document, then each project's own answer. */
async function learn(token: string): Promise<Project[]> {
  const projects = fromOpenApi((await get('/openapi.json', token)).body);
  for (const p of projects) {
    const own = (await get(`/api/${p.id}`, token)).body as { data?: { collections?: unknown } };
    if (own.data && Array.isArray(own.data.collections)) fromProjectAnswer(p, own.data as Record<string, unknown>);
  }
  return projects;
}

let demo: Project;
let travel: Project;
let shop3: Project;
const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';

/** An elmapi3 request, as the page sends it: the project in the project-id header. */
async function getV3(path: string): Promise<{ status: number; body: unknown; warning: string | null }> {
  const res = await handler(
    new Request(`http://cqa.test${path}`, {
      headers: { accept: 'application/json', authorization: 'Bearer shop3-token', 'project-id': SHOP3 },
    }),
  );
  return { status: res.status, body: await res.json(), warning: res.headers.get('x-cqa-warning') };
}

beforeAll(async () => {
  handler = createHandler(await buildSnapshot({ content: 'content' }), { ui: false });
  demo = (await learn('demo-token')).find((p) => p.id === 'demo') as Project;
  travel = (await learn('travel-token')).find((p) => p.id === TRAVEL) as Project;
  shop3 = fromOpenApi((await get('/openapi.json', 'shop3-token')).body).find((p) => p.id === SHOP3) as Project;
  const own = (await getV3('/api')).body as Record<string, unknown>;
  const slugs = ((await getV3('/api/collections')).body as { slug: string }[]).map((c) => c.slug);
  fromV3Answers(
    shop3,
    own,
    await Promise.all(slugs.map(async (s) => (await getV3(`/api/collections/${s}`)).body as Record<string, unknown>)),
  );
});

/** A value of the field's type that the sample content could hold. */
function sample(project: Project, f: Field): string {
  switch (f.type) {
    case 'number':
      return '3';
    case 'boolean':
      return 'true';
    case 'date':
      return '2024-05-01';
    case 'datetime': // elmapi3 compares its timestamps as stored: ISO is warned of
      return project.dialect === 'elmapi3' ? '2024-05-01 10:00:00' : '2024-05-01T10:00:00Z';
    case 'time':
      return '10:00';
    case 'enumeration':
      return f.values?.[0] ?? 'x';
    case 'relation':
    case 'media':
      return project.dialect === 'elmapi' ? '1' : 'x';
    default:
      return 'a';
  }
}
const valueFor = (project: Project, f: Field, op: Op): string =>
  op === 'null' || op === 'not_null'
    ? ''
    : op.endsWith('between')
      ? `${sample(project, f)},${sample(project, f)}`
      : op.endsWith('in')
        ? `${sample(project, f)}, ${sample(project, f)}`
        : sample(project, f);

describe('what the explorer learns from the API', () => {
  it('a cqa project: types, enumeration values and relation targets from its own answer', () => {
    const posts = demo.collections.find((c) => c.slug === 'posts')!;
    const field = (n: string) => posts.fields.find((f) => f.name === n);
    expect(field('tags')).toMatchObject({ type: 'enumeration', multiple: true, values: expect.arrayContaining(['travel', 'food']) });
    expect(field('author')).toMatchObject({ type: 'relation', multiple: false, collection: 'authors' });
    expect(field('featured')).toMatchObject({ type: 'boolean' });
    expect(filterable(demo, posts).find((f) => f.name === 'locale')).toMatchObject({ type: 'enumeration', values: ['en', 'de'] });
  });

  it('an elmapi3 project: found by its project-id header, types from its collections; its paths are no projects', async () => {
    const ids = fromOpenApi((await get('/openapi.json', 'shop3-token')).body).map((p) => p.id);
    expect(ids).toEqual([SHOP3]);
    expect(shop3).toMatchObject({ dialect: 'elmapi3', name: 'Alpine Outfitters', locales: ['en', 'fr'] });
    expect(shop3.collections.map((c) => c.slug)).toEqual(['pages', 'products', 'settings']);
    const products = shop3.collections.find((c) => c.slug === 'products')!;
    const types = Object.fromEntries(products.fields.map((f) => [f.name, [f.type, f.multiple, f.collection]]));
    expect(types).toMatchObject({ price: ['number', false, undefined], related: ['relation', true, 'products'] });
    expect(products.fields.some((f) => f.name === 'size')).toBe(false); // a group's child
    expect(filterable(shop3, products)[0]).toMatchObject({ name: 'uuid', system: true });
    // A singleton is known as one (is_singleton): the page neither counts it nor limits it (v3 warns of both).
    expect(shop3.collections.filter((c) => c.singleton).map((c) => c.slug)).toEqual(['settings']);
  });

  it('an elmapi project: types and relation targets from the OpenAPI document alone', () => {
    const articles = travel.collections.find((c) => c.slug === 'articles')!;
    const types = Object.fromEntries(articles.fields.map((f) => [f.name, [f.type, f.multiple, f.collection]]));
    expect(types).toMatchObject({
      price: ['number', false, undefined],
      featured: ['boolean', false, undefined],
      cover: ['media', false, undefined],
      gallery: ['media', true, undefined],
      author: ['relation', false, 'authors'],
      co_authors: ['relation', true, 'authors'],
      meta: ['json', false, undefined],
      tags: ['enumeration', true, undefined],
    });
    expect(articles.fields.find((f) => f.name === 'tags')?.values).toEqual(['mountains', 'city', 'food', 'coffee', 'hiking']);
    expect(travel.locales).toEqual(['en', 'de']);
  });
});

describe("the operators offered per field are the engine's", () => {
  for (const which of ['demo', 'travel'] as const) {
    it(`${which}: every offered operator is accepted, every other one refused`, async () => {
      const project = which === 'demo' ? demo : travel;
      const token = which === 'demo' ? 'demo-token' : 'travel-token';
      const wrong: string[] = [];
      for (const c of project.collections) {
        for (const f of filterable(project, c)) {
          const offered = opsOf(f);
          for (const op of OPERATORS) {
            const q: QueryState = {
              ...emptyQuery(project.id, c.slug),
              conditions: [{ field: f.name, op, value: valueFor(project, f, op) }],
              answer: 'count',
            };
            const r = await get(compose(q), token);
            // Refused for the operator (code unknown_operator), not for a value the sample lacks.
            const refused = r.status !== 200 && JSON.stringify(r.body).includes('unknown_operator');
            if (r.status !== 200 && !refused && !JSON.stringify(r.body).includes('invalid_value'))
              wrong.push(`${c.slug}.${f.name} ${op}: ${r.status}`);
            if (refused === offered.includes(op))
              wrong.push(`${c.slug}.${f.name} (${f.type}) ${op}: ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    }, 60_000);
  }
});

describe('the paths the form composes', () => {
  const full: QueryState = {
    ...emptyQuery('demo', 'posts'),
    conditions: [
      { field: 'tags', op: 'in', value: 'travel, food ' },
      { field: 'reading_time', op: 'between', value: ' 1 , 30' },
      { field: 'featured', op: 'not_null', value: '' },
      { relation: 'author', field: 'role', op: 'eq', value: 'writer' },
    ],
    sort: 'reading_time',
    desc: true,
    limit: '5',
    offset: '1',
    state: 'with_draft',
    locale: 'en',
    timestamps: true,
    pick: 'fields',
    pickFields: ['title', 'tags'],
  };

  it('trims values, each element of a list too', () => {
    expect(trimValue('in', ' a , b ')).toBe('a,b');
    expect(trimValue('eq', '  a b ')).toBe('a b');
    expect(compose(full)).toBe(
      '/api/demo/posts?where[tags][in]=travel,food&where[reading_time][between]=1,30&where[featured]=not_null&whereRelation[author][role]=writer&sort=reading_time:desc&limit=5&offset=1&state=with_draft&locale=en&timestamps&fields=title,tags',
    );
  });

  it('are answered by the server (200), and read back into the same form', async () => {
    const trimmed = { ...full, conditions: full.conditions.map((c) => ({ ...c, value: trimValue(c.op, c.value) })) };
    const any: QueryState = { ...trimmed, any: true, conditions: trimmed.conditions.filter((c) => !c.relation) };
    const entry: QueryState = {
      ...emptyQuery('demo', 'posts'),
      entry: 'hello-world',
      state: 'with_draft',
      timestamps: true,
      pick: 'exclude',
      pickFields: ['body'],
    };
    const count: QueryState = {
      ...emptyQuery('demo', 'products'),
      answer: 'count',
      conditions: [{ field: 'name', op: 'like', value: '%a%' }],
    };
    for (const q of [trimmed, any, entry, count, { ...count, answer: 'first' as const }]) {
      const path = compose(q);
      const r = await get(path, 'demo-token');
      expect([200, 404], `${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
      expect(parsePath(path)).toEqual({ query: q, ignored: [] });
    }
    expect(compose(any)).toContain('where[or][0][tags][in]=travel,food&where[or][1][reading_time][between]=1,30');
  });

  it('a path with what the form cannot hold says what it left out', () => {
    expect(parsePath('/api/demo/posts?sort=title,id:desc&foo=1')).toEqual({
      query: { ...emptyQuery('demo', 'posts'), sort: 'title' },
      ignored: ["sort: only 'title' is in the form", 'foo=1'],
    });
    expect(parsePath('/openapi.json')).toBeUndefined();
  });
});

describe('an in-condition whose picked values hold commas', () => {
  const tree = {
    'p/project.yaml': 'id: p\npublic: true\n',
    'p/notes/_collection.yaml':
      "fields:\n  size: { type: enumeration, values: ['S', 'M, L', 'XL, XXL'] }\n  owner: { type: relation, collection: people }\n",
    'p/notes/a.yaml': 'size: S\nowner: ann\n',
    'p/notes/b.yaml': "size: 'M, L'\nowner: bob\n",
    'p/notes/c.yaml': "size: 'XL, XXL'\n",
    'p/people/_collection.yaml': "fields:\n  fit: { type: enumeration, values: ['S', 'M, L'] }\n",
    'p/people/ann.yaml': 'fit: S\n',
    'p/people/bob.yaml': "fit: 'M, L'\n",
  };
  const q: QueryState = {
    ...emptyQuery('p', 'notes'),
    conditions: [{ field: 'size', op: 'in', value: 'M, L,XL, XXL', values: ['M, L', 'XL, XXL'] }],
  };

  it('are sent one by one ([in][]=), answered as picked, and read back from the link', async () => {
    const path = compose(q);
    expect(path).toBe('/api/p/notes?where[size][in][]=M%2C%20L&where[size][in][]=XL%2C%20XXL');
    const own = createHandler(await buildSnapshot({ content: tree }), { ui: false });
    const res = await own(new Request(`http://cqa.test${path}`, { headers: { accept: 'application/json' } }));
    const body = (await res.json()) as { data: { id: string }[] };
    expect(body.data.map((e) => e.id)).toEqual(['b', 'c']);
    expect(parsePath(path)).toEqual({ query: q, ignored: [] });
  });

  it('so are they in where[or] and whereRelation: the same answers as written by hand, and the same form read back', async () => {
    const own = createHandler(await buildSnapshot({ content: tree }), { ui: false });
    const ids = async (path: string) =>
      (
        (await (await own(new Request(`http://cqa.test${path}`, { headers: { accept: 'application/json' } }))).json()) as {
          data: { id: string }[];
        }
      ).data.map((e) => e.id);
    const anyOf: QueryState = {
      ...q,
      any: true,
      conditions: [
        { field: 'size', op: 'in', value: 'M, L,XL, XXL', values: ['M, L', 'XL, XXL'] },
        { field: 'id', op: 'eq', value: 'none' },
      ],
    };
    const related: QueryState = {
      ...q,
      conditions: [{ relation: 'owner', field: 'fit', op: 'in', value: 'M, L', values: ['M, L'] }],
    };
    expect(compose(anyOf)).toBe(
      '/api/p/notes?where[or][0][size][in][]=M%2C%20L&where[or][0][size][in][]=XL%2C%20XXL&where[or][1][id]=none',
    );
    expect(compose(related)).toBe('/api/p/notes?whereRelation[owner][fit][in][]=M%2C%20L');
    expect(await ids(compose(anyOf))).toEqual(['b', 'c']);
    expect(await ids(compose(related))).toEqual(['b']);
    for (const state of [anyOf, related]) expect(parsePath(compose(state))).toEqual({ query: state, ignored: [] });
  });

  it('two in-conditions on one field are not joined into one list: the server is asked as written and says why not', async () => {
    const twice: QueryState = {
      ...q,
      conditions: [
        { field: 'size', op: 'in', value: 'M, L', values: ['M, L'] },
        { field: 'size', op: 'in', value: 'S', values: ['S'] },
      ],
    };
    const path = compose(twice);
    expect(path).toBe('/api/p/notes?where[size][in][]=M%2C%20L&where[size][in]=S');
    const own = createHandler(await buildSnapshot({ content: tree }), { ui: false });
    const res = await own(new Request(`http://cqa.test${path}`, { headers: { accept: 'application/json' } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('duplicate_parameter');
  });

  it('values without commas keep the short form', () => {
    expect(compose({ ...q, conditions: [{ field: 'size', op: 'not_in', value: 'S,M', values: ['S', 'M'] }] })).toBe(
      '/api/p/notes?where[size][not_in]=S,M',
    );
  });
});

describe('an elmapi3 project', () => {
  it("offers v3's own operators for the entry's columns (uuid, locale, the timestamps)", () => {
    expect(opsOf({ type: 'text', multiple: false, system: true }, true)).toEqual(V3_OPERATORS);
  });

  it('every operator offered per field selects without a warning, with the values it holds', async () => {
    const wrong: string[] = [];
    for (const c of shop3.collections.filter((x) => x.slug !== 'settings')) {
      for (const f of filterable(shop3, c)) {
        for (const op of opsOf(f, true)) {
          const value = f.type === 'number' ? (op.endsWith('between') ? '10,200' : '25') : valueFor(shop3, f, op);
          const q: QueryState = { ...emptyQuery(SHOP3, c.slug, true), conditions: [{ field: f.name, op, value }], answer: 'count' };
          const r = await getV3(compose(q));
          if (r.status !== 200 || r.warning) wrong.push(`${c.slug}.${f.name} (${f.type}) ${op}: ${r.status} ${r.warning ?? ''}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('composes v3 paths, answered as written by hand, and read back from the page URL', async () => {
    const q: QueryState = {
      ...emptyQuery(SHOP3, 'products', true),
      conditions: [
        { field: 'price', op: 'between', value: '20,130' },
        { field: 'tags', op: 'in', value: 'sale,winter' },
        { field: 'title', op: 'not_null', value: '' },
        { relation: 'related', field: 'title', op: 'like', value: 'Jacket' },
      ],
      sort: 'price',
      desc: true,
      limit: '5',
      state: 'only_draft',
      locale: 'en',
      timestamps: true,
      pick: 'exclude',
      pickFields: ['variants'],
    };
    const path = compose(q);
    expect(path).toBe(
      '/api/products?where[price][between]=20,130&where[tags][in]=sale,winter&where[title][not_null]=1&where[related][title][like]=Jacket&sort=price:desc&limit=5&state=draft&locale=en&timestamps&exclude=variants',
    );
    expect(hashOf(q)).toBe(`project-id:${SHOP3}${path}`);
    expect(parsePath(hashOf(q))).toEqual({ query: q, ignored: [] });
    const published = { ...q, state: 'published' as const, sort: '', limit: '' };
    const byHand = await getV3(
      '/api/products?where[price][between]=20,130&where[tags][in]=sale,winter&where[title][not_null]=1&where[related][title][like]=Jacket&locale=en&timestamps&exclude=variants',
    );
    const composed = await getV3(compose(published));
    expect(composed.status).toBe(200);
    expect(composed.body).toEqual(byHand.body);
    // where[or], one entry by uuid, count.
    const any: QueryState = { ...emptyQuery(SHOP3, 'products', true), any: true, conditions: q.conditions.slice(0, 2), answer: 'count' };
    expect(compose(any)).toBe('/api/products?where[or][0][price][between]=20,130&where[or][1][tags][in]=sale,winter&count');
    expect(parsePath(hashOf(any))).toEqual({ query: any, ignored: [] });
    expect((await getV3(compose(any))).body).toEqual({ count: 3 });
    const one = { ...emptyQuery(SHOP3, 'products', true), entry: '9b1f6c52-3a41-4d7e-9a57-0c1b8e2f4a10' };
    expect((await getV3(compose(one))).body).toMatchObject({ uuid: one.entry });
    expect(parsePath(hashOf(one))).toEqual({ query: one, ignored: [] });
    expect(parsePath('project-id:/api/products')).toBeUndefined();
  });
});
