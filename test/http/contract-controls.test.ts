// Contract-test controls, round two (issue 24, item 4): in-memory fixtures validated exactly like
// files, per-route overrides, journal records with the answer, and waitForRequest.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { ContentError } from '../../src/node/content/issues.js';
import { RESPONSE_BODY_MAX } from '../../src/core/http/journal.js';
import { type RunningServer, startServer } from '../../src/node/server/start.js';

/** A small public project with one collection. */
const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': { name: 'Products', fields: { title: { type: 'text', required: true }, price: 'number' } },
  'shop/products/mug.yaml': 'title: Mug\nprice: 12\n',
  'shop/products/plate.yaml': 'title: Plate\nprice: 20\n',
};
const JSON_ACCEPT = { accept: 'application/json' };

/** The issues of loading `files` from a real folder. */
async function issuesOnDisk(files: Record<string, string>): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'cqa-disk-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return await buildSnapshot({ content: dir }).then(
      () => 'built',
      (e: ContentError) => e.issues,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('in-memory fixtures', () => {
  it('startServer serves a tree given as an object, and removes its folder on close', async () => {
    const api = await startServer({ content: TREE });
    try {
      const res = await fetch(`${api.url}/api/shop/products?sort=price:desc`, { headers: JSON_ACCEPT });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { id: string; title: string }[] };
      expect(body.data.map((e) => e.id)).toEqual(['plate', 'mug']);
    } finally {
      await api.close();
    }
  });

  it('gives the errors of files on disk: same messages, files, lines and fields', async () => {
    const broken = {
      'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
      'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: { type: text, required: true }\n  price: number\n',
      'shop/products/mug.yaml': 'title: Mug\nprice: twelve\n',
      'shop/products/plate.yaml': 'price: 20\ncolour: red\n',
      'shop/products/bad.yaml': 'title: [unclosed\n',
    };
    const onDisk = await issuesOnDisk(broken);
    expect(Array.isArray(onDisk) && onDisk.length).toBeGreaterThanOrEqual(3);
    const fromTree = await buildSnapshot({ content: broken }).then(
      () => 'built',
      (e: ContentError) => e.issues,
    );
    expect(fromTree).toEqual(onDisk);
    const fromServer = await startServer({ content: broken }).then(
      async (s) => {
        await s.close();
        return 'started';
      },
      (e: ContentError) => e.issues,
    );
    expect(fromServer).toEqual(onDisk);
  });

  it('leaves no temp folder behind when the tree has errors', () =>
    withOwnTmp(async () => {
      await expect(startServer({ content: { 'x/project.yaml': 'id: [' } })).rejects.toBeInstanceOf(ContentError);
      await expect(buildSnapshot({ content: { 'x/project.yaml': 'id: [' } })).rejects.toBeInstanceOf(ContentError);
      expect(listTrees()).toEqual([]);
    }));

  it.each([
    ['../escape.yaml', /the path "\.\.\/escape\.yaml" cannot be used: it has an empty, '\.' or '\.\.' segment/],
    ['/etc/passwd', /it is absolute; give it relative to the content root/],
    ['a\\b.yaml', /it has a '\\'; separate folders with '\/'/],
    ['a//b.yaml', /empty, '\.' or '\.\.' segment/],
  ])('refuses the path %s with a message saying what to write', async (path, message) => {
    await expect(startServer({ content: { [path]: 'x: 1\n' } })).rejects.toThrow(message);
    await expect(buildSnapshot({ content: { [path]: 'x: 1\n' } })).rejects.toThrow(message);
  });

  it('refuses a tree over 100,000 files or 64 MiB before writing anything', () =>
    withOwnTmp(async () => {
      const many = Object.fromEntries(Array.from({ length: 100_001 }, (_, i) => [`x/${i}.md`, '']));
      await expect(startServer({ content: many })).rejects.toThrow(
        'content tree: 100001 files is more than 100000; write a tree that large to disk',
      );
      const big = { 'x/media/big.bin': new Uint8Array(64 * 1024 * 1024 + 1) };
      await expect(buildSnapshot({ content: big })).rejects.toThrow(
        'content tree: 67108865 bytes is more than 67108864; write a tree that large to disk',
      );
      expect(listTrees()).toEqual([]);
    }));

  it('refuses values that are no file, and watch on a tree', async () => {
    await expect(startServer({ content: { 'a/b.md': { title: 'x' } } as never })).rejects.toThrow(
      'content tree: "a/b.md" must be a string or a Uint8Array, got object',
    );
    await expect(startServer({ content: { 'a/b.yaml': 5 } as never })).rejects.toThrow(
      'content tree: "a/b.yaml" must be a string or a Uint8Array, or an object (written as YAML), got number',
    );
    await expect(startServer({ content: TREE, watch: true })).rejects.toThrow(/watch needs a content folder/);
  });
});

/** The temp folders of in-memory trees now present in the temp folder. */
function listTrees(): string[] {
  return readdirSync(tmpdir()).filter((d) => d.startsWith('cqa-tree-'));
}

/**
 * Runs `fn` with a temp folder of its own (TMPDIR, which os.tmpdir() reads at each call): another
 * test file (or process) writing a tree at the same moment made a count of the shared one wrong
 * (found when several suites ran at once: 2 folders where 1 was made).
 */
async function withOwnTmp(fn: () => Promise<void>): Promise<void> {
  const own = mkdtempSync(join(tmpdir(), 'cqa-own-tmp-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    await fn();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(own, { recursive: true, force: true });
  }
}

describe('overrides, the journal of answers, waitForRequest', () => {
  let api: RunningServer;
  beforeAll(async () => {
    api = await startServer({ content: TREE });
  });
  afterAll(() => api.close());
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${api.url}${path}`, { ...init, headers: { ...JSON_ACCEPT, ...(init.headers as Record<string, string>) } });

  it('answers a route with a canned answer until reset()', async () => {
    api.override('GET', '/api/shop/products', { status: 500, headers: { 'retry-after': '3' }, body: { title: 'boom' } });
    const res = await get('/api/shop/products?limit=1');
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ title: 'boom' });
    // Another method or path is not taken.
    expect((await get('/api/shop/products/mug')).status).toBe(200);
    api.reset();
    expect((await get('/api/shop/products?limit=1')).status).toBe(200);
  });

  it('gives a function the request and its :params; undefined falls through to the API', async () => {
    const seen: string[] = [];
    api.override('GET', '/api/shop/products/:id', (req) => {
      seen.push(`${req.params.id} ${req.query.fields ?? ''}`);
      return req.params.id === 'mug' ? { body: { data: { id: 'mug', title: 'Overridden' } } } : undefined;
    });
    try {
      expect(await (await get('/api/shop/products/mug?fields=title')).json()).toEqual({ data: { id: 'mug', title: 'Overridden' } });
      const plate = await get('/api/shop/products/plate');
      expect(plate.status).toBe(200);
      expect(((await plate.json()) as { data: { title: string } }).data.title).toBe('Plate');
      expect(seen).toEqual(['mug title', 'plate ']);
    } finally {
      api.reset();
    }
  });

  it('a pattern with a trailing slash matches the path without it, and the other way round, as the API answers both', async () => {
    api.override('GET', '/api/shop/products/', { status: 204 });
    try {
      expect((await get('/api/shop/products')).status).toBe(204);
      expect((await get('/api/shop/products/')).status).toBe(204);
    } finally {
      api.reset();
    }
  });

  it('tries the latest override first; `*` takes any method', async () => {
    api.override('*', '/api/shop/*', { status: 503 });
    api.override('GET', '/api/shop/products', { status: 204 });
    try {
      expect((await get('/api/shop/products')).status).toBe(204);
      expect((await get('/api/shop/products/mug')).status).toBe(503);
      expect((await get('/api/shop/products/mug', { method: 'HEAD' })).status).toBe(503);
    } finally {
      api.reset();
    }
  });

  it('refuses a bad override when it is set, and answers 500 for a function that throws', async () => {
    expect(() => api.override('GET', 'api/shop', {})).toThrow(
      "override: the path pattern \"api/shop\" must start with '/', e.g. '/api/demo/posts/:id'",
    );
    // A query or fragment in a pattern would never match (found from outside: it was accepted).
    expect(() => api.override('GET', '/api/shop/tags?x=1', {})).toThrow(
      'override: the path pattern "/api/shop/tags?x=1" holds a \'?\': a pattern matches the path alone, so that would never match; use "/api/shop/tags" and tell requests apart in an answer function by request.query',
    );
    expect(() => api.override('GET', '/api/shop#x', {})).toThrow(/holds a '#'/);
    expect(() => api.override('GET', '/api/shop', { status: 99 })).toThrow(
      'override GET /api/shop: status must be an integer from 200 to 599, got 99',
    );
    expect(() => api.override('GET /x', '/api/shop', {})).toThrow(/the method must be GET, HEAD, … or '\*'/);
    // Found from outside: a method no request has, a misspelled key and a fetch Response were taken.
    expect(() => api.override('FETCH', '/api/shop', {})).toThrow(`override: the method must be GET, HEAD, … or '*', got "FETCH"`);
    expect(() => api.override('GET', '/api/shop', { stauts: 500 } as never)).toThrow(
      "override GET /api/shop: unknown answer key 'stauts'; did you mean 'status'? (the answer keys: body, headers, status)",
    );
    expect(() => api.override('GET', '/api/shop', new Response('x', { status: 502 }) as never)).toThrow(
      'override GET /api/shop: an answer is a plain object { status?, headers?, body? }, not a Response',
    );
    await expect(api.waitForRequest(() => true, { timout: 100 } as never)).rejects.toThrow(
      "waitForRequest: unknown option 'timout'; did you mean 'timeout'? (the options: timeout)",
    );
    const errors: unknown[] = [];
    const quiet = await startServer({ content: TREE, onError: (e) => errors.push(e) });
    try {
      quiet.override('GET', '/api/shop/products', () => {
        throw new Error('test bug');
      });
      expect((await fetch(`${quiet.url}/api/shop/products`, { headers: JSON_ACCEPT })).status).toBe(500);
      expect(String(errors[0])).toBe('Error: test bug');
      // A header a response cannot carry: refused when set, and from a function a 500 — the
      // process hosting the server stays up (it used to die on writeHead's ERR_INVALID_CHAR).
      expect(() => quiet.override('GET', '/x', { headers: { 'x-a': 'b\r\nset-cookie: pwn=1' } })).toThrow(
        'override GET /x: the value of header x-a holds a line break or NUL; one line only',
      );
      expect(() => quiet.override('GET', '/x', { headers: { 'bad name': 'v' } })).toThrow(
        /header name "bad name" is not a valid HTTP header name/,
      );
      expect(() => quiet.override('GET', '/x', { headers: { 'Transfer-Encoding': 'chunked' }, body: 'x' })).toThrow(
        'override GET /x: header Transfer-Encoding is set by the server from the body; leave it out',
      );
      quiet.override('GET', '/api/shop/collections', () => ({ headers: { 'x-a': 'b\nc' } }));
      expect((await fetch(`${quiet.url}/api/shop/collections`, { headers: JSON_ACCEPT })).status).toBe(500);
      expect(String(errors[1])).toMatch(/the value of header x-a holds a line break/);
      expect((await fetch(`${quiet.url}/api/shop`, { headers: JSON_ACCEPT })).status).not.toBe(500);
    } finally {
      await quiet.close();
    }
  });

  it('journals each answer: status, headers and the body before compression', async () => {
    api.clearRequests();
    const res = await get('/api/shop/products?sort=title:asc', { headers: { 'accept-encoding': 'br' } });
    const text = await res.text();
    const [r] = api.requests();
    expect(r?.response?.status).toBe(200);
    expect(r?.response?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r?.response?.truncated).toBe(false);
    expect(JSON.parse(r?.response?.body as string)).toEqual(JSON.parse(text));
    await get('/api/shop/nothing');
    expect(api.requests()[1]?.response).toMatchObject({
      status: 404,
      headers: { 'content-type': 'application/problem+json; charset=utf-8' },
    });
    expect(JSON.parse(api.requests()[1]?.response?.body as string)).toMatchObject({ status: 404 });
  });

  it('gives onRequest the same record, whose answer serializes as plain data', async () => {
    const seen: unknown[] = [];
    const s = await startServer({ content: TREE, onRequest: (r) => seen.push(JSON.parse(JSON.stringify(r))) });
    try {
      const text = await (await fetch(`${s.url}/api/shop/products/mug`, { headers: JSON_ACCEPT })).text();
      await s.waitForRequest((r) => r.path === '/api/shop/products/mug');
      expect((seen[0] as { response: unknown }).response).toEqual({
        status: 200,
        headers: expect.objectContaining({ 'content-type': 'application/json; charset=utf-8' }),
        body: text,
        truncated: false,
      });
      expect(JSON.parse(JSON.stringify(s.requests()[0]))).toEqual(seen[0]);
    } finally {
      await s.close();
    }
  });

  it('cuts a journaled body at RESPONSE_BODY_MAX bytes and says so', async () => {
    const big = 'x'.repeat(RESPONSE_BODY_MAX * 2);
    api.override('GET', '/api/shop/big', { body: big, headers: { 'content-type': 'text/plain' } });
    try {
      api.clearRequests();
      expect((await (await get('/api/shop/big')).text()).length).toBe(big.length);
      const r = api.requests()[0];
      expect(r?.response?.truncated).toBe(true);
      expect(r?.response?.body?.length).toBe(RESPONSE_BODY_MAX);
    } finally {
      api.reset();
    }
  });

  it('journals bytes that are no UTF-8 as no body, and a cut inside a character without it (found from outside: U+FFFD soup)', async () => {
    api.override('GET', '/api/shop/bytes', { body: new Uint8Array([0xff, 0xfe, 0]) });
    // 'é' is two bytes: the limit falls inside the last one.
    const accents = `a${'é'.repeat(RESPONSE_BODY_MAX)}`;
    api.override('GET', '/api/shop/accents', { body: accents, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    try {
      api.clearRequests();
      expect(new Uint8Array(await (await get('/api/shop/bytes')).arrayBuffer())).toEqual(new Uint8Array([0xff, 0xfe, 0]));
      await (await get('/api/shop/accents')).text();
      const [bytes, cut] = api.requests();
      expect(bytes?.response?.body).toBeNull();
      expect(cut?.response).toMatchObject({ truncated: true });
      expect(cut?.response?.body).toBe(accents.slice(0, RESPONSE_BODY_MAX / 2));
    } finally {
      api.reset();
    }
  });

  it('waitForRequest resolves with a journaled request, or the next one that matches', async () => {
    api.clearRequests();
    await get('/api/shop/products/mug');
    expect((await api.waitForRequest((r) => r.path === '/api/shop/products/mug')).status).toBe(200);
    const waiting = api.waitForRequest((r) => r.query.limit === '1', { timeout: 10_000 });
    await get('/api/shop/products?limit=2');
    await get('/api/shop/products?limit=1');
    const r = await waiting;
    expect(r.url).toBe('/api/shop/products?limit=1');
    expect(r.response?.status).toBe(200);
  });

  it('waitForRequest rejects after its timeout, naming the predicate and how many it turned down', async () => {
    api.clearRequests();
    await get('/api/shop/products');
    const waiting = api.waitForRequest(
      function isPost(r) {
        return r.method === 'POST';
      },
      { timeout: 300 },
    );
    await get('/api/shop/products/mug');
    await expect(waiting).rejects.toThrow("waitForRequest: no request matched 'isPost' within 300 ms; it returned false for 2 requests");
    await expect(api.waitForRequest(() => true, { timeout: -1 })).rejects.toThrow(
      'waitForRequest: timeout must be an integer from 0 to 600000 (ms), got -1',
    );
  });

  it('close() rejects the waits still open, and then leaves no timer', async () => {
    const s = await startServer({ content: TREE });
    const waiting = s.waitForRequest(() => false, { timeout: 600_000 }).catch((e: Error) => e);
    await s.close();
    expect(String(await waiting)).toBe('Error: waitForRequest: the server was closed');
    // A wait started after close() is said at once (found from outside: it waited its whole timeout),
    // unless the journal already holds its request.
    const started = Date.now();
    await expect(s.waitForRequest(() => false, { timeout: 600_000 })).rejects.toThrow('waitForRequest: the server was closed');
    expect(Date.now() - started).toBeLessThan(60_000);
    // reload() too says it (found from outside: an in-memory tree's said "content folder not found").
    await expect(s.reload()).rejects.toThrow('reload() after close(): the server is closed');
  });

  it('a wait left behind is no unhandled rejection at close(), and still rejects for whoever awaits it (found from outside)', async () => {
    const unhandled: unknown[] = [];
    const seen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', seen);
    try {
      const s = await startServer({ content: TREE });
      const left = s.waitForRequest(() => false, { timeout: 600_000 }); // no handler: its test failed first
      await s.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      await expect(left).rejects.toThrow('waitForRequest: the server was closed');
    } finally {
      process.off('unhandledRejection', seen);
    }
  });
});

describe('the temp folder of a tree', () => {
  it('is there while the server runs and gone after close()', () =>
    withOwnTmp(async () => {
      const api = await startServer({ content: TREE });
      const made = listTrees();
      expect(made).toHaveLength(1);
      await api.close();
      expect(existsSync(join(tmpdir(), made[0] as string))).toBe(false);
      expect(listTrees()).toEqual([]);
    }));

  // Found from outside: a test that forgot close() left a cqa-tree-* folder in /tmp for every run.
  it.each([
    ['startServer, then process.exit() without close()', 'index.js', 'await m.startServer({ content: TREE }); process.exit(0);'],
    [
      'createMswHandlers, then the end of the script without close()',
      'msw.js',
      "await m.createMswHandlers({ origin: 'http://cms.test', content: TREE });",
    ],
  ])('is removed when the process exits: %s (compiled lib/)', async (_name, entry, body) => {
    const tmp = mkdtempSync(join(tmpdir(), 'cqa-exit-'));
    try {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(resolve('lib', entry)).href)});
        const TREE = ${JSON.stringify(TREE)};
        ${body}
        console.log('started');`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, TMPDIR: tmp },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(child.stderr).toBe('');
      expect(child.status).toBe(0);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('is watched for the exit only while it exists: close() takes its exit listener away', async () => {
    const before = process.listenerCount('exit');
    const api = await startServer({ content: TREE });
    expect(process.listenerCount('exit')).toBe(before + 1);
    const other = await startServer({ content: TREE });
    expect(process.listenerCount('exit')).toBe(before + 1); // one listener for every tree
    await api.close();
    expect(process.listenerCount('exit')).toBe(before + 1);
    await other.close();
    expect(process.listenerCount('exit')).toBe(before);
  });
});
