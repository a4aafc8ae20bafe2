// content-query-api/msw: the same core and controls as startServer — the same seed and failRate
// fail the same requests, Prefer works, the journal records answers, media files of an in-memory
// tree are served — and a bad origin is refused with a message saying what to give.
import http from 'node:http';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/node/server/start.js';
import { createMswHandlers } from '../../src/msw.js';

const CMS = 'http://cms.test';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const TREE = {
  'shop/project.yaml': 'id: shop\nname: Shop\npublic: true\n',
  'shop/products/_collection.yaml': 'name: Products\nfields:\n  title: text\n',
  'shop/products/mug.yaml': 'title: Mug\n',
  'shop/media/dot.png': new Uint8Array(PNG),
};
const ACCEPT = { accept: 'application/json' };
const servers: { close(): unknown }[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('createMswHandlers', () => {
  it('fails the same requests as startServer for the same seed and failRate', async () => {
    const options = { content: TREE, failRate: 0.5, seed: 42, delay: { min: 0, max: 3 } };
    const api = await createMswHandlers({ ...options, origin: CMS });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'bypass' }); // the requests to the real server pass
    servers.push(api, { close: () => msw.close() });
    const real = await startServer(options);
    servers.push(real);
    const viaMsw: number[] = [];
    const viaServer: number[] = [];
    for (let i = 0; i < 20; i++) {
      viaMsw.push((await fetch(`${CMS}/api/shop/products`, { headers: ACCEPT })).status);
      viaServer.push((await fetch(`${real.url}/api/shop/products`, { headers: ACCEPT })).status);
    }
    expect(viaMsw).toEqual(viaServer);
    expect(new Set(viaMsw)).toEqual(new Set([200, 503]));
    expect(api.seed).toBe(42);
    expect(api.controls).toBe('delay 0-3 ms, fail-rate 0.5 (503, Retry-After: 1), seed 42');
    expect(api.controls).toBe(real.controls);
    expect(
      api
        .requests()
        .filter((r) => r.injected)
        .map((r) => r.status),
    ).toEqual(viaMsw.filter((s) => s === 503));
    const preferred = await fetch(`${CMS}/api/shop/products/mug`, { headers: { ...ACCEPT, prefer: 'delay=1, status=500' } });
    expect([preferred.status, preferred.headers.get('preference-applied')]).toEqual([500, 'delay=1, status=500']);
    msw.close();
  });

  it('serves the media files of an in-memory tree, and journals no binary body', async () => {
    const api = await createMswHandlers({ content: TREE, origin: CMS });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch(`${CMS}/media/shop/dot.png`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
      expect(api.requests()[0]?.response).toMatchObject({ status: 200, body: null, headers: { 'content-type': 'image/png' } });
    } finally {
      msw.close();
      await api.close();
    }
  });

  // Found from outside: each bad origin got the same sentence, which named no origin to give, and
  // refused 'https://CMS.example' and 'https://cms.example:443' (origins, with no path) with it.
  const ALONE = '(the handlers take /api/*, /media/*, /openapi.json and /healthz under it)';
  it.each([
    [
      'cms.example',
      `has no scheme: write 'https://cms.example' or 'http://cms.example', as your app's requests name it; got "cms.example"`,
    ],
    [
      'localhost:3000',
      `has no scheme: write 'https://localhost:3000' or 'http://localhost:3000', as your app's requests name it; got "localhost:3000"`,
    ],
    ['https://cms.example/api', `must be the origin alone: write 'https://cms.example' ${ALONE}; got "https://cms.example/api"`],
    ['https://cms.example?x=1', `must be the origin alone: write 'https://cms.example' ${ALONE}; got "https://cms.example?x=1"`],
    ['https://me:pw@cms.example', `must be the origin alone: write 'https://cms.example' ${ALONE}; got "https://me:pw@cms.example"`],
    [
      'ftp://cms.example',
      `must be http: or https: (the requests MSW intercepts): write 'https://cms.example' or 'http://cms.example'; got "ftp://cms.example"`,
    ],
    [
      'https://*.example',
      `must name one host, as your app's requests do ('*.example' is a pattern to MSW); for several hosts, create handlers for each; got "https://*.example"`,
    ],
    ['http://cms.example.:8080', `ends its host with a dot: write 'http://cms.example:8080'; got "http://cms.example.:8080"`],
    ['https://', `must be the origin your app sends its API requests to, e.g. 'https://cms.example'; got "https://"`],
    [undefined, `must be the origin your app sends its API requests to, e.g. 'https://cms.example'; got undefined`],
  ])('refuses the origin %s, saying what to write instead', async (origin, message) => {
    await expect(createMswHandlers({ content: TREE, origin: origin as string })).rejects.toThrow(`createMswHandlers: origin ${message}`);
  });

  it.each([
    ['https://CMS.example', 'https://cms.example'],
    ['https://cms.example:443', 'https://cms.example'],
    ['http://cms.example/', 'http://cms.example'],
    ['http://[::1]:4000', 'http://[::1]:4000'],
  ])('takes the origin %s as the URL parser writes it, and answers there', async (origin, requested) => {
    const api = await createMswHandlers({ content: TREE, origin });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch(`${requested}/api/shop/products`, { headers: ACCEPT });
      expect(res.status).toBe(200);
    } finally {
      msw.close();
      await api.close();
    }
  });

  it('checks the controls as startServer does', async () => {
    await expect(createMswHandlers({ content: TREE, origin: CMS, failRate: 2 })).rejects.toThrow(
      'createMswHandlers: failRate must be a number from 0 to 1, got 2',
    );
  });

  // fetch() sends `Accept: */*` when the app sets none, so startServer() and a real API answer such
  // a request; MSW hands the handlers the Request before that default is added (found from outside:
  // a jest suite whose app fetched without an Accept got 406 through MSW, 200 from startServer).
  it('answers a fetch without an Accept header as startServer does (fetch sends */*)', async () => {
    const api = await createMswHandlers({ content: TREE, origin: CMS });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'bypass' }); // the request to the real server passes
    servers.push(api, { close: () => msw.close() });
    const real = await startServer({ content: TREE });
    servers.push(real);
    const viaMsw = await fetch(`${CMS}/api/shop/products`);
    const viaServer = await fetch(`${real.url}/api/shop/products`);
    expect([viaMsw.status, viaServer.status]).toEqual([200, 200]);
    expect(api.requests()[0]?.headers.accept).toBe(real.requests()[0]?.headers.accept);
    // An Accept the app sets is still read as it is.
    expect((await fetch(`${CMS}/api/shop/products`, { headers: { accept: 'text/html' } })).status).toBe(406);
    msw.close();
  });

  it('answers a node:http request without an Accept header 406, as startServer does (nothing adds one)', async () => {
    const api = await createMswHandlers({ content: TREE, origin: CMS });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    servers.push(api, { close: () => msw.close() });
    const status = await new Promise<number | undefined>((resolve, reject) =>
      // http.get, not a named import: MSW patches the module's object, which a named import does not see.
      http
        .get(`${CMS}/api/shop/products`, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject),
    );
    expect(status).toBe(406);
    msw.close();
  });

  it('journals the request without credentials', async () => {
    const api = await createMswHandlers({ content: TREE, origin: CMS });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      await fetch(`${CMS}/api/shop/products?access_token=s3cret`, { headers: { ...ACCEPT, authorization: 'Bearer s3cret' } });
      const [r] = api.requests();
      expect(r?.auth).toBe('Bearer');
      expect(JSON.stringify(r)).not.toContain('s3cret');
    } finally {
      msw.close();
      await api.close();
    }
  });

  it("journals no project token pasted where no name says it is one (a parameter's name, the path)", async () => {
    const tree = { ...TREE, 'shop/project.yaml': 'id: shop\nname: Shop\ntokens:\n  - name: dev\n    token: shop-dev-token\n' };
    const api = await createMswHandlers({ content: tree, origin: CMS });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const auth = { ...ACCEPT, authorization: 'Bearer shop-dev-token' };
      expect((await fetch(`${CMS}/api/shop/products?shop-dev-token`, { headers: auth })).status).toBe(400);
      await fetch(`${CMS}/api/shop-dev-token/products`, { headers: auth });
      const records = api.requests();
      expect(records).toHaveLength(2);
      expect(records[0]?.response.body).toContain('[redacted]');
      expect(JSON.stringify(records)).not.toContain('shop-dev-token');
    } finally {
      msw.close();
      await api.close();
    }
  });
});

// An elmapi3 project through MSW, as its client and the SDK ask it: /api itself is the project,
// and absolute URLs (page links, asset urls) name the origin MSW intercepts, not a Host header
// (found from outside: /api was unhandled, the links said http://localhost).
describe('createMswHandlers with an elmapi3 project', () => {
  it('answers /api, and names its own origin in page links and asset urls', async () => {
    const SHOP3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10';
    const origin = 'https://cms.example';
    const api = await createMswHandlers({ content: 'content', origin });
    const msw = setupServer(...api.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    servers.push(api, { close: () => msw.close() });
    const headers = { ...ACCEPT, 'project-id': SHOP3, authorization: 'Bearer shop3-token' };
    const project = await fetch(`${origin}/api`, { headers });
    expect(project.status).toBe(200);
    expect(await project.json()).toMatchObject({ uuid: SHOP3, name: 'Alpine Outfitters' });
    const page = (await (await fetch(`${origin}/api/products?paginate=2`, { headers })).json()) as { links: { next: string } };
    expect(page.links.next).toBe(`${origin}/api/products?paginate=2&page=2`);
    expect((await fetch(page.links.next, { headers })).status).toBe(200);
    const files = (await (await fetch(`${origin}/api/files`, { headers })).json()) as { data: { url: string }[] };
    expect(files.data.length).toBeGreaterThan(0);
    for (const { url } of files.data) expect(url.startsWith(`${origin}/media/${SHOP3}/`), url).toBe(true);
  });
});
