// The contract-test controls apply to an override's answer as to the API's (docs/contract-tests.md
// "Per-route overrides"): a test that combines "an empty list" (override) with "a slow or failing
// API" (delay, failRate, Prefer) gets both. Before, an overridden route skipped them all: with
// `delay: 300` it answered in 2 ms, with `failRate: 1` it answered 200, and `Prefer: status=503` too.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractControls } from '../../src/core/http/contract-controls.js';
import type { OverrideAnswer } from '../../src/core/http/overrides.js';
import { createMswHandlers } from '../../src/msw.js';
import { startServer } from '../../src/node/server/start.js';

const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: text\n',
  'shop/products/mug.yaml': 'title: Mug\n',
};
const ACCEPT = { accept: 'application/json' };
const EMPTY: OverrideAnswer = { body: { data: [], meta: { total: 0, limit: 25, offset: 0 } } };

interface Mock {
  readonly api: ContractControls;
  readonly base: string;
  close(): Promise<void>;
}
type Options = { delay?: number; failRate?: number; seed?: number; onError?: (err: unknown) => void };

const adapters: [string, (o: Options) => Promise<Mock>][] = [
  [
    'startServer',
    async (o) => {
      const api = await startServer({ content: TREE, ...o });
      return { api, base: api.url, close: () => api.close() };
    },
  ],
  [
    'createMswHandlers',
    async (o) => {
      const base = 'http://overridden.test';
      const api = await createMswHandlers({ origin: base, content: TREE, ...o });
      const msw = setupServer(...api.handlers);
      msw.listen({ onUnhandledRequest: 'error' });
      return {
        api,
        base,
        close: async () => {
          msw.close();
          await api.close();
        },
      };
    },
  ],
];

describe.each(adapters)('%s: an override under the controls', (_name, make) => {
  const open: Mock[] = [];
  const mock = async (o: Options) => {
    const m = await make(o);
    open.push(m);
    m.api.override('GET', '/api/shop/products', EMPTY);
    return m;
  };
  afterAll(async () => {
    for (const m of open) await m.close();
  });

  it('is held back by `delay`, as the API answer is', async () => {
    const m = await mock({ delay: 250 });
    const t0 = performance.now();
    const res = await fetch(`${m.base}/api/shop/products`, { headers: ACCEPT });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(200);
    expect(await res.json()).toEqual(EMPTY.body);
  });

  it('fails with `failRate`: the injected failure answers instead of the override, and is journaled as injected', async () => {
    const m = await mock({ failRate: 1, seed: 1 });
    const res = await fetch(`${m.base}/api/shop/products`, { headers: ACCEPT });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { code: string }).code).toBe('service_unavailable');
    expect(m.api.requests().at(-1)).toMatchObject({ status: 503, injected: true });
  });

  it('answers `Prefer: status=` and `Prefer: delay=` as the API does, with Preference-Applied', async () => {
    const m = await mock({});
    const failed = await fetch(`${m.base}/api/shop/products`, { headers: { ...ACCEPT, prefer: 'status=500' } });
    expect([failed.status, failed.headers.get('preference-applied')]).toEqual([500, 'status=500']);
    const t0 = performance.now();
    const slow = await fetch(`${m.base}/api/shop/products`, { headers: { ...ACCEPT, prefer: 'delay=200' } });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
    expect([slow.status, slow.headers.get('preference-applied')]).toEqual([200, 'delay=200']);
    expect(await slow.json()).toEqual(EMPTY.body);
    // Not overridden: unchanged.
    const plain = await fetch(`${m.base}/api/shop/products/mug`, { headers: ACCEPT });
    expect(plain.status).toBe(200);
    expect(JSON.stringify(await plain.json())).toContain('Mug');
  });
});

// Found from outside: through MSW the error left the handler, MSW answered its own 500 with the
// error's message and stack, onError was not called and nothing was journaled. (A describe of its
// own: two MSW servers listening at once both run the handlers.)
describe.each(adapters)('%s: an override function that fails', (_name, make) => {
  it('answers 500 for a function that throws, rejects or answers what is no answer; onError gets it, the journal has it', async () => {
    const errors: unknown[] = [];
    const m = await make({ onError: (e) => errors.push(e) });
    try {
      m.api.override('GET', '/api/shop/products/:id', ({ params }) => {
        if (params.id === 'throws') throw new Error('test bug');
        if (params.id === 'rejects') return Promise.reject(new Error('async test bug'));
        return { status: 99 };
      });
      for (const id of ['throws', 'rejects', 'bad']) {
        const res = await fetch(`${m.base}/api/shop/products/${id}`, { headers: ACCEPT });
        expect(res.status).toBe(500);
        expect(await res.json()).toMatchObject({ status: 500, code: 'internal_error' });
      }
      expect(errors.map(String)).toEqual([
        'Error: test bug',
        'Error: async test bug',
        'TypeError: override GET /api/shop/products/:id: status must be an integer from 200 to 599, got 99',
      ]);
      expect(m.api.requests().map((r) => [r.path, r.status])).toEqual([
        ['/api/shop/products/throws', 500],
        ['/api/shop/products/rejects', 500],
        ['/api/shop/products/bad', 500],
      ]);
    } finally {
      await m.close();
    }
  });
});

describe('an override function and the controls', () => {
  let api: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    api = await startServer({ content: TREE });
  });
  afterAll(() => api.close());

  it('is not asked when the request fails on purpose; falls through to the API under the same decision', async () => {
    let asked = 0;
    api.override('GET', '/api/shop/products', () => {
      asked++;
      return undefined;
    });
    const failed = await fetch(`${api.url}/api/shop/products`, { headers: { ...ACCEPT, prefer: 'status=503' } });
    expect(failed.status).toBe(503);
    expect(asked).toBe(0);
    const through = await fetch(`${api.url}/api/shop/products`, { headers: { ...ACCEPT, prefer: 'delay=5' } });
    expect([through.status, through.headers.get('preference-applied')]).toEqual([200, 'delay=5']);
    expect(asked).toBe(1);
    api.reset();
  });
});
