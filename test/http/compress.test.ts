// Dynamic compression must not starve the server: a query's answer is compressed at a cheap
// setting, static documents once at a stronger one; answers to queries are cached per snapshot.
import { brotliCompressSync, brotliDecompressSync, constants as zc } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { HttpCore, type Platform } from '../../src/core/http/core.js';
import { defaultEngine } from '../../src/core/http/engine.js';
import { nodePlatform } from '../../src/node/server/node.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { READ } from './cases.js';
import { makeModel, tempDir, TOKENS } from './fixture.js';

const snapshot = createSnapshot(makeModel(tempDir()));

describe('compression of answers', () => {
  it('compresses a query answer as transient and a static document as cacheable', () => {
    const calls: { length: number; transient: boolean }[] = [];
    const platform: Platform = {
      ...nodePlatform,
      compress: (data, encoding, transient) => {
        calls.push({ length: data.length, transient });
        return nodePlatform.compress?.(data, encoding, transient);
      },
    };
    const core = new HttpCore(snapshot, platform, defaultEngine);
    const headers = { ...READ, 'accept-encoding': 'gzip, deflate, br' };
    const list = core.handle({ method: 'GET', path: '/api/alpha/posts', query: '', headers });
    const query = core.handle({ method: 'GET', path: '/api/alpha/posts', query: 'sort=price:desc', headers });
    expect([list.headers['content-encoding'], query.headers['content-encoding']]).toEqual(['br', 'br']);
    expect(calls.map((c) => c.transient)).toEqual([false, true]);
    // The static document's variant is cached: asking again compresses nothing.
    core.handle({ method: 'GET', path: '/api/alpha/posts', query: '', headers });
    expect(calls).toHaveLength(2);
  });

  it('uses a cheap brotli quality for transient answers (the bytes decode to the same JSON)', () => {
    const data = Buffer.from(
      JSON.stringify({ data: Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, title: `Title ${i * 7919}` })) }),
    );
    const transient = nodePlatform.compress?.(data, 'br', true) as Uint8Array;
    const cached = nodePlatform.compress?.(data, 'br', false) as Uint8Array;
    expect(Buffer.from(brotliDecompressSync(transient))).toEqual(data);
    expect(Buffer.from(brotliDecompressSync(cached))).toEqual(data);
    const q = (quality: number) =>
      brotliCompressSync(data, { params: { [zc.BROTLI_PARAM_QUALITY]: quality, [zc.BROTLI_PARAM_SIZE_HINT]: data.length } });
    expect(Buffer.from(transient)).toEqual(q(4));
    expect(Buffer.from(cached)).toEqual(q(9));
  });
});

describe('the answers cache', () => {
  it('runs a repeated query once per snapshot, apart for a caller who may see drafts, never caching a refusal', () => {
    const calls: string[] = [];
    const engine = {
      ...defaultEngine,
      queryEntries: (...a: Parameters<typeof defaultEngine.queryEntries>) => {
        calls.push(a[2]);
        return defaultEngine.queryEntries(...a);
      },
    };
    const core = new HttpCore(snapshot, nodePlatform, engine);
    const get = (query: string, headers: Record<string, string> = READ) =>
      core.handle({ method: 'GET', path: '/api/alpha/posts', query, headers });
    const first = get('sort=price:desc&limit=3');
    const again = get('sort=price:desc&limit=3');
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(calls).toEqual(['sort=price:desc&limit=3']);
    // Another scope set is another answer (with drafts it may hold drafts).
    const drafts = get('sort=price:desc&limit=3&state=with_draft', { ...READ, authorization: `Bearer ${TOKENS.drafts}` });
    expect(drafts.status).toBe(200);
    expect(get('sort=price:desc&limit=3&state=with_draft').status).toBe(403);
    // Refusals are computed each time.
    expect(get('where[nope]=1').status).toBe(400);
    expect(get('where[nope]=1').status).toBe(400);
    expect(calls.filter((c) => c === 'where[nope]=1')).toHaveLength(2);
    // A new snapshot starts afresh.
    core.swap(createSnapshot(makeModel(tempDir())));
    get('sort=price:desc&limit=3');
    expect(calls.filter((c) => c === 'sort=price:desc&limit=3')).toHaveLength(2);
  });
});
