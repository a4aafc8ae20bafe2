// A cap on answers held back by a delay (docs/contract-tests.md "Delays", issue 20 item 9): each
// keeps its connection open, and ~20,000 `Prefer: delay=600000` requests used up the file
// descriptors. Over the cap (`maxHeld`, default 1000; small here) a delayed request is answered
// 503 at once with Retry-After; a held answer that is sent or abandoned frees its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controls } from '../../src/core/http/controls.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { fetchClient, makeModel, socketClient, tempDir, TOKENS } from './fixture.js';

const READ = { accept: 'application/json', authorization: `Bearer ${TOKENS.read}` };
const LONG = { ...READ, prefer: 'delay=600000' };

describe('the decider', () => {
  it('holds up to maxHeld answers; the next is a 503 with Retry-After; a release frees a place', () => {
    const c = new Controls({ prefer: true, maxHeld: 2, retryAfter: 3 });
    const a = c.decide('GET', '/api/alpha/posts', 'delay=600000');
    const b = c.decide('GET', '/api/alpha/posts', 'delay=600000');
    expect(a).toMatchObject({ delay: 600000 });
    expect(b).toMatchObject({ delay: 600000 });
    const full = c.decide('GET', '/api/alpha/posts', 'delay=10');
    expect(full).toMatchObject({
      delay: 0,
      injected: false,
      headers: { 'retry-after': '3' },
      problem: { status: 503, code: 'too_many_delayed' },
    });
    expect(full?.problem?.detail).toContain('2 answers are held back by a delay already');
    // Requests without a delay are not held, so the cap does not touch them.
    expect(c.decide('GET', '/api/alpha/posts', undefined)).toBeUndefined();
    a?.release?.();
    a?.release?.(); // twice: still one place
    expect(c.decide('GET', '/api/alpha/posts', 'delay=5')).toMatchObject({ delay: 5 });
    expect(c.decide('GET', '/api/alpha/posts', 'delay=5')?.problem?.status).toBe(503);
  });

  it('counts --delay answers too, and refuses a cap that is no number', () => {
    const c = new Controls({ delay: 50, maxHeld: 1 });
    expect(c.decide('GET', '/healthz', undefined)).toMatchObject({ delay: 50 });
    expect(c.decide('GET', '/healthz', undefined)?.problem?.code).toBe('too_many_delayed');
    for (const maxHeld of [0, -1, 1.5, Number.NaN])
      expect(() => new Controls({ maxHeld }), String(maxHeld)).toThrow(/maxHeld must be an integer from 1/);
  });
});

describe('startServer', () => {
  let snapshot: Snapshot;
  let server: RunningServer;
  beforeAll(async () => {
    snapshot = createSnapshot(makeModel(tempDir()));
    server = await startServer({ snapshot, host: '127.0.0.1', port: 0, maxHeld: 3 });
  });
  afterAll(() => server?.close());

  it('over the cap: 503 at once (problem+json, Retry-After); other requests answer; leaving clients free their places', async () => {
    const held = Array.from({ length: 3 }, () => new AbortController());
    const waits = held.map((c) => fetch(`${server.url}/api/alpha/posts`, { headers: LONG, signal: c.signal }).catch((e: Error) => e.name));
    await new Promise((r) => setTimeout(r, 300));
    const get = socketClient(server.url);
    const over = await get({ path: '/api/alpha/posts', headers: LONG });
    expect(over.status).toBe(503);
    expect(over.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(over.headers['retry-after']).toBe('1');
    expect(JSON.parse(over.text)).toMatchObject({ status: 503, code: 'too_many_delayed' });
    expect(JSON.parse(over.text).detail).toContain('3 answers are held back by a delay already');
    // Without a delay, nothing is held: answered as usual.
    expect((await get({ path: '/healthz' })).status).toBe(200);
    expect((await get({ path: '/api/alpha/posts', headers: READ })).status).toBe(200);
    // The held clients give up: their places are free again.
    for (const c of held) c.abort();
    expect(await Promise.all(waits)).toEqual(['AbortError', 'AbortError', 'AbortError']);
    await new Promise((r) => setTimeout(r, 300));
    const again = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'delay=20' } });
    expect(again.status).toBe(200);
    expect(again.headers['preference-applied']).toBe('delay=20');
  });
});

describe('createHandler', () => {
  it('the same cap: a place is taken while the answer waits and freed once it is sent', async () => {
    const snapshot = createSnapshot(makeModel(tempDir()));
    const get = fetchClient(createHandler(snapshot, { prefer: true, maxHeld: 1 }));
    const first = get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'delay=300' } });
    const second = await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'delay=300' } });
    expect(second.status).toBe(503);
    expect(JSON.parse(second.text).code).toBe('too_many_delayed');
    expect((await first).status).toBe(200);
    expect((await get({ path: '/api/alpha/posts', headers: { ...READ, prefer: 'delay=5' } })).status).toBe(200);
  });
});
