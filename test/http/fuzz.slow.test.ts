// Bounded fuzz (§7): random paths, query strings and headers (Range among them), over a real
// socket, through the fetch handler and against `cqa preview`, never produce a 5xx or a connection
// closed without an answer, never show a draft, a hidden value, a token or a file beside media/,
// and Object.prototype stays untouched.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { writeDist } from '../../src/node/output/dist.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { READ } from './cases.js';
import { fetchClient, makeModel, sha, socketClient, tempDir, TOKENS, type Client } from './fixture.js';

let snapshot: Snapshot;
let server: RunningServer;
let preview: PreviewServer;
const dir = tempDir();
beforeAll(async () => {
  snapshot = createSnapshot(makeModel(dir));
  server = await startServer({ snapshot });
  await writeDist(snapshot, { out: join(dir, 'dist') });
  preview = await startPreview({ dir: join(dir, 'dist'), port: 0 });
});
afterAll(async () => {
  await server?.close();
  await preview?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Deterministic PRNG (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = [
  'api',
  'media',
  'alpha',
  'beta',
  'pub',
  'posts',
  'p1',
  'd1',
  'project-media',
  'a.png',
  'dir',
  'b%20c.txt',
  '..',
  '%2e%2e',
  '%2f',
  '%00',
  '%',
  '%zz',
  '%E0%A4',
  '__proto__',
  'constructor',
  '',
  '.',
  'x'.repeat(50),
  '%252e',
  '%C0%AE',
  '~',
  ';',
  '@',
];
const KEYS = [
  'where',
  'where[title]',
  'where[price][gt]',
  'where[price][between]',
  'where[][title]',
  'where[or][][price]',
  'where[or][0][price][lt]',
  'where[__proto__][x]',
  'where[constructor][prototype]',
  'whereRelation[x][y]',
  'sort',
  'limit',
  'offset',
  'first',
  'count',
  'state',
  'locale',
  'timestamps',
  'fields',
  'exclude',
  'where[tags][in][]',
  'where[id][not_in]',
  'where[title][like]',
  'where[price][null]',
  'x',
  '',
  '[',
  ']',
  'where[a][b][c][d][e]',
  'where[[]]',
  '%5B',
  'limit[]',
];
const VALUES = [
  '',
  '1',
  '-1',
  '1.5',
  'abc',
  'null',
  'not_null',
  'true',
  '1,2',
  '10,20,30',
  'price:desc',
  'title,:asc',
  'id:sideways',
  '%',
  '%zz',
  '%00',
  '%E2%82%AC',
  'a%26b',
  'with_draft',
  'only_draft',
  'en',
  'xx',
  '1e309',
  'NaN',
  '2024-01-01',
  '__proto__',
  'x'.repeat(300),
];

function randomTarget(r: () => number): string {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)] as T;
  const n = 1 + Math.floor(r() * 5);
  let path = '';
  for (let i = 0; i < n; i++) path += `/${pick(SEGMENTS)}`;
  if (r() < 0.7)
    path = `/api/${pick(['alpha', 'alpha', 'alpha', 'pub', 'nope'])}/${pick(['posts', 'posts', 'posts', 'project-media', 'posts/p1', 'nope'])}`;
  if (r() < 0.15) path = `/media/alpha/${pick(SEGMENTS)}`;
  const parts: string[] = [];
  const m = Math.floor(r() * 6);
  for (let i = 0; i < m; i++) parts.push(r() < 0.1 ? pick(KEYS) : `${pick(KEYS)}=${pick(VALUES)}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

describe('fuzz: no 5xx, ever', () => {
  it('400 random requests over a socket and 400 through the fetch handler', async () => {
    const r = rng(20240611);
    const socket = socketClient(server.url);
    const fetch = fetchClient(createHandler(snapshot));
    const methods = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'PUT'];
    const seen = new Map<number, number>();
    for (let i = 0; i < 800; i++) {
      const target = randomTarget(r);
      const method = methods[Math.floor(r() * methods.length)] as string;
      const headers: Record<string, string> = { ...READ };
      if (r() < 0.2) headers['accept-encoding'] = 'gzip, br';
      if (r() < 0.1) headers.authorization = `Bearer ${'x'.repeat(Math.floor(r() * 100))}`;
      if (r() < 0.05) headers.accept = 'text/plain';
      const client = i % 2 ? fetch : socket;
      const res = await client({ method, path: target, headers });
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      expect(res.status, `${method} ${target}`).toBeLessThan(500);
    }
    // The fuzz reached more than the error paths.
    expect(seen.get(200) ?? 0).toBeGreaterThan(10);
    expect(seen.get(400) ?? 0).toBeGreaterThan(20);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

/** What no answer may contain (unless the request itself carried it and it is echoed back). */
const MARKERS = [
  'hidden!', // the value of a hidden field
  '"d1"', // the id of a draft (only a drafts token with state=with_draft|only_draft may see it)
  'TOP SECRET', // a file beside media/
  'tokens: secret', // project.yaml beside media/
  ...Object.values(TOKENS),
  ...Object.values(TOKENS).map(sha),
];

const RANGES = [
  'bytes=0-0',
  'bytes=5-2',
  'bytes=-5',
  'bytes=-0',
  'bytes=0-1,5-6',
  'bytes=99999999999999999999-',
  'items=1-2',
  'bytes=',
  'bytes=-',
  'bytes=3-',
  'bytes=0-99999',
  'bytes=a-b',
  'bytes=1-2-3',
  ' bytes = 2 - 4 ',
];
const ENCODINGS = ['gzip, deflate, br', 'br', 'gzip', 'identity', '*', 'br;q=0, gzip;q=0', 'x-gzip', 'deflate'];

describe('fuzz: 20,000 requests with odd headers, three servers', () => {
  it('no 5xx, no dropped connection, no draft, hidden value, token or stray file in any answer', async () => {
    const r = rng(20261122);
    const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)] as T;
    const clients: Record<string, Client> = {
      node: socketClient(server.url),
      fetch: fetchClient(createHandler(snapshot)),
      preview: socketClient(preview.url),
    };
    const kinds = ['node', 'node', 'fetch', 'fetch', 'preview'];
    const seen = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const kind = kinds[i % kinds.length] as string;
      let target = randomTarget(r);
      if (r() < 0.25) target = `/media/alpha/${pick(['a.png', 'dir/b%20c.txt', 'a.png', 'nope', '..%2fsecret.txt'])}`;
      if (kind === 'preview' && r() < 0.3)
        target = pick([
          '/openapi.json',
          '/manifest.json',
          '/api/alpha/posts',
          '/api/alpha/posts/p1',
          '/_headers',
          '/_redirects/',
          '/api/alpha/posts/index.json',
        ]);
      const method = pick(['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'DELETE']);
      const headers: Record<string, string> = r() < 0.8 ? { ...READ } : { accept: pick(['application/json', '*/*', 'text/html']) };
      if (r() < 0.4) headers.range = pick(RANGES);
      if (r() < 0.1) headers['if-range'] = pick(['"x"', 'Wed, 21 Oct 2015 07:28:00 GMT']);
      if (r() < 0.4) headers['accept-encoding'] = pick(ENCODINGS);
      if (r() < 0.1) headers['if-none-match'] = pick(['*', '"x"', 'W/"x", "y"']);
      const res = await (clients[kind] as Client)({ method, path: target, headers });
      const key = `${kind} ${res.status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const what = `${kind} ${method} ${target} ${JSON.stringify(headers)} → ${res.status}`;
      expect(res.status, what).toBeLessThan(500);
      for (const m of MARKERS) if (!target.includes(m.replace(/"/g, ''))) expect(res.text, `${what}: ${m}`).not.toContain(m);
    }
    // Every server answered more than errors: files, ranges and documents.
    for (const kind of Object.keys(clients))
      for (const status of [200, 206, 404, 416]) expect(seen.get(`${kind} ${status}`) ?? 0, `${kind} ${status}`).toBeGreaterThan(10);
    expect(Object.keys(Object.prototype)).toEqual([]);
  }, 120_000);
});
