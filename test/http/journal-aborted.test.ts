// A request whose client gave up before its answer went out (during a delay, or while its override
// had not answered) is journaled as what happened, when the client left: `aborted: true`, status 0
// (nothing was sent), no response headers or body. Found from outside: it was journaled as
// answered 200, with the body the client never got.
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import type { ContractControls } from '../../src/core/http/contract-controls.js';
import { createMswHandlers } from '../../src/msw.js';
import { startServer } from '../../src/node/server/start.js';

const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: text\n',
  'shop/products/mug.yaml': 'title: Mug\n',
};
const ACCEPT = { accept: 'application/json' };
const SLOW = { ...ACCEPT, prefer: 'delay=600000' };
const ABORTED = { status: 0, aborted: true, injected: false, response: { status: 0, headers: {}, body: null, truncated: false } };

/** Sends a slow request, gives up after 100 ms, then one that is answered; returns their records. */
async function giveUpThenAsk(api: ContractControls, base: string) {
  const gaveUp = await fetch(`${base}/api/shop/products`, { headers: SLOW, signal: AbortSignal.timeout(100) }).catch((e: Error) => e.name);
  expect(gaveUp).toBe('TimeoutError');
  const aborted = await api.waitForRequest((r) => r.path === '/api/shop/products', { timeout: 5000 });
  expect((await fetch(`${base}/api/shop/products/mug`, { headers: { accept: 'application/json' } })).status).toBe(200);
  const answered = await api.waitForRequest((r) => r.path === '/api/shop/products/mug', { timeout: 5000 });
  return { aborted, answered };
}

/**
 * Gives up on a request whose override has not answered yet; the override answers after that.
 * Returns the journal: the aborted request, then one answered after it.
 */
async function giveUpOnOverride(api: ContractControls, base: string) {
  let asked!: () => void;
  const wasAsked = new Promise<void>((ok) => (asked = ok));
  let late!: (answer: { body: string }) => void;
  api.override('GET', '/api/shop/products', () => {
    asked();
    return new Promise((ok) => (late = ok));
  });
  const client = new AbortController();
  const gaveUp = fetch(`${base}/api/shop/products`, { headers: ACCEPT, signal: client.signal }).catch((e: Error) => e.name);
  await wasAsked;
  client.abort();
  expect(await gaveUp).toBe('AbortError');
  // Journaled when the client left, not when the override answers (which may be never).
  const aborted = await api.waitForRequest((r) => r.path === '/api/shop/products', { timeout: 5000 });
  late({ body: 'too late' }); // dropped: no second record
  expect((await fetch(`${base}/api/shop/products/mug`, { headers: ACCEPT })).status).toBe(200);
  await api.waitForRequest((r) => r.path === '/api/shop/products/mug', { timeout: 5000 });
  return { aborted, journal: api.requests().map((r) => [r.path, r.status]) };
}

describe('the journal of a request the client aborted during a delay', () => {
  it('startServer: aborted, status 0, no answer; the text log says (aborted)', async () => {
    const lines: string[] = [];
    const api = await startServer({ content: TREE, quiet: false, log: (l) => lines.push(l) });
    try {
      const { aborted, answered } = await giveUpThenAsk(api, api.url);
      expect(aborted).toMatchObject(ABORTED);
      expect(aborted.ms).toBeGreaterThan(0);
      expect(answered.status).toBe(200);
      expect(answered).not.toHaveProperty('aborted');
      expect(lines.find((l) => l.startsWith('GET /api/shop/products '))).toMatch(/^GET \/api\/shop\/products 0 \d+\.\dms \(aborted\)$/);
    } finally {
      await api.close();
    }
  });

  it('createMswHandlers: the same record', async () => {
    const CMS = 'http://aborted.test';
    const api = await createMswHandlers({ origin: CMS, content: TREE });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const { aborted, answered } = await giveUpThenAsk(api, CMS);
      expect(aborted).toMatchObject(ABORTED);
      expect(answered.status).toBe(200);
      expect(answered).not.toHaveProperty('aborted');
    } finally {
      msw.close();
      await api.close();
    }
  });
});

// Found from outside: the MSW handlers journaled such a request only once its override answered.
describe('the journal of a request the client aborted while its override had not answered', () => {
  const JOURNAL = [
    ['/api/shop/products', 0],
    ['/api/shop/products/mug', 200],
  ];

  it('startServer: journaled when the client left, as aborted', async () => {
    const api = await startServer({ content: TREE });
    try {
      const { aborted, journal } = await giveUpOnOverride(api, api.url);
      expect(aborted).toMatchObject(ABORTED);
      expect(journal).toEqual(JOURNAL);
    } finally {
      await api.close();
    }
  });

  it('createMswHandlers: the same', async () => {
    const CMS = 'http://aborted-override.test';
    const api = await createMswHandlers({ origin: CMS, content: TREE });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const { aborted, journal } = await giveUpOnOverride(api, CMS);
      expect(aborted).toMatchObject(ABORTED);
      expect(journal).toEqual(JOURNAL);
    } finally {
      msw.close();
      await api.close();
    }
  });
});
