// Property: the static client (`mode: 'static'` over `cqa build` output served by `cqa preview`)
// answers every generated query exactly as `cqa serve` does — same status, same bytes, problems
// included — on the sample content and on the engine's trap fixture, with a token that reads
// published content only.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/core/client/index.js';
import { StaticSource } from '../../src/core/client/static.js';
import { loadContent } from '../../src/node/content/index.js';
import { OPERATORS } from '../../src/core/query/operators.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import type { ContentModel, FieldValue } from '../../src/core/model/model.js';
import { ownValue } from '../../src/core/model/model.js';
import type { CollectionSnapshot, Snapshot } from '../../src/core/model/types.js';
import { entry, model as trapModel } from '../query/fixture.js';
import { serveBoth, serverAnswer, type Sites } from './fixture.js';
import { runs } from '../property-runs.js';

const READER = 'reader-token';

/** The model with a token that reads published content only (what a static tree shows). */
function withReader(model: ContentModel): ContentModel {
  return {
    projects: model.projects.map((p) => ({
      ...p,
      tokens: [...p.tokens, { name: 'reader', sha256: createHash('sha256').update(READER).digest('hex'), scopes: ['read'] }],
    })),
  };
}

/**
 * The query engine's trap fixture (test/query/fixture.ts), its media as real files, and a draft
 * with a non-integer id among integer ids (the server then compares ids as text).
 */
function trapsModel(dir: string): ContentModel {
  const p = trapModel.projects[0]!;
  return {
    projects: [
      {
        ...p,
        media: p.media.map((m) => {
          // As the loader makes them: the file at its id under the media folder.
          const source = join(dir, m.id);
          mkdirSync(dirname(source), { recursive: true });
          writeFileSync(source, 'x'.repeat(m.size));
          return { ...m, source };
        }),
        collections: p.collections.map((c) =>
          c.slug === 'items' ? { ...c, entries: [...c.entries, entry('x1', { label: 'draft', n: 1 }, { draft: true })] } : c,
        ),
      },
    ],
  };
}

let sample: { snapshot: Snapshot; sites: Sites; source: StaticSource };
let traps: typeof sample;
const mediaDir = mkdtempSync(join(tmpdir(), 'cqa-client-media-'));

async function serve(model: ContentModel, project: string): Promise<typeof sample> {
  const snapshot = createSnapshot(withReader(model));
  const sites = await serveBoth(snapshot);
  return { snapshot, sites, source: new StaticSource(sites.preview.url, project, (url, init) => fetch(url, init)) };
}

beforeAll(async () => {
  const { model, issues } = await loadContent('content');
  expect(issues).toEqual([]);
  sample = await serve(model, 'demo');
  traps = await serve(trapsModel(mediaDir), 'shop');
});
afterAll(async () => {
  await Promise.all([sample?.sites.close(), traps?.sites.close()]);
  rmSync(mediaDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Queries generated from the sample's own schema and values, so that most clauses match something

const enc = encodeURIComponent;
/** Absent most of the time, present now and then. */
const rare = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.oneof(fc.constant(undefined), arb);

/** Operators that apply to a field of this type (`validOps` in src/core/query/operators.ts), so most clauses are valid. */
function opsFor(type: string, multiple: boolean): readonly string[] {
  const sets = ['eq', 'not', 'in', 'not_in', 'null', 'not_null'];
  if (type === 'json') return ['null', 'not_null'];
  if (type === 'boolean' || type === 'relation' || type === 'media' || multiple)
    return type === 'text' || type === 'enumeration' ? [...sets, 'like'] : sets;
  const ranges = ['lt', 'lte', 'gt', 'gte', 'between', 'not_between'];
  return ['number', 'date', 'datetime', 'time'].includes(type) ? [...sets, ...ranges] : [...sets, ...ranges, 'like'];
}

function scalars(v: FieldValue | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.flatMap(scalars);
  return typeof v === 'object' ? [] : [String(v)];
}

const EDGES: Record<string, string[]> = {
  number: ['0', '10', '-1.5'],
  date: ['2024-03-01', '2024-03-01T10:00:00Z'],
  time: ['09:30'],
  boolean: ['true', '0'],
  json: ['x'],
  text: ['', 'zz', 'a%'],
};

/** Values seen in the collection (drafts included: their ids must match nothing) plus a few odd ones of the type. */
function valuePool(col: CollectionSnapshot, name: string): string[] {
  const seen = new Set<string>();
  for (const e of col.entries) {
    const r = e.record;
    const v =
      name === 'id' || name === 'locale' || name === 'created_at' || name === 'updated_at' || name === 'published_at'
        ? r[name]
        : ownValue(r.values, name);
    for (const s of scalars(v)) if (seen.size < 12) seen.add(s);
  }
  const type = typeOf(col, name);
  const edges = EDGES[type === 'datetime' ? 'date' : type] ?? EDGES.text!;
  return [...seen, ...seen, ...edges];
}

function typeOf(col: CollectionSnapshot, name: string): string {
  if (name === 'id' || name === 'locale') return 'text';
  return col.fields.get(name)?.type ?? 'datetime'; // the timestamps
}

function collectionQuery(
  col: CollectionSnapshot,
  project: Snapshot['projects'] extends ReadonlyMap<string, infer P> ? P : never,
): fc.Arbitrary<string> {
  const names = ['id', 'locale', ...col.visibleFields.map((f) => f.name), 'created_at', 'updated_at', 'published_at'];
  const pools = new Map(names.map((n) => [n, valuePool(col, n)]));
  const clause = (prefix: string, target: CollectionSnapshot, fieldNames: readonly string[], poolOf: (n: string) => string[]) =>
    fc.constantFrom(...fieldNames).chain((name) =>
      fc
        .record({
          op: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom(...opsFor(typeOf(target, name), target.fields.get(name)?.multiple ?? false)) },
            { weight: 1, arbitrary: fc.constantFrom(...OPERATORS) },
          ),
          form: fc.constantFrom('leaf', 'csv', 'list'),
          values: fc.array(fc.constantFrom(...poolOf(name)), { minLength: 1, maxLength: 3 }),
        })
        .map(({ op, form, values: pool }) => {
          const p = `${prefix}[${name}]`;
          // mostly the number of values the operator takes
          const values = op === 'in' || op === 'not_in' ? pool : op.endsWith('between') ? [pool[0]!, pool.at(-1)!] : pool.slice(0, 1);
          if (form === 'leaf') return `${p}=${enc(op === 'null' || op === 'not_null' ? op : (values[0] as string))}`;
          if (op === 'null' || op === 'not_null') return `${p}[${op}]`;
          const listOp = op === 'in' || op === 'not_in' || op.endsWith('between');
          if (form === 'list' && listOp) return values.map((v) => `${p}[${op}][]=${enc(v)}`).join('&');
          return `${p}[${op}]=${values.map(enc).join(',')}`;
        }),
    );
  const own = clause('where', col, names, (n) => pools.get(n) as string[]);
  const relations = col.visibleFields.filter((f) => f.type === 'relation');
  const relation = relations.length
    ? fc.constantFrom(...relations).chain((f) => {
        const target = project.collections.get(f.collection as string) as CollectionSnapshot;
        const targetNames = ['id', 'locale', ...target.visibleFields.map((t) => t.name), 'published_at'];
        return clause(`whereRelation[${f.name}]`, target, targetNames, (n) => valuePool(target, n));
      })
    : fc.constant('');
  const sortKey = fc.tuple(fc.constantFrom(...names), fc.constantFrom('', ':asc', ':desc', ':DESC')).map(([n, d]) => n + d);
  const visible = col.visibleFields.map((f) => f.name);
  return fc
    .record({
      and: fc.array(own, { maxLength: 2 }),
      groups: fc.array(own, { maxLength: 1 }),
      or: fc.array(fc.array(own, { minLength: 1, maxLength: 2 }), { maxLength: 2 }),
      rel: sometimes(relation),
      sort: sometimes(fc.array(sortKey, { minLength: 1, maxLength: 2 })),
      limit: sometimes(fc.integer({ min: 0, max: 30 })),
      offset: sometimes(fc.integer({ min: 0, max: 40 })),
      locale: sometimes(fc.constantFrom('en', 'en', 'de', 'de', 'fr')),
      state: rare(fc.constantFrom('published', 'published', 'with_draft')),
      mode: fc.constantFrom('list', 'list', 'list', 'list', 'count', 'count', 'first', 'first', 'first&count'),
      keep: rare(fc.tuple(fc.constantFrom('fields', 'exclude'), fc.subarray([...visible, 'id', 'nope'], { minLength: 1, maxLength: 3 }))),
      timestamps: fc.boolean(),
      odd: rare(
        fc.constantFrom('where[nope]=1', 'limit=x', 'sort=', 'bogus=1', 'limit=2000', 'where[or][0][or][x]=1', 'where[__proto__]=1'),
      ),
    })
    .map((q) => {
      const parts: string[] = [...q.and];
      q.groups.forEach((g, k) => {
        parts.push(g.replace(/^where/, `where[${k}]`));
      });
      q.or.forEach((g, k) => {
        g.forEach((c) => {
          parts.push(c.replace(/^where/, `where[or][${k}]`));
        });
      });
      if (q.rel) parts.push(q.rel);
      if (q.sort) parts.push(`sort=${q.sort.join(',')}`);
      if (q.limit !== undefined) parts.push(`limit=${q.limit}`);
      if (q.offset !== undefined) parts.push(`offset=${q.offset}`);
      if (q.locale) parts.push(`locale=${q.locale}`);
      if (q.state) parts.push(`state=${q.state}`);
      if (q.mode !== 'list') parts.push(q.mode);
      if (q.keep) parts.push(`${q.keep[0]}=${q.keep[1].join(',')}`);
      if (q.timestamps) parts.push('timestamps');
      if (q.odd) parts.push(q.odd);
      return parts.filter((p) => p !== '').join('&');
    });
}

const STATIC_DRAFTS =
  "a static tree holds no drafts (cqa build writes published entries, or with --drafts all as published; no token helps); use state=published, or mode 'server' against cqa serve or startServer() with a token with scopes [read, drafts]";

/**
 * The server's answer as the static client gives it: the same, but for asking for drafts, where
 * the 403 drafts_scope_required (same status, code and param) says why no token helps.
 */
function asStatic(a: { status: number; body: string }): { status: number; body: string } {
  if (a.status !== 403) return a;
  const p = JSON.parse(a.body) as { code: string; detail: string };
  if (p.code !== 'drafts_scope_required') return a;
  const detail = p.detail.replace(/: drafts need .*$/, `: ${STATIC_DRAFTS}`);
  return { status: a.status, body: a.body.replace(JSON.stringify(p.detail), JSON.stringify(detail)) };
}

/** Runs `numRuns` generated queries on every collection against both; returns what the server answered. */
async function compareGenerated(set: typeof sample, projectId: string, numRuns: number, seed: number) {
  const project = set.snapshot.projects.get(projectId)!;
  const requests = fc.oneof(
    ...[...project.collections.values()].map((col) =>
      collectionQuery(col, project).map((q) => ({ path: `/${col.record.slug}`, query: q })),
    ),
  );
  let ok = 0;
  const codes = new Set<string>();
  await fc.assert(
    fc.asyncProperty(requests, async ({ path, query }) => {
      const [expected, actual] = await Promise.all([
        serverAnswer(set.sites, projectId, path, query, READER).then(asStatic),
        set.source.answer(path, query),
      ]);
      expect({ status: actual.status, body: actual.body }, `${path}?${query}`).toEqual(expected);
      if (expected.status === 200) ok++;
      else codes.add((JSON.parse(expected.body) as { code: string }).code);
    }),
    { numRuns, seed },
  );
  return { ok, codes };
}

describe('static client = cqa serve on published content', () => {
  it('answers generated queries on every collection of the sample with the same status and bytes', async () => {
    const { ok, codes } = await compareGenerated(sample, 'demo', runs(600), 12);
    // Both kinds are exercised: answers, and problems of many kinds.
    expect(ok).toBeGreaterThan(runs(600) / 3);
    expect(codes.size).toBeGreaterThan(8);
  }, 60_000);

  it("…and on the query engine's trap fixture (unicode, empty values, integer ids beside a draft)", async () => {
    const { ok } = await compareGenerated(traps, 'shop', runs(400), 5);
    expect(ok).toBeGreaterThan(runs(400) * 0.3);
    // Integer ids beside a draft 'x1': the server compares ids as text; so must the client.
    const byId = await traps.source.answer('/items', 'sort=id&fields=label');
    expect(JSON.parse(byId.body).data.map((e: { id: string }) => e.id)).toEqual(['1', '10', '100', '2', '9']);
  }, 60_000);

  it('answers single entries, media and unknown names as the server does', async () => {
    const requests: [string, string][] = [
      ['', ''],
      ['', 'limit=1'],
      ['/posts', ''],
      ['/nope', ''],
      ['/posts/hello-world', ''],
      ['/posts/hello-world', 'fields=title&timestamps'],
      ['/posts/hello-world', 'exclude=body,title'],
      ['/posts/hello-world', 'limit=1'],
      ['/posts/no-such-post', ''],
      ['/posts/no-such-post', 'timestamps'],
      ['/project-media', ''],
      ['/project-media', 'where[mime_type][like]=image%25&sort=size:desc&limit=2'],
      ['/project-media', 'where[width][gt]=100&count'],
      ['/project-media', 'where[nope]=1'],
      ['/project-media/no-such.png', ''],
    ];
    const media = sample.snapshot.projects.get('demo')!.media[0]!.record.id;
    requests.push([`/project-media/${media}`, ''], [`/project-media/${media}`, 'fields=size']);
    for (const draft of sample.snapshot.projects
      .get('demo')!
      .collections.get('posts')!
      .entries.filter((e) => e.record.draft)) {
      requests.push([`/posts/${draft.record.id}`, ''], [`/posts/${draft.record.id}`, 'state=with_draft']);
    }
    for (const [path, query] of requests) {
      const [expected, actual] = await Promise.all([
        serverAnswer(sample.sites, 'demo', path, query, READER).then(asStatic),
        sample.source.answer(path, query),
      ]);
      expect(actual, `${path}?${query}`).toEqual(expected);
      if (query === 'state=with_draft') expect(actual.body).toContain('a static tree holds no drafts');
    }
  });
});

describe('a query string with characters a URL cuts or drops', () => {
  // Found from outside (a harness comparing both modes over cqa serve, cqa preview and nginx):
  // a query string is sent as it is, and fetch's URL parser ended the query at a `#` (the rest
  // was a fragment, never sent) and dropped tabs, line breaks and trailing spaces, so the server
  // client answered another query than the static client did.
  it('gets the same answer from a server client as from a static client', async () => {
    const server = createClient({ baseUrl: sample.sites.server.url, project: 'demo', token: READER, mode: 'server' });
    const tree = createClient({ baseUrl: sample.sites.preview.url, project: 'demo', mode: 'static' });
    const queries = [
      'where[color]=#2f5d50&fields=color',
      'where[color][in]=#2f5d50,#2e86de&count',
      'limit=1#2',
      'where[title]=Hello, wor\tld: welcome to the Northwind Journal&fields=title',
      'where[title]=Hello, world: wel\ncome to the Northwind Journal&count',
      'fields=title&where[title][like]=% ',
    ];
    for (const query of queries) {
      const collection = query.includes('color') || query.startsWith('limit') ? 'products' : 'posts';
      const [expected, actual] = await Promise.all(
        [server, tree].map((c) => c.get(`/${collection}`, query).catch((e: { status: number; code: string }) => [e.status, e.code])),
      );
      expect(expected, query).toEqual(actual);
    }
    const colored = await server.entries('products', 'where[color]=#2f5d50&fields=color');
    expect(colored.meta.total).toBe(2);
    expect(await server.count('products', { where: { color: '#2f5d50' } })).toBe(2);
    await expect(server.entries('products', 'limit=1#2')).rejects.toMatchObject({ status: 400, code: 'invalid_limit' });
  });
});

describe('a query longer than a request may be', () => {
  // Found from outside (the harness of the previous test): cqa serve answers a request target
  // past 8 KiB with 414 uri_too_long, and the static client answered the same query with a 200.
  it('is a 414 uri_too_long in both modes, measured as sent (UTF-8 percent-encoded)', async () => {
    const server = createClient({ baseUrl: sample.sites.server.url, project: 'demo', token: READER, mode: 'server' });
    const tree = createClient({ baseUrl: sample.sites.preview.url, project: 'demo', mode: 'static' });
    const answer = (c: typeof server, q: Parameters<typeof server.count>[1]) =>
      c.count('posts', q).catch((e: { status: number; code: string; detail: string }) => [e.status, e.code, e.detail]);
    // `/api/demo/posts?`, then `where[id][in][]=` and 8 characters per id, `&` between, `&count`
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${String(i).padStart(7, '0')}`);
    const shortest = ids(326); // 16 + 326 × 25 - 1 + 6 = 8171: answered
    const longest = ids(328); // 8221: too long
    const raw = `where[title][in]=${'éé,'.repeat(600)}x&count`; // 1,824 characters; 7,840 with the path, as sent
    const rawLong = `where[title][in]=${'éé,'.repeat(650)}x&count`; // 8,490 as sent
    for (const q of [{ where: { id: { in: shortest } } }, { where: { id: { in: longest } } }]) {
      const [expected, actual] = await Promise.all([answer(server, q), answer(tree, q)]);
      expect(actual).toEqual(expected);
    }
    for (const q of [raw, rawLong]) {
      const [expected, actual] = await Promise.all(
        [server, tree].map((c) => c.get('/posts', q).catch((e: { status: number; code: string }) => [e.status, e.code])),
      );
      expect(actual, q.slice(-40)).toEqual(expected);
    }
    expect(await answer(tree, { where: { id: { in: shortest } } })).toBe(0);
    expect(await answer(tree, { where: { id: { in: longest } } })).toEqual([
      414,
      'uri_too_long',
      'the request target is longer than 8192 bytes: send fewer or shorter query parameters',
    ]);
    await expect(tree.get('/posts', rawLong)).rejects.toMatchObject({ status: 414, code: 'uri_too_long' });
    expect(await tree.get('/posts', raw)).toEqual({ count: 0 });
  });
});

describe('the static client downloads each document once', () => {
  it('revalidates with If-None-Match and reuses the document on 304', async () => {
    const seen: { url: string; ifNoneMatch: string | undefined; status: number }[] = [];
    const client = createClient({
      baseUrl: sample.sites.preview.url,
      project: 'demo',
      mode: 'static',
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        seen.push({ url, ifNoneMatch: init.headers['if-none-match'], status: res.status });
        return res;
      },
    });
    const first = await client.entries('posts', { where: { locale: 'de' }, sort: 'published_at:desc', limit: 3 });
    const again = await client.entries('posts', { where: { locale: 'de' }, sort: 'published_at:desc', limit: 3 });
    expect(again).toEqual(first);
    const lists = seen.filter((s) => s.url.endsWith('/api/demo/posts'));
    expect(lists.map((s) => s.status)).toEqual([200, 304]);
    expect(lists[0]!.ifNoneMatch).toBeUndefined();
    expect(lists[1]!.ifNoneMatch).toMatch(/^"/);
    expect(seen.every((s) => s.status === 200 || s.status === 304)).toBe(true);
  });
});

describe('the static client after a new deploy', () => {
  it('answers from the new tree, relation targets included', async () => {
    const model = trapsModel(mediaDir);
    const query = 'whereRelation[author][published_at][gte]=2022-01-01&count';
    const source = traps.source;
    await writeDist(createSnapshot(model), { out: traps.sites.dist });
    expect(JSON.parse((await source.answer('/products', query)).body)).toEqual({ count: 0 });
    // Only an author's timestamps change: the products list stays byte-identical, the authors'
    // query index does not.
    const p = model.projects[0]!;
    const later: ContentModel = {
      projects: [
        {
          ...p,
          collections: p.collections.map((c) =>
            c.slug === 'authors'
              ? { ...c, entries: c.entries.map((e) => (e.id === 'ann' ? { ...e, published_at: '2023-05-01T00:00:00.000Z' } : e)) }
              : c,
          ),
        },
      ],
    };
    const before = (await source.answer('/products', '')).body;
    await writeDist(createSnapshot(later), { out: traps.sites.dist });
    expect((await source.answer('/products', '')).body).toBe(before);
    expect(JSON.parse((await source.answer('/products', query)).body)).toEqual({ count: 2 });
  });
});
