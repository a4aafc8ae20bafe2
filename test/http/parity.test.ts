// Static parity (§3/§4): over a real socket, the unfiltered answer for every path of the sample's
// snapshot is byte-identical to snapshot.document(path), which is what `cqa build` writes — for
// both path-routed dialects: the sample's `demo` project (cqa) and `travel` (elmapi); `shop3`
// (elmapi3) is read at the v3 routes only, so its paths here answer 404 saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerUrl } from '../../src/core/http/openapi-server.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { socketClient } from './fixture.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ content: 'content' });
});
afterAll(() => server?.close());

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');
/** The sample's fixture token of the project a path is in. */
const TOKENS: Record<string, string> = {
  demo: 'demo-token',
  '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47': 'travel-token',
  '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10': 'shop3-token',
};

describe('static parity with the sample content', () => {
  it('every query-less API path answers exactly the document bytes', async () => {
    const s = server.snapshot;
    expect(s.paths.length).toBeGreaterThan(20);
    const client = socketClient(server.url);
    expect(new Set([...s.projects.values()].map((p) => p.dialect.name))).toEqual(new Set(['cqa', 'elmapi', 'elmapi3']));
    for (const path of s.paths) {
      // An elmapi3 project is read at the v3 routes (test/http/elmapi3.test.ts); here, a 404 saying so.
      if (s.projects.get(path.split('/')[2] as string)?.record.dialect === 'elmapi3') {
        const r = await client({ path: encodePath(path), headers: { accept: 'application/json' } });
        expect(r.status, path).toBe(404);
        expect(r.text, path).toContain('project-id');
        continue;
      }
      const headers = { accept: 'application/json', authorization: `Bearer ${TOKENS[path.split('/')[2] as string]}` };
      const r = await client({ path: encodePath(path), headers });
      expect(r.status, path).toBe(200);
      expect(r.body.equals(Buffer.from(s.document(path) as string, 'utf8')), path).toBe(true);
      // …and compressed variants decompress to the same bytes.
      const z = await client({ path: encodePath(path), headers: { ...headers, 'accept-encoding': 'br, gzip' } });
      expect(z.body.equals(r.body), `${path} (compressed)`).toBe(true);
    }
    // The served description differs from the built one only in naming this server (docs/openapi.md).
    const openapi = await client({ path: '/openapi.json' });
    expect(openapi.text).toBe(withServerUrl(s.openapi, server.url));
  });

  it('serves every media file of the sample with its size', async () => {
    const client = socketClient(server.url);
    for (const p of server.snapshot.projects.values()) {
      for (const m of p.media) {
        const r = await client({ path: new URL(m.full_url, 'http://x').pathname });
        expect(r.status, m.record.id).toBe(200);
        expect(r.raw.length).toBe(m.record.size);
        expect(r.headers['content-type']).toContain(m.record.mime_type.split(';')[0] as string);
      }
    }
  });
});
