// Bounded fuzz (§7): random paths and query strings, over a real socket and through the fetch
// handler, never produce a 5xx, and Object.prototype stays untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../src/http/fetch.js';
import { startServer, type RunningServer } from '../../src/http/start.js';
import { createSnapshot } from '../../src/snapshot/create.js';
import type { Snapshot } from '../../src/snapshot/types.js';
import { READ } from './cases.js';
import { fetchClient, makeModel, socketClient, tempDir } from './fixture.js';

let snapshot: Snapshot;
let server: RunningServer;
beforeAll(async () => {
  snapshot = createSnapshot(makeModel(tempDir()));
  server = await startServer({ snapshot });
});
afterAll(() => server?.close());

/** Deterministic PRNG (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = ['api', 'media', 'alpha', 'beta', 'pub', 'posts', 'p1', 'd1', 'project-media', 'a.png', 'dir', 'b%20c.txt', '..', '%2e%2e', '%2f', '%00', '%', '%zz', '%E0%A4', '__proto__', 'constructor', '', '.', 'x'.repeat(50), '%252e', '%C0%AE', '~', ';', '@'];
const KEYS = ['where', 'where[title]', 'where[price][gt]', 'where[price][between]', 'where[][title]', 'where[or][][price]', 'where[or][0][price][lt]', 'where[__proto__][x]', 'where[constructor][prototype]', 'whereRelation[x][y]', 'sort', 'limit', 'offset', 'first', 'count', 'state', 'locale', 'timestamps', 'fields', 'exclude', 'where[tags][in][]', 'where[id][not_in]', 'where[title][like]', 'where[price][null]', 'x', '', '[', ']', 'where[a][b][c][d][e]', 'where[[]]', '%5B', 'limit[]'];
const VALUES = ['', '1', '-1', '1.5', 'abc', 'null', 'not_null', 'true', '1,2', '10,20,30', 'price:desc', 'title,:asc', 'id:sideways', '%', '%zz', '%00', '%E2%82%AC', 'a%26b', 'with_draft', 'only_draft', 'en', 'xx', '1e309', 'NaN', '2024-01-01', '__proto__', 'x'.repeat(300)];

function randomTarget(r: () => number): string {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)] as T;
  const n = 1 + Math.floor(r() * 5);
  let path = '';
  for (let i = 0; i < n; i++) path += `/${pick(SEGMENTS)}`;
  if (r() < 0.7) path = `/api/${pick(['alpha', 'alpha', 'alpha', 'pub', 'nope'])}/${pick(['posts', 'posts', 'posts', 'project-media', 'posts/p1', 'nope'])}`;
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
