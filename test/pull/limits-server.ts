// The untrusted server of the pull-limit tests (limits.test.ts, default-caps.slow.test.ts): routes
// answer by path; `endless` streams zeros until the client goes away; every path asked is recorded.
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { PullError } from '../../src/node/pull/model.js';
import { pull, type PullOptions } from '../../src/node/pull/pull.js';
import { tempDir } from './fixture.js';

let server: Server | undefined;
let url = '';
export const asked: string[] = [];

export type Answer = { status?: number; body: string | Buffer | 'endless' } | undefined;

/** A server on 127.0.0.1; `endless` streams zeros until the client goes away. */
export async function serve(route: (path: string, q: URLSearchParams, token: boolean) => Answer): Promise<void> {
  asked.length = 0;
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    asked.push(u.pathname);
    const a = route(u.pathname, u.searchParams, req.headers.authorization !== undefined);
    if (!a) return void res.writeHead(404).end('{}');
    res.writeHead(a.status ?? 200, { 'Content-Type': 'application/json' });
    if (a.body !== 'endless') return void res.end(a.body);
    const chunk = Buffer.alloc(64 * 1024);
    const more = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', more);
    more();
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
/** Closes the server `serve` started (afterEach). */
export async function closeServer(): Promise<void> {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
}

export const json = (v: unknown): Answer => ({ body: JSON.stringify(v) });
export const entry = (id: string) => ({ id, locale: 'en', title: id });
const DOC = json({
  data: { id: 'p', name: 'P', collections: [{ slug: 'posts', name: 'Posts', fields: [{ name: 'title', type: 'text' }] }] },
});

export function cqaApi(media: unknown[], list: (offset: number) => Answer = () => json({ data: [], meta: { total: 0 } })) {
  return (path: string, q: URLSearchParams): Answer => {
    if (path === '/api/p') return DOC;
    if (path === '/api/p/posts') return list(Number(q.get('offset')));
    if (path === '/api/p/project-media') return json({ data: media, meta: { total: media.length } });
    if (path.startsWith('/files/')) return { body: 'endless' };
    return undefined;
  };
}

export const options = (extra: Partial<PullOptions> = {}): PullOptions => ({
  baseUrl: url,
  project: 'p',
  dialect: 'cqa',
  out: tempDir(),
  pageSize: 2,
  tries: 1,
  ...extra,
});

export async function refusal(o: PullOptions): Promise<string> {
  const err = await pull(o).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PullError);
  expect(readdirSync(o.out)).toEqual([]);
  return (err as Error).message;
}
