// Contract-test controls (docs/contract-tests.md): --fail-rate/--fail-status with a seed, delay
// ranges, `Prefer: status=/delay=` per request, and startServer's request journal. The decider on
// its own, then through startServer (both dialects) and createHandler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/index.js';
import { Controls, parsePrefer, type ControlOptions } from '../../src/core/http/controls.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { startServer, type RunningServer, type StartServerOptions } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { fetchClient, makeModel, socketClient, tempDir, TOKENS } from './fixture.js';

const READ = { accept: 'application/json', authorization: `Bearer ${TOKENS.read}` };
const statuses = (c: Controls, n: number, path = '/api/alpha/posts') =>
  Array.from({ length: n }, () => c.decide('GET', path, undefined)?.problem?.status ?? 200);

describe('the decider', () => {
  it('does nothing unless asked', () => {
    expect(new Controls({}).active).toBe(false);
    const c = new Controls({ prefer: true });
    expect(c.decide('GET', '/api/alpha/posts', undefined)).toBeUndefined();
    expect(c.decide('GET', '/api/alpha/posts', 'return=minimal, wait=5')).toBeUndefined(); // not ours: ignored (RFC 7240)
    expect(new Controls({ delay: 5 }).decide('GET', '/api/alpha/posts', 'status=503')?.problem).toBeUndefined(); // Prefer off
  });

  it('fails every API request at rate 1, never a preflight or a path outside /api/', () => {
    const c = new Controls({ failRate: 1, failStatus: 429, retryAfter: 7 });
    const fate = c.decide('GET', '/api/alpha/posts', undefined);
    expect(fate).toMatchObject({
      injected: true,
      problem: { status: 429, code: 'too_many_requests', situation: { kind: 'injected', retryAfter: 7 } },
      headers: { 'retry-after': '7' },
    });
    for (const [method, path] of [
      ['OPTIONS', '/api/alpha/posts'],
      ['GET', '/healthz'],
      ['GET', '/openapi.json'],
      ['GET', '/media/alpha/a.png'],
    ]) {
      expect(c.decide(method as string, path as string, undefined), `${method} ${path}`).toBeUndefined();
    }
    expect(new Controls({ failRate: 1, failStatus: 500 }).decide('GET', '/api/a', undefined)?.headers).toEqual({}); // no Retry-After on a 500
    // An elmapi3 project's own endpoint is /api itself (found from outside: it never failed).
    expect(c.decide('GET', '/api', undefined)).toMatchObject({ injected: true });
    expect(c.decide('GET', '/apis', undefined)).toBeUndefined();
  });

  it('draws the same failures from the same seed, and about the share asked for', () => {
    const run = (seed: number) => statuses(new Controls({ failRate: 0.3, seed }), 200);
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
    const many = statuses(new Controls({ failRate: 0.1, seed: 7 }), 10_000);
    const failed = many.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(900);
    expect(failed).toBeLessThan(1100);
  });

  it('draws delays from a range, reproducibly, without changing which requests fail', () => {
    const delays = (o: ControlOptions) => {
      const c = new Controls(o);
      return Array.from({ length: 100 }, () => c.decide('GET', '/api/a', undefined)?.delay ?? 0);
    };
    const d = delays({ delay: { min: 10, max: 20 }, seed: 1 });
    expect(Math.min(...d)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...d)).toBeLessThanOrEqual(20);
    expect(new Set(d).size).toBeGreaterThan(5);
    expect(delays({ delay: { min: 10, max: 20 }, seed: 1 })).toEqual(d);
    expect(statuses(new Controls({ failRate: 0.3, seed: 9, delay: { min: 0, max: 50 } }), 100)).toEqual(
      statuses(new Controls({ failRate: 0.3, seed: 9 }), 100),
    );
  });

  it('reads Prefer as RFC 7240 writes it, and names the accepted values when a value of ours is wrong', () => {
    expect(parsePrefer('status=503, delay=200')).toEqual({
      status: 503,
      statusName: 'status',
      delay: 200,
      applied: ['status=503', 'delay=200'],
    });
    expect(parsePrefer('return=minimal, code="404"; x=1')).toEqual({ status: 404, statusName: 'code', applied: ['code=404'] }); // Prism's code=
    for (const bad of ['status=abc', 'status=200', 'status=600', 'delay=-1', 'delay=600001', 'status', 'delay=1e3']) {
      const p = parsePrefer(bad);
      expect(p, bad).toMatchObject({ status: 400, code: 'invalid_prefer' });
      expect((p as { detail: string }).detail).toContain('from 400 to 599');
      expect((p as { detail: string }).detail).toContain('from 0 to 600000');
    }
  });

  it('refuses options that would do something else than asked', () => {
    for (const o of [
      { failRate: 1.5 },
      { failRate: -0.1 },
      { failStatus: 404 },
      { seed: -1 },
      { seed: 2 ** 32 },
      { delay: { min: 5, max: 1 } },
      { delay: 700_000 },
    ] as ControlOptions[]) {
      expect(() => new Controls(o), JSON.stringify(o)).toThrow(RangeError);
    }
    expect(() => new Controls({ delay: { min: 400, max: 100 } })).toThrow(
      'delay {"min":400,"max":100}: min is above max; write { min: 100, max: 400 }',
    );
  });
});

describe('startServer', () => {
  let snapshot: Snapshot;
  let travel: Snapshot;
  let sample: Snapshot;
  const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
  const servers: RunningServer[] = [];
  const start = async (o: StartServerOptions) => {
    const s = await startServer(o);
    servers.push(s);
    return s;
  };
  beforeAll(async () => {
    snapshot = createSnapshot(makeModel(tempDir()));
    const { model } = await loadContent('content');
    travel = createSnapshot({ projects: model.projects.filter((p) => p.dialect === 'elmapi') });
    sample = createSnapshot(model); // an elmapi3 project among others: named by its header only
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('--fail-rate 1: every API request fails in problem+json with Retry-After; health, preflight and media do not', async () => {
    const server = await start({ snapshot, failRate: 1 });
    const get = socketClient(server.url);
    for (const path of ['/api/alpha/posts', '/api/alpha/posts/p1?fields=title', '/api/nope']) {
      const r = await get({ path, headers: READ });
      expect(r.status, path).toBe(503);
      expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(r.headers['retry-after']).toBe('1');
      expect(r.headers['access-control-expose-headers']).toContain('Retry-After');
      expect(JSON.parse(r.text)).toMatchObject({ title: 'Service Unavailable', status: 503, code: 'service_unavailable' });
    }
    expect((await get({ path: '/healthz' })).status).toBe(200);
    expect((await get({ method: 'OPTIONS', path: '/api/alpha/posts' })).status).toBe(204);
    expect((await get({ path: '/media/alpha/a.png' })).status).not.toBe(503);
    // /api is an endpoint only with an elmapi3 project's header: a browser still goes to the explorer (found by round two).
    const browser = await get({ path: '/api', headers: { accept: 'text/html' } });
    expect([browser.status, browser.headers.location]).toEqual([302, '/']);
  });

  it.each([
    [429, '{"message":"Too Many Attempts."}'],
    [500, '{"message":"Server Error"}'],
    [503, '{"message":"Service Unavailable"}'],
  ] as const)("elmapi: an injected %i looks like Laravel's", async (status, body) => {
    const server = await start({ snapshot: travel, failRate: 1, failStatus: status });
    const r = await socketClient(server.url)({
      path: `/api/${[...travel.projects.keys()][0]}/articles`,
      headers: { accept: 'application/json' },
    });
    expect(r.status).toBe(status);
    expect(r.text).toBe(body);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    if (status === 429) {
      expect(r.headers).toMatchObject({ 'retry-after': '1', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' });
      expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 5);
    } else if (status === 503) {
      expect(r.headers['retry-after']).toBe('1');
    } else {
      expect(r.headers['retry-after']).toBeUndefined();
    }
  });

  it.each([
    [429, '{"message":"Too Many Attempts."}'],
    [500, '{"message":"Server Error"}'],
    [503, '{"message":"Service Unavailable"}'],
    [401, '{"message":"Unauthenticated."}'],
    [404, '{"message":"Not Found"}'],
  ] as const)(
    "elmapi3: an injected %i looks like Laravel's, the project named by its header (found from outside: problem+json)",
    async (status, body) => {
      const server = await start({ snapshot: sample });
      const project = await socketClient(server.url)({
        path: '/api',
        headers: { accept: 'application/json', 'project-id': SHOP3, authorization: 'Bearer shop3-token', prefer: `status=${status}` },
      });
      expect([project.status, project.text]).toEqual([status, body]); // the project's own endpoint too
      const r = await socketClient(server.url)({
        path: '/api/products',
        headers: { accept: 'application/json', 'project-id': SHOP3, authorization: 'Bearer shop3-token', prefer: `status=${status}` },
      });
      expect(r.status).toBe(status);
      expect(r.text).toBe(body);
      expect(r.headers['content-type']).toBe('application/json');
      if (status === 429) expect(r.headers).toMatchObject({ 'retry-after': '1', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0' });
    },
  );

  it('the same seed gives the same statuses in the same order; the seed is told', async () => {
    const run = async (seed: number) => {
      const server = await start({ snapshot, failRate: 0.5, seed });
      expect(server.seed).toBe(seed);
      expect(server.controls).toBe(`fail-rate 0.5 (503, Retry-After: 1), seed ${seed}`);
      const get = socketClient(server.url);
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await get({ path: '/api/alpha/posts?limit=1', headers: READ })).status);
      return out;
    };
    const first = await run(1234);
    expect(new Set(first)).toEqual(new Set([200, 503]));
    expect(await run(1234)).toEqual(first);
    expect((await start({ snapshot })).controls).toBe(''); // off by default
  });

  it('Prefer: status= forces one failure, delay= is acknowledged, a bad value is a 400 (422 in elmapi)', async () => {
    const server = await start({ snapshot });
    const get = socketClient(server.url);
    const forced = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=503' } });
    expect(forced.status).toBe(503);
    expect(forced.headers['preference-applied']).toBe('status=503');
    expect(JSON.parse(forced.text).detail).toContain('Prefer: status=503');
    // Prism's code= is quoted as sent (found from outside: it said status=).
    const prism = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'code=500' } });
    expect(prism.headers['preference-applied']).toBe('code=500');
    expect(JSON.parse(prism.text).detail).toContain("'Prefer: code=500'");
    expect((await get({ path: '/api/alpha/posts', headers: READ })).status).toBe(200);
    const notFound = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=404' } });
    expect(JSON.parse(notFound.text)).toMatchObject({ status: 404, code: 'not_found' });
    const slow = await get({ path: '/api/alpha/posts?limit=1', headers: { ...READ, prefer: 'delay=20' } });
    expect(slow.status).toBe(200);
    expect(slow.headers['preference-applied']).toBe('delay=20');
    // Paths outside /api/ do not fail: status= is not applied there, and the answer says so.
    const health = await get({ path: '/healthz', headers: { prefer: 'status=503' } });
    expect(health.status).toBe(200);
    expect(health.headers['preference-applied']).toBeUndefined();
    const bad = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=fail' } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ code: 'invalid_prefer' });
    expect(JSON.parse(bad.text).detail).toMatch(/status= takes an HTTP error status from 400 to 599.*delay= milliseconds/);

    const elm = await start({ snapshot: travel });
    const e = await socketClient(elm.url)({
      path: `/api/${[...travel.projects.keys()][0]}/articles`,
      headers: { accept: 'application/json', prefer: 'delay=soon' },
    });
    expect(e.status).toBe(422);
    expect(JSON.parse(e.text)).toMatchObject({ code: 'invalid_prefer' });
  });

  it('CORS: a browser may send Prefer and read Retry-After', async () => {
    const server = await start({ snapshot });
    const pre = await socketClient(server.url)({
      method: 'OPTIONS',
      path: '/api/alpha/posts',
      headers: { prefer: 'status=503', origin: 'https://app.example' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toContain('Prefer');
  });

  it('keeps a journal of the last requests, without credentials', async () => {
    const server = await start({ snapshot, journal: 3 });
    const get = socketClient(server.url);
    await get({
      path: '/api/alpha/posts?where[locale]=de&where[tags][in][]=news&where[tags][in][]=tech&sort=title',
      headers: { ...READ, cookie: 'session=s3cret', 'x-client': 'app/1.0' },
    });
    await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=429' } });
    const list = server.requests();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      method: 'GET',
      url: '/api/alpha/posts?where[locale]=de&where[tags][in][]=news&where[tags][in][]=tech&sort=title',
      path: '/api/alpha/posts',
      query: { 'where[locale]': 'de', 'where[tags][in][]': ['news', 'tech'], sort: 'title' },
      headers: { accept: 'application/json', 'x-client': 'app/1.0' },
      auth: 'Bearer',
      status: 200,
      injected: false,
    });
    expect(list[0]?.headers.authorization).toBeUndefined();
    expect(list[0]?.headers.cookie).toBeUndefined();
    expect(list[0]?.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(list[0]?.time as string)).not.toBeNaN();
    expect(list[1]).toMatchObject({ status: 429, injected: true });
    const all = JSON.stringify(list);
    expect(all).not.toContain(TOKENS.read);
    expect(all).not.toContain('s3cret');

    // Copies: a test may change what it got.
    (list[0]?.query as Record<string, unknown>).sort = 'changed';
    expect(server.requests()[0]?.query.sort).toBe('title');

    // Bounded: the oldest go first.
    for (let i = 0; i < 3; i++) await get({ path: `/api/alpha/posts/p${i + 1}`, headers: READ });
    expect(server.requests().map((r) => r.path)).toEqual(['/api/alpha/posts/p1', '/api/alpha/posts/p2', '/api/alpha/posts/p3']);
    server.clearRequests();
    expect(server.requests()).toEqual([]);
  });

  it('a failing onRequest hook goes to onError; the server keeps answering', async () => {
    const errors: unknown[] = [];
    const server = await start({
      snapshot,
      journal: 0,
      onRequest: () => {
        throw new Error('hook broke');
      },
      onError: (e) => errors.push(e),
    });
    const get = socketClient(server.url);
    expect((await get({ path: '/healthz' })).status).toBe(200);
    expect((await get({ path: '/healthz' })).status).toBe(200);
    // The hook runs once the answer is out: wait for it (bounded).
    for (let i = 0; i < 200 && errors.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(errors.map((e) => (e as Error).message)).toEqual(['hook broke', 'hook broke']);
    expect(server.requests()).toEqual([]); // journal: 0 keeps none
  });

  it('keeps no secret even when a client sends one the wrong way', async () => {
    const server = await start({ snapshot });
    const get = socketClient(server.url);
    // A bare token (no scheme) is a common mistake: the whole header would be the secret.
    await get({ path: '/api/alpha/posts', headers: { accept: 'application/json', authorization: TOKENS.read } });
    await get({ path: '/api/alpha/posts', headers: { accept: 'application/json', authorization: `Bearer:${TOKENS.read}` } });
    // Secret-looking headers and query parameters keep their name, not their value.
    await get({
      path: '/api/alpha/posts?access_token=q5ecret&limit=1',
      headers: { ...READ, 'x-api-key': 'k3y-s3cret', 'x-auth-token': 't0k3n' },
    });
    const [bare, glued, named] = server.requests();
    expect(bare?.auth).toBe('invalid');
    expect(glued?.auth).toBe('invalid');
    expect(named).toMatchObject({
      auth: 'Bearer',
      url: '/api/alpha/posts?access_token=[redacted]&limit=1',
      query: { access_token: '[redacted]', limit: '1' },
    });
    expect(named?.headers).toMatchObject({ 'x-api-key': '[redacted]', 'x-auth-token': '[redacted]' });
    const all = JSON.stringify(server.requests());
    for (const secret of [TOKENS.read, 'q5ecret', 'k3y-s3cret', 't0k3n']) expect(all).not.toContain(secret);
  });

  it('Prefer given twice: the first counts (RFC 7240); a forced 401 carries the challenge', async () => {
    const server = await start({ snapshot });
    const get = socketClient(server.url);
    const twice = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=503, status=500' } });
    expect(twice.status).toBe(503);
    expect(twice.headers['preference-applied']).toBe('status=503');
    const unauthorized = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    const long = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: `status=${'9'.repeat(5000)}` } });
    expect(long.status).toBe(400);
    expect(long.body.length).toBeLessThan(1000); // the header is not echoed whole
  });

  it('a delayed answer neither outlives its client nor holds up close()', async () => {
    const server = await startServer({ snapshot });
    // The client gives up on a 20-second delay: its timer goes with it.
    const gaveUp = new AbortController();
    const abandoned = fetch(`${server.url}/api/alpha/posts`, { headers: { ...READ, prefer: 'delay=20000' }, signal: gaveUp.signal }).catch(
      (e: Error) => e.name,
    );
    // Another one is still waiting when the server closes: it gets its answer now, not in 20 s.
    const waiting = fetch(`${server.url}/api/alpha/posts`, { headers: { ...READ, prefer: 'delay=20000' } });
    await new Promise((r) => setTimeout(r, 200));
    gaveUp.abort();
    expect(await abandoned).toBe('AbortError');
    const closedFirst = await Promise.race([
      server.close().then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still waiting'), 10_000)),
    ]);
    expect(closedFirst).toBe('closed');
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
  });

  it('a `__proto__` parameter is just a name in the journal', async () => {
    const server = await start({ snapshot });
    await socketClient(server.url)({ path: '/api/alpha/posts?__proto__[x]=1&constructor=2', headers: READ });
    const [r] = server.requests();
    expect(Object.keys(r?.query ?? {})).toEqual(['__proto__[x]', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('createHandler', () => {
  let snapshot: Snapshot;
  beforeAll(() => {
    snapshot = createSnapshot(makeModel(tempDir()));
  });

  it('ignores Prefer unless asked (it is a deployment), honours it and --fail-rate when asked', async () => {
    const plain = fetchClient(createHandler(snapshot));
    expect((await plain({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=503' } })).status).toBe(200);
    const mock = fetchClient(createHandler(snapshot, { prefer: true }));
    const r = await mock({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'status=503, delay=5' } });
    expect(r.status).toBe(503);
    expect(r.headers['preference-applied']).toBe('status=503, delay=5');
    const failing = fetchClient(createHandler(snapshot, { failRate: 1, failStatus: 429 }));
    expect((await failing({ path: '/api/alpha/posts', headers: READ })).status).toBe(429);
  });
});
