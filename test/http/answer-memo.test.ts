// Whole answers are remembered per request (src/core/http/answer-memo.ts): a repeated request is
// answered without consulting the snapshot again, and no request ever gets another one's answer —
// not another token's, encoding's, origin's, method's or condition's.
import { describe, expect, it } from 'vitest';
import { HttpCore, type CoreRequest, type CoreResponse } from '../../src/core/http/core.js';
import { defaultEngine } from '../../src/core/http/engine.js';
import { nodePlatform } from '../../src/node/server/node.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { CASES, READ } from './cases.js';
import { makeModel, tempDir, TOKENS } from './fixture.js';

/** A snapshot that counts how often the core looks a project up in it. */
function counted(): { snapshot: Snapshot; lookups: () => number } {
  const snapshot = createSnapshot(makeModel(tempDir()));
  const projects = snapshot.projects as Map<string, unknown>;
  const get = projects.get.bind(projects);
  let n = 0;
  projects.get = (id: string) => {
    n++;
    return get(id);
  };
  return { snapshot, lookups: () => n };
}

function request(path: string, headers: Record<string, string>, method = 'GET'): CoreRequest {
  const q = path.indexOf('?');
  return { method, path: q < 0 ? path : path.slice(0, q), query: q < 0 ? '' : path.slice(q + 1), headers };
}

const shown = (r: CoreResponse) => ({
  status: r.status,
  headers: r.headers,
  body: r.body === null ? null : Buffer.from(r.body).toString('latin1'),
});

describe('remembered answers', () => {
  it('answers a repeated request without consulting the snapshot again, until a new snapshot is served', () => {
    const { snapshot, lookups } = counted();
    const core = new HttpCore(snapshot, nodePlatform, defaultEngine);
    const first = core.handle(request('/api/alpha/posts/p7', READ));
    const before = lookups();
    expect(before).toBeGreaterThan(0);
    const again = core.handle(request('/api/alpha/posts/p7', READ));
    expect(lookups()).toBe(before);
    expect(shown(again)).toEqual(shown(first));
    // A query's answer too.
    core.handle(request('/api/alpha/posts?sort=price:desc&limit=3', READ));
    const afterQuery = lookups();
    core.handle(request('/api/alpha/posts?sort=price:desc&limit=3', READ));
    expect(lookups()).toBe(afterQuery);
    // A reload that removed the entry: its answer is gone with the old snapshot.
    const edited = makeModel(tempDir());
    const posts = edited.projects[0]!.collections[0]!;
    (posts as { entries: readonly unknown[] }).entries = posts.entries.filter((e) => e.id !== 'p7');
    core.swap(createSnapshot(edited));
    expect(core.handle(request('/api/alpha/posts/p7', READ)).status).toBe(404);
  });

  it('gives every request of the end-to-end cases the answer a fresh server gives, asked again after all the others', () => {
    const { snapshot, lookups } = counted();
    const warm = new HttpCore(snapshot, nodePlatform, defaultEngine);
    const requests = CASES.flatMap((c) => {
      const r = request(c.req.path, c.req.headers ?? {}, c.req.method);
      if (!c.conditional) return [r];
      const etag = warm.handle(r).headers.etag as string;
      return [r, { ...r, headers: { ...r.headers, 'if-none-match': c.conditional(etag) } }];
    });
    // The same path with other headers, in an order where a wrong hit would show.
    const p7 = '/api/alpha/posts/p7';
    const variants = [
      READ,
      { ...READ, authorization: `Bearer ${TOKENS.drafts}` },
      { ...READ, authorization: `Bearer ${TOKENS.beta}` },
      { ...READ, authorization: `Bearer ${TOKENS.read}x` },
      { ...READ, authorization: TOKENS.read },
      { accept: 'application/json' },
      { ...READ, accept: 'text/html' },
      { ...READ, 'accept-encoding': 'gzip, deflate, br' },
      { ...READ, 'accept-encoding': 'gzip' },
      { ...READ, origin: 'https://app.example' },
    ];
    for (const headers of variants) requests.push(request(p7, headers), request(p7, headers, 'HEAD'));
    const start = lookups();
    const answers = requests.map((r) => shown(warm.handle(r)));
    const firstRound = lookups() - start;
    const again = requests.map((r) => shown(warm.handle(r)));
    expect(again).toEqual(answers);
    // The second round came partly from memory (refusals are worked out again).
    expect(lookups() - start - firstRound).toBeLessThan(firstRound * 0.75);
    for (const [i, r] of requests.entries()) {
      const fresh = new HttpCore(snapshot, nodePlatform, defaultEngine).handle(r);
      expect(shown(warm.handle(r)), `${r.method} ${r.path}?${r.query} ${JSON.stringify(r.headers)}`).toEqual(shown(fresh));
      expect(shown(warm.handle(r))).toEqual(answers[i]);
    }
  });

  it("keeps a query's answer once it is asked again; a one-off answer only among the latest few", () => {
    const { snapshot, lookups } = counted();
    const core = new HttpCore(snapshot, nodePlatform, defaultEngine);
    const hot = request('/api/alpha/posts?sort=price:desc&limit=2', READ);
    const once = request('/api/alpha/posts?sort=title&limit=2', READ);
    core.handle(hot);
    core.handle(hot); // asked again: kept with the documents
    core.handle(once);
    // A client paging through a list: forty answers asked once each.
    for (let offset = 0; offset < 40; offset++) core.handle(request(`/api/alpha/posts?sort=price&limit=1&offset=${offset}`, READ));
    let before = lookups();
    core.handle(hot);
    expect(lookups()).toBe(before);
    before = lookups();
    core.handle(once); // worked out again: its answer is no longer kept…
    expect(lookups()).toBeGreaterThan(before);
    before = lookups();
    core.handle(once); // …and now kept
    expect(lookups()).toBe(before);
  });

  it('keeps no answer to a made-up token, a malformed request or a refused query', () => {
    const { snapshot, lookups } = counted();
    const core = new HttpCore(snapshot, nodePlatform, defaultEngine);
    core.handle(request('/api/alpha/posts/p7', READ));
    const kept = lookups();
    core.handle(request('/api/alpha/posts/p7', READ)); // a valid token's answer is kept…
    expect(lookups()).toBe(kept);
    for (const r of [
      request('/api/alpha/posts/p7', { ...READ, authorization: 'Bearer made-up' }),
      request('/api/alpha/posts/p7', { accept: 'application/json' }),
      request('/api/alpha/posts?where[nope]=1', READ),
    ]) {
      const status = core.handle(r).status;
      expect(status).toBeGreaterThanOrEqual(400);
      const before = lookups();
      expect(core.handle(r).status).toBe(status);
      expect(lookups()).toBeGreaterThan(before); // …these are worked out each time
    }
  });

  it('hands out a copy: a header an adapter adds to one answer is not in the next', () => {
    const { snapshot, lookups } = counted();
    const core = new HttpCore(snapshot, nodePlatform, defaultEngine);
    core.handle(request('/api/alpha/posts/p7', READ)).headers.connection = 'close';
    const kept = lookups();
    core.handle(request('/api/alpha/posts/p7', READ)).headers.connection = 'close';
    expect(core.handle(request('/api/alpha/posts/p7', READ)).headers.connection).toBeUndefined();
    expect(lookups()).toBe(kept);
  });
});
