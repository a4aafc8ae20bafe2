// A pull when the network fails: nothing (or no https) at the base URL is said at once (no retries of
// a typo in the port), while a server that goes away after the first answer, and a media download
// whose connection breaks halfway, are retried — the download from the start, with the same size
// limit, and still without the token for another origin.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PullError } from '../../src/node/pull/model.js';
import { pull, type PullOptions } from '../../src/node/pull/pull.js';
import { tempDir } from './fixture.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Server[] = [];

/** A server on 127.0.0.1 (a free port, or `port` to listen there again). */
async function listen(handler: Handler, port = 0): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${bound}`, port: bound };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .filter((s) => s.listening)
      .map(close),
  );
});

const json = (res: ServerResponse, value: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));

/** A cqa project `p` with one entry in `posts` and the media list given. */
function api(media: unknown[] = []): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/p')
      return json(res, {
        data: { id: 'p', name: 'P', collections: [{ slug: 'posts', name: 'Posts', fields: [{ name: 'title', type: 'text' }] }] },
      });
    if (path === '/api/p/posts') return json(res, { data: [{ id: 'a', locale: 'en', title: 'A' }], meta: { total: 1 } });
    if (path === '/api/p/project-media') return json(res, { data: media, meta: { total: media.length } });
    res.writeHead(404).end('{}');
  };
}

/** Pull options with quick retries; `retried` collects the progress lines of retries. */
function options(baseUrl: string, out: string, extra: Partial<PullOptions> = {}): PullOptions & { retried: string[] } {
  const retried: string[] = [];
  return {
    baseUrl,
    project: 'p',
    dialect: 'cqa',
    out,
    token: 'secret',
    tries: 5,
    backoffMs: 1,
    onProgress: (line) => line.startsWith('retrying') && retried.push(line),
    retried,
    ...extra,
  };
}

describe('nothing to talk to at the base URL', () => {
  it('a refused first request fails at once, naming the URL and what to check', async () => {
    const gone = await listen(api());
    await close(gone.server);
    const o = options(gone.url, tempDir());
    const err = await pull(o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PullError);
    expect((err as Error).message).toBe(
      `nothing listens at ${gone.url} (connection refused): is the server running, and is ${gone.port} its port? Check BASE_URL`,
    );
    expect(o.retried).toEqual([]);
    expect(readdirSync(o.out)).toEqual([]);
  });

  it('a port fetch never connects to is named, without retries', async () => {
    const o = options('http://127.0.0.1:6000', tempDir());
    await expect(pull(o)).rejects.toThrow(
      'cannot reach http://127.0.0.1:6000: fetch never connects to port 6000 (a blocked port); run the server on another port, e.g. cqa serve --port 4000',
    );
    expect(o.retried).toEqual([]);
  });

  it('https:// to a server that speaks http says to use http://, without retries', async () => {
    const { url } = await listen(api());
    const o = options(url.replace('http:', 'https:'), tempDir());
    await expect(pull(o)).rejects.toThrow(`cannot reach ${o.baseUrl}: no https (TLS) there; if the server speaks plain http, use ${url}`);
    expect(o.retried).toEqual([]);
  });

  it('a server that goes away after the first answer is retried until it is back', async () => {
    let first = true;
    const handle = api();
    const running = await listen((req, res) => {
      if (first) {
        // Gone after its first answer, as a server restarting mid-pull: it stops listening now,
        // and the connection ends with this answer.
        first = false;
        running.server.close();
        res.setHeader('Connection', 'close');
      }
      handle(req, res);
    });
    // Pauses long enough for the server to listen again (a retry sooner is retried too).
    const o = options(running.url, tempDir(), {
      tries: 8,
      backoffMs: 20,
      onProgress: (line) => {
        if (!line.startsWith('retrying')) return;
        o.retried.push(line);
        if (!running.server.listening) void listen(handle, running.port);
      },
    });
    const r = await pull(o);
    expect(r.project.collections[0]?.entries.map((e) => e.id)).toEqual(['a']);
    expect(o.retried.length).toBeGreaterThanOrEqual(1);
    expect(o.retried[0]).toMatch(/^retrying \/api\/p\/posts/);
  });
});

describe('a media download whose connection breaks halfway', () => {
  const FILE = Buffer.from('0123456789');

  /** A media host (another origin than the API) that sends `body(n)` to its n-th request; 4 bytes then a reset when it returns 'reset'. */
  async function mediaHost(body: (n: number) => Buffer | 'reset') {
    const seen: (string | undefined)[] = [];
    const host = await listen((req, res) => {
      seen.push(req.headers.authorization);
      const b = body(seen.length);
      if (b !== 'reset')
        return void res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(b.length) }).end(b);
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(FILE.length) });
      res.write(FILE.subarray(0, 4), () => res.destroy());
    });
    const media = [{ id: 'a.bin', full_url: `${host.url}/files/a.bin`, size: FILE.length }];
    return { seen, media };
  }

  it('is downloaded again from the start, without the token for the other origin', async () => {
    const host = await mediaHost((n) => (n === 1 ? 'reset' : FILE));
    const { url } = await listen(api(host.media));
    const o = options(url, tempDir(), { media: true });
    const r = await pull(o);
    expect(readFileSync(join(o.out, 'p/media/a.bin'))).toEqual(FILE);
    expect(r.retries).toBe(1);
    expect(r.mediaBytes).toBe(FILE.length);
    expect(o.retried).toEqual([
      expect.stringMatching(/^retrying http:\/\/127\.0\.0\.1:\d+\/files\/a\.bin \(the connection broke while reading /),
    ]);
    expect(host.seen).toEqual([undefined, undefined]);
  });

  it('keeps the size limit on the second try', async () => {
    const host = await mediaHost((n) => (n === 1 ? 'reset' : Buffer.alloc(1024 * 1024)));
    const { url } = await listen(api(host.media));
    const o = options(url, tempDir(), { media: true });
    await expect(pull(o)).rejects.toThrow(/media 'a\.bin': got more than 10 bytes/);
    expect(host.seen).toHaveLength(2);
    expect(readdirSync(o.out)).toEqual([]);
  });

  it('gives up after the tries, naming the URL; nothing is written', async () => {
    const host = await mediaHost(() => 'reset');
    const { url } = await listen(api(host.media));
    const o = options(url, tempDir(), { media: true, tries: 3 });
    await expect(pull(o)).rejects.toThrow(/^the connection broke while reading http:\/\/127\.0\.0\.1:\d+\/files\/a\.bin \(/);
    expect(host.seen).toHaveLength(3);
    expect(readdirSync(o.out)).toEqual([]);
  });
});
