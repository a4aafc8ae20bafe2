// §4's case table inside workerd, Cloudflare's runtime: the worker of docs/edge.md that reads the
// snapshot from a KV namespace and media from an R2 bucket, built from `content-query-api/edge`,
// answers every case as the node:http server and the in-process fetch handler do (e2e.test.ts).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { snapshotText } from '../../src/core/snapshot/portable.js';
import { CASES, READ, runCase, TRAVERSALS, type Case } from '../http/cases.js';
import { makeModel, socketClient, tempDir, type Client } from '../http/fixture.js';
import { bundle, docBlock, startWorker, tomlString, type RunningWorker } from './workerd.js';

// Where Workers differ by design: the runtime compresses (the handler only picks the coding and
// sets Content-Encoding), and it compresses every compressible answer for a client that accepts
// it, small ones too — miniflare does what Cloudflare's edge does. The handler's ETag stays that of
// the plain body, as it chose no coding.
const IN_WORKERS: Record<string, Partial<Case>> = {
  'small bodies are not compressed': { headers: { 'content-encoding': 'gzip', etag: /^"[A-Za-z0-9_-]{20,}"$/ } },
};

let worker: RunningWorker;
let node: RunningServer;
let client: Client;

beforeAll(async () => {
  const snapshot = createSnapshot(makeModel(tempDir()));
  const media: Record<string, Uint8Array> = {};
  for (const p of snapshot.projects.values())
    for (const m of p.media) media[`${p.record.id}/${m.record.id}`] = new Uint8Array(readFileSync(m.record.source)); // a plain copy: miniflare cannot pass a pooled Buffer
  worker = await startWorker({
    code: await bundle(docBlock('worker-kv.js')),
    compatibilityDate: tomlString(docBlock('wrangler-kv.toml'), 'compatibility_date'),
    kv: { CONTENT: { 'snapshot.json': snapshotText(snapshot) } },
    r2: { MEDIA: media },
  });
  client = socketClient(worker.url);
  node = await startServer({ snapshot });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await node?.close();
});

describe('the edge worker in workerd', () => {
  it.each(CASES.map((c) => [c.name, { ...c, ...IN_WORKERS[c.name] }] as const))('%s', async (_name, c) => {
    await runCase(client, c);
  });

  it('differs from the case table only where the runtime compresses', () => {
    for (const name of Object.keys(IN_WORKERS)) expect(CASES.map((c) => c.name)).toContain(name);
  });

  it('never serves a file outside media/ (plain, encoded, double-encoded, NUL)', async () => {
    for (const path of TRAVERSALS) {
      const r = await client({ path });
      // workerd normalises `/./` away before the worker sees the URL (as a WHATWG Request does).
      if (r.text !== 'PNGDATA-0123456789') expect([400, 404], `${path} → ${r.status}`).toContain(r.status);
      expect(r.text).not.toContain('TOP SECRET');
      expect(r.text).not.toContain('tokens:');
    }
  });

  it('answers with the same status, body and ETag as the node:http server', async () => {
    const local = socketClient(node.url);
    for (const path of [
      '/api/alpha',
      '/api/alpha/posts',
      '/api/alpha/posts/p3',
      '/api/alpha/posts?sort=title&limit=4',
      '/api/alpha/posts?where[locale]=de&count',
      '/api/nope',
      '/healthz',
      '/openapi.json',
    ]) {
      const headers = { ...READ, 'accept-encoding': 'identity' };
      const [a, b] = await Promise.all([local({ path, headers }), client({ path, headers })]);
      expect(b.status, path).toBe(a.status);
      if (path === '/openapi.json') {
        // Only `servers` differs: the node server names its own address, the worker `/`.
        const [x, y] = [JSON.parse(a.text), JSON.parse(b.text)];
        expect([x.servers[0].url, y.servers[0].url]).toEqual([node.url, '/']);
        expect({ ...y, servers: [] }).toEqual({ ...x, servers: [] });
        continue;
      }
      expect(b.text, path).toBe(a.text);
      expect(b.headers.etag, path).toBe(a.headers.etag);
    }
  });
});
