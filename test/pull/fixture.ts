// Shared by the pull tests: the sample content served in-process, builds compared file by file,
// and a tiny proxy in front of the server that fails or slows requests on purpose.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { writeDist } from '../../src/node/output/dist.js';
import { makeTempDir } from '../temp-roots.js';

export const SAMPLE = 'content';
export const DEMO = { project: 'demo', token: 'demo-token' };
export const TRAVEL = { project: '5f2b8c1e9a4d4e7fb3c60a1d2e8f9b47', token: 'travel-token', collections: ['articles', 'authors'] };

/** A temp folder, removed after the test file (test/setup.ts). */
export function tempDir(prefix = 'cqa-pull-'): string {
  return makeTempDir(prefix);
}

/** Every file under `dir` (dot files too), by '/'-separated path, with its bytes. */
export function treeBytes(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else files.set(relative(dir, abs).split('\\').join('/'), readFileSync(abs));
    }
  };
  walk(dir);
  return files;
}

/** `cqa build` of a content folder: the documents under dist/api, by path. */
export async function buildApi(content: string): Promise<Map<string, Buffer>> {
  const out = join(tempDir('cqa-pull-dist-'), 'dist');
  await writeDist(await buildSnapshot({ content }), { out });
  return treeBytes(join(out, 'api'));
}

export interface Proxy {
  readonly url: string;
  /** Requests seen so far (failed ones included). */
  requests: number;
  failed: number;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1 in front of `target`: every `failEvery`-th request (deterministic)
 * is answered 503 with Retry-After: 0, and each answer waits `delayMs` first, then for what
 * `hold` returns for its path (a promise the test settles).
 */
export async function startProxy(
  target: string,
  options: { failEvery?: number; delayMs?: number; hold?: (path: string) => Promise<void> | undefined } = {},
): Promise<Proxy> {
  const state = { requests: 0, failed: 0 };
  const server: Server = createServer((req, res) => {
    const n = ++state.requests;
    const answer = async () => {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      await options.hold?.(req.url ?? '/');
      if (options.failEvery && n % options.failEvery === 0) {
        state.failed++;
        res.writeHead(503, { 'Retry-After': '0', 'Content-Type': 'text/plain' }).end('try again');
        return;
      }
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'accept', 'if-none-match'])
        if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
      const upstream = await fetch(new URL(req.url ?? '/', target), { headers });
      const out: Record<string, string> = {};
      // fetch has decoded the body already: no content-length or content-encoding of the original.
      for (const h of ['content-type', 'etag']) {
        const v = upstream.headers.get(h);
        if (v !== null) out[h] = v;
      }
      res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
    };
    answer().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get failed() {
      return state.failed;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
