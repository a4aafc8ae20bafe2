// The page of test/msw/browser.slow.test.ts: content-query-api/msw's browser entry under MSW's
// setupWorker, over a snapshot file fetched from the test server. Its findings go to
// window.__result for the test to read.
import { setupWorker } from 'msw/browser';
import { createMswHandlers } from '../../src/msw-browser.js';
import { loadSnapshot } from '../../src/core/snapshot/portable.js';

const w = window as unknown as { __result?: unknown };
const json = { headers: { accept: 'application/json' } };

async function run(): Promise<unknown> {
  const snapshot = loadSnapshot(await (await fetch('/snapshot.json')).text());
  const api = await createMswHandlers({ origin: location.origin, snapshot, failRate: 0, seed: 7 });
  await setupWorker(...api.handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });

  const list = await fetch('/api/shop/products?where[price][lte]=15', json);
  const listBody = await list.json();
  const bad = await fetch('/api/shop/products?where[prise]=1', json);
  const forced = await fetch('/api/shop/products', { headers: { accept: 'application/json', prefer: 'status=503' } });
  api.override('GET', '/api/shop/products/:id', (req) => ({ status: 418, body: { id: req.params.id } }));
  const overridden = await fetch('/api/shop/products/mug', json);
  const seen = await api.waitForRequest((r) => r.path === '/api/shop/products/mug', { timeout: 5000 });
  let refused = '';
  try {
    await createMswHandlers({ origin: location.origin } as never);
  } catch (err) {
    refused = (err as Error).message;
  }
  return {
    list: [list.status, listBody.data.map((p: { title: string }) => p.title)],
    bad: [bad.status, (await bad.json()).code],
    forced: [forced.status, forced.headers.get('retry-after')],
    overridden: [overridden.status, await overridden.json()],
    seen: [seen.status, seen.response?.body],
    journal: api.requests().map((r) => `${r.status} ${r.url}${r.injected ? ' injected' : ''}`),
    refused,
  };
}

run().then(
  (r) => {
    w.__result = r;
  },
  (err: Error) => {
    w.__result = { error: String(err?.stack ?? err) };
  },
);
