// The client pointed at the wrong kind of place, or asked for what its mode cannot give: each
// error says what it looks like and what to use instead — a static client at an API server, drafts
// from a static tree, a server-mode client whose server is not there.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient, StaticTreeError } from '../../src/core/client/index.js';
import { writeDist } from '../../src/node/output/dist.js';
import { type RunningServer, startServer } from '../../src/node/server/start.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    content: {
      'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
      'shop/products/_collection.yaml': { name: 'Products', fields: { title: 'text' } },
      'shop/products/mug.yaml': 'title: Mug\n',
      'private/project.yaml': 'id: private\nname: Private\n',
      'private/notes/_collection.yaml': { name: 'Notes', fields: { title: 'text' } },
      'private/notes/a.yaml': 'title: A\n',
    },
    journal: 0,
  });
});
afterAll(() => server.close());

/** A static host of the tree `out` as cqa build wrote it: the file at the path (an API path's index.json), whatever the query. */
const staticHost = (out: string) => async (url: string | URL | Request) => {
  const path = join(out, decodeURIComponent(new URL(String(url)).pathname));
  const file = [join(path, 'index.json'), path].find((f) => existsSync(f) && !statSync(f).isDirectory());
  return file ? new Response(readFileSync(file), { status: 200 }) : new Response('', { status: 404 });
};

describe('a static client at an API server', () => {
  it('a project that needs a token: the 401 is said to be an API server, not a host failing for a moment', async () => {
    const cms = createClient({ baseUrl: server.url, project: 'private', mode: 'static' });
    const error = await cms.entries('notes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaticTreeError);
    expect((error as Error).message).toBe(
      `${server.url}/api/private: the host answered 401 (it asks for a token): a static tree needs none, so this looks like an API server (cqa serve, startServer(), an edge worker) — use mode 'server' with a token there; mode 'static' reads a tree that cqa build wrote, on a static host or cqa preview`,
    );
  });

  it('a public project: the missing .query document names the mix-up too', async () => {
    const cms = createClient({ baseUrl: server.url, project: 'shop', mode: 'static' });
    await expect(cms.entries('products')).rejects.toThrow(
      `/api/shop/products.query is missing from the static tree: rebuild it with cqa build; or, if ${server.url} is an API server (cqa serve, startServer(), an edge worker) rather than a static tree, use mode 'server'`,
    );
  });
});

describe('drafts from a static tree', () => {
  it('says a static tree holds none, not to get a token with the drafts scope', async () => {
    // The tree as cqa build writes it, read by a fetch of our own (no host needed for this).
    const out = mkdtempSync(join(tmpdir(), 'cqa-wrong-place-'));
    try {
      await writeDist(server.snapshot, { out });
    } catch (err) {
      rmSync(out, { recursive: true, force: true });
      throw err;
    }
    const cms = createClient({
      baseUrl: 'https://cdn.example',
      project: 'shop',
      mode: 'static',
      token: 'ignored',
      fetch: staticHost(out),
    });
    const error = await cms.entries('products', { state: 'with_draft' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ status: 403, code: 'drafts_scope_required', param: 'state' });
    expect((error as ClientError).detail).toMatch(
      /^state=with_draft: a static tree holds no drafts .*use state=published, or mode 'server' against cqa serve/,
    );
    expect((error as ClientError).detail).not.toMatch(/a token with the 'drafts' scope; use/);
    rmSync(out, { recursive: true, force: true });
  });
});

describe('a static client where no tree is published', () => {
  // Found from outside: vite preview answers an API path with an empty 404, and so does a wrong
  // baseUrl on most hosts: the client said "project 'demo' not found".
  it('says that no build is there (a host answering 404 to everything), and still that a project is not found in a real tree', async () => {
    const nothing = createClient({
      baseUrl: 'https://cdn.example/contnt',
      project: 'shop',
      mode: 'static',
      fetch: async () => new Response('', { status: 404 }),
    });
    await expect(nothing.entries('products')).rejects.toThrow(
      new StaticTreeError(
        'no cqa build at https://cdn.example/contnt: /api/shop and /manifest.json answered 404 — check baseUrl, and that the host answers each API path with its index.json (docs/hosting.md)',
      ),
    );
    const out = mkdtempSync(join(tmpdir(), 'cqa-wrong-place-'));
    try {
      await writeDist(server.snapshot, { out });
      const other = createClient({ baseUrl: 'https://cdn.example', project: 'shopp', mode: 'static', fetch: staticHost(out) });
      await expect(other.entries('products')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('a server-mode client at a static tree', () => {
  // Found from outside: pointed at a static host, entries({ limit: 1 }) resolved to the whole list
  // and count() said to pass dialect: 'elmapi' (cqa), returned the list as a number (elmapi), or
  // said a singleton answers its one entry (elmapi3).
  const UUID = '7a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
  it.each([
    ['cqa', 'shop', 'id: shop\n'],
    ['elmapi', 'shop', 'id: shop\ndialect: elmapi\n'],
    ['elmapi3', UUID, `id: ${UUID}\ndialect: elmapi3\n`],
  ] as const)('%s: says the server ignored the query, as a static host does, and to use mode: static', async (dialect, project, head) => {
    const shop = await startServer({
      content: {
        'shop/project.yaml': `${head}name: Shop\npublic: true\n`,
        'shop/products/_collection.yaml': { name: 'Products', fields: { title: 'text' } },
        'shop/products/cup.yaml': 'title: Cup\n',
        'shop/products/mug.yaml': 'title: Mug\n',
      },
      journal: 0,
    });
    const out = mkdtempSync(join(tmpdir(), 'cqa-wrong-place-'));
    try {
      await writeDist(shop.snapshot, { out });
      const cms = createClient({
        baseUrl: 'https://cdn.example',
        project,
        mode: 'server',
        dialect: dialect as 'cqa', // one overload per dialect: the calls below are the same in each
        fetch: staticHost(out), // the file at the path, whatever the query
      });
      const ignored = "the server ignored the query, as a static host does; for a static tree (cqa build) use mode: 'static'";
      await expect(cms.entries('products', { limit: 1 })).rejects.toThrow(`asked for at most 1 entries, got 2: ${ignored}`);
      await expect(cms.first('products', { where: { title: 'Mug' } })).rejects.toThrow(`asked for at most 1 entries, got 2: ${ignored}`);
      await expect(cms.count('products')).rejects.toThrow(`the answer to count is a list: ${ignored}`);
      // Without a limit the whole list is what was asked for.
      expect(listed(await cms.entries('products'))).toHaveLength(2);
      // Nor with a limit the server ignores (elmapi3 a limit under 1; found from outside: -1 was an alarm).
      if (dialect === 'elmapi3') expect(listed(await cms.entries('products', { limit: -1 }))).toHaveLength(2);
    } finally {
      rmSync(out, { recursive: true, force: true });
      await shop.close();
    }
  });
});

/** The entries of a list answer of any dialect. */
const listed = (answer: unknown) => (Array.isArray(answer) ? answer : (answer as { data: unknown[] }).data);

describe('a server-mode client whose server is not there', () => {
  it('rejects with a ClientError naming the URL and the cause, not a bare TypeError: fetch failed', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const cms = createClient({ baseUrl: `http://127.0.0.1:${port}`, project: 'shop', mode: 'server' });
    const error = await cms.entries('products').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ status: 0, code: 'unreachable' });
    expect((error as ClientError).message).toMatch(
      new RegExp(
        `^0 unreachable: could not fetch http://127\\.0\\.0\\.1:${port}/api/shop/products \\(fetch failed: .*ECONNREFUSED.*\\): no server answered at http://127\\.0\\.0\\.1:${port}; is it running`,
      ),
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('wraps the failure of a fetch of its own as well', async () => {
    const cms = createClient({
      baseUrl: 'http://127.0.0.1:1',
      project: 'shop',
      mode: 'server',
      fetch: async () => {
        throw new Error('offline for this test');
      },
    });
    await expect(cms.entries('products')).rejects.toMatchObject({ code: 'unreachable', message: /\(offline for this test\)/ });
  });
});

describe("a client without dialect: 'elmapi3' at an elmapi3 project (found from outside: told to ask /api/… with a header)", () => {
  it("says to pass dialect: 'elmapi3' to createClient, from the code the server's 404 carries", async () => {
    const UUID = '7a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const shop = await startServer({
      content: {
        'shop/project.yaml': `id: ${UUID}\ndialect: elmapi3\nname: Shop\npublic: true\n`,
        'shop/products/_collection.yaml': { name: 'Products', fields: { title: 'text' } },
        'shop/products/mug.yaml': 'title: Mug\n',
      },
      journal: 0,
    });
    try {
      // The server's answer keeps v3's shape ({message}) and adds the code.
      const raw = await fetch(`${shop.url}/api/${UUID}/products`);
      expect(raw.status).toBe(404);
      expect(await raw.json()).toEqual({ message: expect.stringContaining('answers as ElmapiCMS v3'), code: 'elmapi3_project' });
      const cms = createClient({ baseUrl: shop.url, project: UUID, mode: 'server' });
      const error = await cms.entries('products').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientError);
      expect(error).toMatchObject({
        status: 404,
        code: 'elmapi3_project',
        detail: `project '${UUID}' is an elmapi3 project: pass dialect: 'elmapi3' to createClient`,
      });
      const v3 = createClient({ baseUrl: shop.url, project: UUID, mode: 'server', dialect: 'elmapi3' });
      expect(await v3.entries('products')).toHaveLength(1);
    } finally {
      await shop.close();
    }
  });
});

describe('a server-mode client whose baseUrl ends in /api (found from outside: "project \'api\' not found")', () => {
  it('says that the client adds /api itself, and which baseUrl to give', async () => {
    const cms = createClient({ baseUrl: `${server.url}/api`, project: 'shop', mode: 'server' });
    const error = (await cms.count('products').catch((e: unknown) => e)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.detail).toMatch(new RegExp(`; baseUrl ends in /api, which the client adds itself: give '${server.url}'$`));
    expect(await createClient({ baseUrl: server.url, project: 'shop', mode: 'server' }).count('products')).toBe(1);
  });
});
