// A pull from a server that lies: answers too large, lists that never end, names that would break
// the YAML written or the terminal, a base URL with a path. Each is refused with a message that
// names what is wrong (or, for the path, read right), and nothing is left behind.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { PullError } from '../../src/node/pull/model.js';
import { pull, type PullOptions } from '../../src/node/pull/pull.js';
import { tempDir } from './fixture.js';

type Route = (
  path: string,
  query: URLSearchParams,
) => { status?: number; body: string | Buffer; type?: string; location?: string } | undefined;

let server: Server | undefined;
let requests = 0;
let url = '';

/** A server on 127.0.0.1 answering by `route` (404 when it returns undefined). */
async function serve(route: Route): Promise<void> {
  requests = 0;
  server = createServer((req, res) => {
    requests++;
    const u = new URL(req.url ?? '/', 'http://x');
    const a = route(u.pathname, u.searchParams);
    if (!a) return void res.writeHead(404).end('{}');
    res
      .writeHead(a.status ?? 200, { 'Content-Type': a.type ?? 'application/json', ...(a.location ? { Location: a.location } : {}) })
      .end(a.body);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const json = (v: unknown) => ({ body: JSON.stringify(v) });
const project = (fields: unknown[] = [{ name: 'title', type: 'text' }], id = 'p') =>
  json({ data: { id, name: 'P', collections: [{ slug: 'posts', name: 'Posts', fields }] } });

/** A cqa project `p` with one collection and the given list and media answers. */
function cqaServer(list: Route, media: Route = () => json({ data: [], meta: { total: 0 } }), doc = project()): Route {
  return (path, q) => {
    if (path === '/api/p') return doc;
    if (path === '/api/p/posts') return list(path, q);
    if (path === '/api/p/project-media') return media(path, q);
    return undefined;
  };
}
const entry = (id: string) => ({ id, locale: 'en', title: id });
const options = (out: string, extra: Partial<PullOptions> = {}): PullOptions => ({
  baseUrl: url,
  project: 'p',
  dialect: 'cqa',
  out,
  pageSize: 2,
  tries: 1,
  ...extra,
});

async function refusal(o: PullOptions): Promise<string> {
  const err = await pull(o).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PullError);
  expect(readdirSync(o.out)).toEqual([]);
  return (err as Error).message;
}

describe('lists that would never end', () => {
  it('cqa: no numeric meta.total is refused at the first page', async () => {
    await serve(cqaServer(() => json({ data: [entry('a'), entry('b')], meta: {} })));
    expect(await refusal(options(tempDir()))).toMatch(/posts\?.*meta\.total.*non-negative integer/);
    expect(requests).toBeLessThan(5);
  });

  // Found from outside: the server's nonsense exited 2, as if the options were wrong (docs/pull.md: 1).
  it('the server answering nonsense is no usage error; the wrong dialect is', async () => {
    await serve(cqaServer(() => json({ data: [entry('a')], meta: { total: -5 } })));
    const nonsense = await pull(options(tempDir())).catch((e: unknown) => e);
    expect(nonsense).toMatchObject({ usage: false, message: expect.stringMatching(/non-negative integer/) });
    const dialect = await pull(options(tempDir(), { dialect: 'elmapi', collections: ['posts'] })).catch((e: unknown) => e);
    expect(dialect).toMatchObject({ usage: true, message: expect.stringMatching(/for a cqa API leave out --dialect/) });
  });

  it('cqa: the same full page for every offset stops at the second', async () => {
    await serve(cqaServer(() => json({ data: [entry('a'), entry('b')], meta: { total: 1e9 } })));
    expect(await refusal(options(tempDir()))).toMatch(/page repeats the one before/);
    expect(requests).toBeLessThan(5);
  });

  it('cqa: a short page ends the list even when meta.total says more', async () => {
    await serve(
      cqaServer((_, q) => json({ data: q.get('offset') === '0' ? [entry('a'), entry('b')] : [entry('c')], meta: { total: 1e9 } })),
    );
    const r = await pull(options(tempDir()));
    expect(r.project.collections[0]?.entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  // Found from outside: pages alternating between two sets of ids ended in EEXIST on a temporary path.
  it('cqa: pages that list an entry twice are refused, naming the file and the paging', async () => {
    await serve(
      cqaServer((_, q) =>
        json({ data: q.get('offset') === '2' ? [entry('c'), entry('a')] : [entry('a'), entry('b')], meta: { total: 4 } }),
      ),
    );
    expect(await refusal(options(tempDir()))).toBe(
      "the server's answers give posts/a.yaml twice (an entry listed twice, or pages that overlap): nothing is written; check the server's paging",
    );
  });

  it('elmapi: the same full page for every offset stops at the second', async () => {
    await serve((path) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([]);
      if (path === '/api/p/posts') return json([entry('a'), entry('b')]);
      return undefined;
    });
    expect(await refusal(options(tempDir(), { dialect: 'elmapi', collections: ['posts'] }))).toMatch(/page repeats the one before/);
    expect(requests).toBeLessThan(6);
  });
});

describe('answers too large', () => {
  it('a JSON document over the cap names the URL', async () => {
    await serve(
      cqaServer(() => json({ data: [], meta: { total: 0 } }), undefined, { body: `{"data":{"id":"p","pad":"${'x'.repeat(5000)}"}}` }),
    );
    expect(await refusal(options(tempDir(), { maxDocumentBytes: 1000 }))).toMatch(/\/api\/p: the answer is larger than 1000 bytes/);
  });

  // Found from outside: a media URL redirecting to itself said "cannot reach <base>: check BASE_URL".
  it('a media URL whose redirects never end is named, not BASE_URL', async () => {
    const media = () => json({ data: [{ id: 'loop.bin', full_url: '/files/loop.bin', size: 10 }], meta: { total: 1 } });
    const route = cqaServer(() => json({ data: [], meta: { total: 0 } }), media);
    await serve((path, q) => (path === '/files/loop.bin' ? { status: 302, body: '', location: '/files/loop.bin' } : route(path, q)));
    const message = await refusal(options(tempDir(), { media: true }));
    expect(message).toMatch(/\/files\/loop\.bin cannot be fetched \(.*redirect.*: its redirects go on and on\); the API answered before/);
    expect(message).not.toMatch(/BASE_URL/);
  });

  it('a media file larger than stated is cut off and not kept', async () => {
    const media = () => json({ data: [{ id: 'big.bin', full_url: '/files/big.bin', size: 10 }], meta: { total: 1 } });
    const route = cqaServer(() => json({ data: [], meta: { total: 0 } }), media);
    await serve((path, q) =>
      path === '/files/big.bin' ? { body: Buffer.alloc(4 * 1024 * 1024), type: 'application/octet-stream' } : route(path, q),
    );
    const out = tempDir();
    expect(await refusal(options(out, { media: true }))).toMatch(/media 'big\.bin': got more than 10 bytes/);
  });

  it('a media URL that is not http(s) is named', async () => {
    const media = () => json({ data: [{ id: 'x.txt', full_url: 'file:///etc/passwd', size: 10 }], meta: { total: 1 } });
    await serve(cqaServer(() => json({ data: [], meta: { total: 0 } }), media));
    expect(await refusal(options(tempDir(), { media: true }))).toMatch(/media 'x\.txt': its URL file:\/\/\/etc\/passwd is not http\(s\)/);
  });

  it('a media name longer than a file system takes is refused before any download (found from outside: ENAMETOOLONG)', async () => {
    const name = `${'a'.repeat(300)}.png`;
    const media = () => json({ data: [{ id: name, full_url: '/m.png', size: 3 }], meta: { total: 1 } });
    const route = cqaServer(() => json({ data: [], meta: { total: 0 } }), media);
    let downloads = 0;
    await serve((path, q) => {
      if (path !== '/m.png') return route(path, q);
      downloads++;
      return { body: 'abc' };
    });
    expect(await refusal(options(tempDir(), { media: true }))).toMatch(
      /^media 'a{80}…': a name too long to write \(at most 255 bytes a segment, 1,024 in all\)$/,
    );
    expect(downloads).toBe(0);
  });

  it('elmapi: a bad percent-escape in a media URL names the file', async () => {
    await serve((path) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([{ id: 1, file_name: 'a.png', full_url: '/media/p/%E0%A4/a.png', size: 1 }]);
      return undefined;
    });
    expect(await refusal(options(tempDir(), { dialect: 'elmapi', collections: ['posts'] }))).toMatch(
      /media "a\.png": its full_url .* bad percent-escape/,
    );
  });
});

describe('server text written or printed', () => {
  it('a project answer for another id is refused', async () => {
    await serve(cqaServer(() => json({ data: [], meta: { total: 0 } }), undefined, project(undefined, 'p\n- evil: 1')));
    expect(await refusal(options(tempDir()))).toMatch(/the answer is for project "p\\n- evil: 1", not 'p'/);
  });

  it('a field name that is not an identifier is refused, naming the field', async () => {
    await serve(cqaServer(() => json({ data: [], meta: { total: 0 } }), undefined, project([{ name: 'a: {b', type: 'text' }])));
    expect(await refusal(options(tempDir()))).toMatch(/collection 'posts', field "a: \{b": 'a: \{b' is not a valid field name/);
  });

  it('elmapi: {start, end} of other than dates is a group, and objects with no key are json: the pulled tree loads', async () => {
    await serve((path) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([]);
      if (path === '/api/p/posts') return json([{ id: 1, locale: 'en', span: { start: 'x', end: 'y' }, none: {} }]);
      return undefined;
    });
    const out = tempDir();
    const r = await pull(options(out, { dialect: 'elmapi', collections: ['posts'] }));
    expect(r.project.collections[0]?.fields.map((f) => [f.name, f.type, f.range === true])).toEqual([
      ['span', 'group', false],
      ['none', 'json', false],
    ]);
    expect((await loadContent(out)).issues).toEqual([]);
  });

  it("a group child's name is checked too (elmapi names them by the keys of its objects)", async () => {
    await serve((path) => {
      if (path === '/api/p') return json({ uuid: 'p', name: 'P' });
      if (path === '/api/p/project-media') return json([]);
      if (path === '/api/p/posts') return json([{ id: 1, locale: 'en', meta: { ok: 1, '../x': 2 } }]);
      return undefined;
    });
    expect(await refusal(options(tempDir(), { dialect: 'elmapi', collections: ['posts'] }))).toMatch(
      /collection 'posts', field "meta\.\.\.\/x": '\.\.\/x' is not a valid field name/,
    );
  });

  it('a base URL with a path keeps it as a prefix', async () => {
    const route = cqaServer(() => json({ data: [entry('a')], meta: { total: 1 } }));
    await serve((path, q) => (path.startsWith('/prefix/') ? route(path.slice('/prefix'.length), q) : undefined));
    const r = await pull(options(tempDir(), { baseUrl: `${url}/prefix` }));
    expect(r.project.collections[0]?.entries).toHaveLength(1);
  });

  it('the CLI prints server text with control characters escaped', async () => {
    await serve(() => ({ status: 500, body: 'boom \x1b]0;pwned\x07 \x9b31m' }));
    const child = spawn(process.execPath, ['bin/cqa.js', 'pull', url, '--project', 'p', '--out', join(tempDir(), 'c')], {
      env: { ...process.env, CQA_TOKEN: '' },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(1);
    expect(err).toMatch(/HTTP 500/);
    expect(err).toContain('\\u001b]0;pwned\\u0007');
    expect(err).not.toMatch(/[\x07\x1b\x9b]/);
  });
});

describe('collection slugs the server lists', () => {
  // `media`: written to <project>/media/, its entries became media files, served without a token (found from outside).
  // `Media` too: the same folder on macOS and Windows (found from outside).
  for (const slug of ['../../escape', 'media', 'Media']) {
    it(`a slug no tree can hold (${slug}) is refused before any request is built with it, naming the server`, async () => {
      const asked: string[] = [];
      const doc = json({ data: { id: 'p', name: 'P', collections: [{ slug, name: 'X', fields: [{ name: 'title', type: 'text' }] }] } });
      await serve((path) => {
        asked.push(path);
        return path === '/api/p' ? doc : undefined;
      });
      expect(await refusal(options(tempDir()))).toMatch(
        /^the server lists a collection that no content tree can hold: collection slug .*; pull the others with --collections <slugs>$/,
      );
      expect(asked).toEqual(['/api/p']);
    });
  }
});

describe('answers nested deeper than content may be', () => {
  // Found from outside: 100,000 levels stopped the pull with only "Maximum call stack size exceeded".
  for (const depth of [200, 100_000]) {
    it(`a value ${depth} levels deep stops the pull naming the answer and the limit`, async () => {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const project = json({
        data: { id: 'p', name: 'P', collections: [{ slug: 'posts', name: 'Posts', fields: [{ name: 'x', type: 'json' }] }] },
      });
      await serve((path) =>
        path === '/api/p'
          ? project
          : path.startsWith('/api/p/posts')
            ? { body: `{"data":[{"id":"a","x":${deep}}],"meta":{"total":1}}` }
            : undefined,
      );
      expect(await refusal(options(tempDir()))).toMatch(
        /\/api\/p\/posts\?.*: the answer for collection 'posts' nests more than 110 levels deep; a content file may nest 100 \(no tree can hold it\)$/,
      );
    });
  }
});
