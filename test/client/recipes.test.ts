// docs/client.md, tested: its recipe files are shown verbatim, the static-site recipe runs against
// `cqa preview`, its query examples run in both modes, and both modes give the same answers and
// the same errors through every method (the contract-test recipe runs as a test of its own:
// docs/examples/contract.test.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { ClientError, createClient, type Client } from '../../src/core/client/index.js';
import { serveBoth, serverAnswer, type Sites } from './fixture.js';

const DOC = readFileSync('docs/client.md', 'utf8');
let sites: Sites;
let server: Client;
let local: Client;

beforeAll(async () => {
  sites = await serveBoth(await buildSnapshot({ content: 'content' }));
  server = createClient({ baseUrl: sites.server.url, project: 'demo', token: 'demo-token', mode: 'server' });
  local = createClient({ baseUrl: sites.preview.url, project: 'demo', mode: 'static' });
});
afterAll(() => sites?.close());

/** The settled value of `run` as data: the answer, or the error's fields. */
async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    return { status: e.status, code: e.code, detail: e.detail, param: e.param };
  }
}

describe('docs/client.md', () => {
  it('shows every recipe file of docs/examples verbatim (here, or on the page of its topic)', () => {
    const pages = readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(join('docs', f), 'utf8'));
    for (const file of readdirSync('docs/examples')) {
      // Less the line naming the page that shows it (test/docs/examples-shown.test.ts checks that page).
      const text = readFileSync(join('docs/examples', file), 'utf8')
        .replace(/^\/\/ docs\/\S+ shows this file\.\n/m, '')
        .trim();
      expect(
        pages.some((page) => page.includes(text)),
        file,
      ).toBe(true);
    }
  });

  it('static-site recipe: answers from the static tree what the server answers', async () => {
    const { latestGermanPosts } = (await import('../../docs/examples/static-site.mjs' as string)) as {
      latestGermanPosts: (baseUrl: string) => Promise<{ titles: string[]; total: number; travel: number }>;
    };
    const got = await latestGermanPosts(sites.preview.url);
    const list = JSON.parse(
      (await serverAnswer(sites, 'demo', '/posts', 'where[locale]=de&sort=published_at:desc&limit=3', 'demo-token')).body,
    );
    const travel = JSON.parse(
      (await serverAnswer(sites, 'demo', '/posts', 'where[tags][in][]=travel&where[tags][in][]=hiking&count', 'demo-token')).body,
    );
    expect(got).toEqual({ titles: list.data.map((p: { title: string }) => p.title), total: list.meta.total, travel: travel.count });
    expect(got.titles).toHaveLength(3);
    expect(got.travel).toBeGreaterThan(0);
  });

  it('query examples: each runs, with the same answer in both modes', async () => {
    const examples = [...DOC.matchAll(/```js\n(await cms\.[\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(examples.length).toBeGreaterThan(0);
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      arg: string,
      body: string,
    ) => (cms: Client) => Promise<unknown>;
    for (const code of examples) {
      const run = new AsyncFunction('cms', `return ${code.trim().replace(/;$/, '')}`);
      const [a, b] = await Promise.all([outcome(() => run(server)), outcome(() => run(local))]);
      expect(b, code).toEqual(a);
      expect(a, code).toHaveProperty('ok');
    }
  });
});

describe('server mode = static mode, method by method', () => {
  const calls: [string, (c: Client) => Promise<unknown>][] = [
    ['project', (c) => c.project()],
    [
      'entries',
      (c) =>
        c.entries('posts', {
          where: { tags: { in: ['travel', 'food'] }, or: [{ featured: true }] },
          sort: ['reading_time:desc', 'id'],
          limit: 4,
          timestamps: true,
        }),
    ],
    ['entries, raw string', (c) => c.entries('products', 'where[price][between]=10,40&fields=name,price')],
    ['entries, groups', (c) => c.entries('products', { where: [{ tags: 'sale' }, { tags: 'eco' }], exclude: ['description'] })],
    [
      'whereRelation',
      (c) => c.entries('posts', { whereRelation: { author: { role: { in: ['editor', 'writer'] } } }, fields: ['title', 'author'] }),
    ],
    ['first', (c) => c.first('posts', { where: { locale: 'de' }, sort: 'published_at', offset: 1 })],
    ['first, none', (c) => c.first('posts', { where: { title: 'no such title' } })],
    ['count', (c) => c.count('products', { where: { in_stock: true, price: { lt: 30 } } })],
    ['entry', (c) => c.entry('posts', 'hello-world', { fields: ['title'], timestamps: true })],
    ['entry, missing', (c) => c.entry('posts', 'no-such-post')],
    ['media', (c) => c.media({ where: { mime_type: { like: 'image/%' } }, sort: 'size:desc', limit: 2 })],
    ['unknown field', (c) => c.entries('posts', { where: { prise: 1 } as never })],
    ['wrong operator', (c) => c.entries('products', { where: { price: { like: '1%' } } as never })],
    ['unknown collection', (c) => c.entries('postz')],
    ['limit over the maximum', (c) => c.entries('posts', { limit: 5000 })],
  ];
  for (const [name, call] of calls) {
    it(name, async () => {
      const [a, b] = await Promise.all([outcome(() => call(server)), outcome(() => call(local))]);
      expect(b).toEqual(a);
    });
  }

  it('refuses a query it cannot write, before any request', async () => {
    await expect(local.entries('posts', { where: { tags: { in: [] } } })).rejects.toThrow(/where\[tags\]\[in\]: give at least one value/);
    expect(() => createClient({ baseUrl: '', project: 'demo', mode: 'edge' as never })).toThrow(/mode must be 'server' or 'static'/);
  });
});
