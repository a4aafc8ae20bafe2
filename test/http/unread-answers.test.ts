// Clients that ask and never read (found from outside): node:http calls the listener for every
// request of one read (64 KB: hundreds of pipelined requests), and each answer was made at once and
// queued in memory: 300 pipelined requests for an 8 MB list took the server from 86 MB to 2.45 GB.
// Now a pipelined request is answered once the answers ahead of it on its connection are out, and
// the answers made but not yet taken by their clients, over all connections, are bounded
// (UNSENT_ANSWER_BYTES; small here): past it, a 503 with Retry-After.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCore } from '../../src/core/http/core.js';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { defaultEngine } from '../../src/core/http/engine.js';
import type { RequestRecord } from '../../src/core/http/journal.js';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { createNodeListener, nodePlatform } from '../../src/node/server/node.js';
import { tempDir } from './fixture.js';

/** 100 entries of ~160 KB: the whole list is ~16 MB, more than a socket's buffers take from a client that does not read. */
const ENTRIES = 100;
const BIG = '/api/p/docs?limit=100';
const small = (i: number) => `/api/p/docs?limit=1&offset=${i}`;

/** A raw HTTP/1.1 request. */
const ask = (path: string, method = 'GET', extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n${extra}\r\n`;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Reads `methods.length` answers from `socket`, in order (a HEAD answer has no body). */
function readAnswers(socket: Socket, methods: readonly string[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const out: Answer[] = [];
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buf.toString('latin1', 0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of lines.slice(1)) {
          const i = l.indexOf(':');
          headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
        }
        const status = Number(lines[0]?.split(' ')[1]);
        const length = methods[out.length] === 'HEAD' || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
        if (buf.length < end + 4 + length) return;
        out.push({ status, headers, body: buf.toString('utf8', end + 4, end + 4 + length) });
        buf = buf.subarray(end + 4 + length);
        if (out.length === methods.length) {
          socket.off('data', onData);
          resolve(out);
          return;
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.resume();
  });
}

/** Resolves once `ok()` holds, checking every 10 ms (at most 10 s). */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`still not: ${what}`);
}

describe('clients that do not read their answers', () => {
  let server: Server;
  let port: number;
  /** The answers the core made. */
  let made: string[] = [];
  const records: RequestRecord[] = [];
  const serverSockets: Socket[] = [];
  const clients: Socket[] = [];
  /** Requests node:http has read and handed to the listener. */
  let parsed = 0;
  /** Their answers not yet closed, by connection; those without headers are waiting (nothing made for them yet). */
  const unanswered = new Map<ServerResponse, Socket>();
  /** On one connection: another test's connection, destroyed, may close its answers late (Node 20). */
  const waiting = (on: Socket | undefined) => {
    let n = 0;
    for (const [r, s] of unanswered) if (s === on && !r.headersSent) n++;
    return n;
  };

  beforeAll(async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'p/docs'), { recursive: true });
    writeFileSync(join(dir, 'p/project.yaml'), 'id: p\nname: P\npublic: true\n');
    writeFileSync(join(dir, 'p/docs/_collection.yaml'), 'fields:\n  title: text\n  body: text\n');
    for (let i = 0; i < ENTRIES; i++)
      writeFileSync(join(dir, `p/docs/d${String(i).padStart(3, '0')}.yaml`), `title: t${i}\nbody: ${'lorem ipsum '.repeat(13_000)}\n`);
    const core = new HttpCore(await buildSnapshot({ content: dir }), nodePlatform, defaultEngine, { elmapi3: elmapi3Routes });
    const handle = core.handle.bind(core);
    core.handle = (req) => {
      made.push(`${req.path}?${req.query}`);
      return handle(req);
    };
    // Room for one large answer, not two.
    const listener = createNodeListener(core, { unsentBytes: 24 * 2 ** 20, onRequest: (r) => records.push(r) });
    server = createServer({ keepAliveTimeout: 5_000 }, listener);
    server.on('connection', (s) => serverSockets.push(s));
    server.on('request', (req, res) => {
      parsed++;
      unanswered.set(res, req.socket as Socket);
      res.once('close', () => unanswered.delete(res));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    server?.closeAllConnections();
    await new Promise((ok) => server?.close(ok));
  });

  /** The server's end of `client`'s connection. */
  const serverSide = (client: Socket) => serverSockets.find((s) => s.remotePort === client.localPort);
  const open = async (): Promise<Socket> => {
    const s = connect(port, '127.0.0.1');
    s.pause();
    clients.push(s);
    await new Promise((ok) => s.once('connect', ok));
    return s;
  };

  it('pipelined requests are answered one at a time: behind an unread answer, none is made; read, all come in order', async () => {
    made = [];
    const socket = await open();
    const big = (await fetchOnce(BIG)).length;
    expect(big).toBeGreaterThan(14 * 2 ** 20);
    made = [];
    // One large answer, then 40 small ones, a HEAD, a conditional GET and the health check: all in one write.
    const etag = (await readOne(small(0))).headers.etag as string;
    made = [];
    const smalls = Array.from({ length: 40 }, (_, i) => small(i));
    const methods = ['GET', ...smalls.map(() => 'GET'), 'HEAD', 'GET', 'GET'];
    socket.write(
      ask(BIG) +
        smalls.map((p) => ask(p)).join('') +
        ask(small(1), 'HEAD') +
        ask(small(0), 'GET', `If-None-Match: ${etag}\r\n`) +
        ask('/healthz'),
    );
    // The server is stuck writing the first answer, which the client does not read.
    await until(() => serverSide(socket)?.writableNeedDrain === true, 'the server waits for the client to read');
    await new Promise((r) => setTimeout(r, 200));
    expect(made).toEqual([BIG]);

    const answers = await readAnswers(socket, methods);
    expect(answers.map((a) => a.status)).toEqual([200, ...smalls.map(() => 200), 200, 304, 200]);
    expect(answers[0]?.body.length).toBe(big);
    for (const [i, a] of answers.slice(1, 41).entries()) expect(JSON.parse(a.body).meta).toEqual({ total: ENTRIES, limit: 1, offset: i });
    expect(answers[41]?.headers['content-length']).toBe(answers[2]?.headers['content-length']);
    expect(JSON.parse(answers[43]?.body ?? '').status).toBe('ok');
    // Still open (keep-alive): the next request on it is answered.
    socket.write(ask(small(5)));
    const [next] = await readAnswers(socket, ['GET']);
    expect(JSON.parse(next?.body ?? '').meta.offset).toBe(5);
  });

  it('answers that other clients have not read are bounded: past the bound a 503 with Retry-After says why; once read, answers again', async () => {
    records.length = 0;
    const a = await open();
    a.write(ask(`${BIG}&where[title][not]=a`));
    await until(() => serverSide(a)?.writableNeedDrain === true, 'the first answer is stuck');
    expect(records).toEqual([]);
    const b = await open();
    b.write(ask(`${BIG}&where[title][not]=b`));
    const [refused] = await readAnswers(b, ['GET']);
    expect(refused?.status).toBe(503);
    expect(refused?.headers['retry-after']).toBe('1');
    expect(refused?.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const problem = JSON.parse(refused?.body ?? '');
    expect(problem).toMatchObject({ status: 503, code: 'busy', title: 'Service Unavailable' });
    expect(problem.detail).toMatch(
      /of answers that their clients have not read yet, and this answer \(1\d\.\d MiB\) would take that past its bound of 24\.0 MiB: try again/,
    );
    // Small answers still fit beside the unread one.
    b.write(ask(small(3)));
    expect((await readAnswers(b, ['GET']))[0]?.status).toBe(200);

    const [first] = await readAnswers(a, ['GET']);
    expect(first?.status).toBe(200);
    await until(() => records.some((r) => r.query['where[title][not]'] === 'a'), 'the first answer is out');
    b.write(ask(`${BIG}&where[title][not]=b`));
    expect((await readAnswers(b, ['GET']))[0]?.status).toBe(200);
  });

  it('requests pipelined behind an unread answer are bounded: past 128 waiting, a 503 in its turn, and node:http stops reading', async () => {
    const socket = await open();
    parsed = 0;
    records.length = 0;
    // 6,000 requests (~450 KB) behind a large answer, in one write, by a client that does not read.
    const many = Array.from({ length: 6000 }, (_, i) => small(i % ENTRIES));
    socket.write(ask(BIG) + many.map((p) => ask(p)).join(''));
    await until(() => serverSide(socket)?.writableNeedDrain === true, 'the server waits for the client to read');
    await new Promise((r) => setTimeout(r, 300));
    // Before: every one of them was read and kept waiting (~2 KB of heap each), however many came.
    expect(parsed).toBeLessThan(2500);

    const methods = ['GET', ...many.slice(0, 129).map(() => 'GET')];
    const answers = await readAnswers(socket, methods);
    expect(answers.slice(0, 129).map((a) => a.status)).toEqual(methods.slice(0, 129).map(() => 200));
    const refused = answers[129];
    expect(refused?.status).toBe(503);
    expect(refused?.headers['retry-after']).toBe('1');
    const problem = JSON.parse(refused?.body ?? '');
    expect(problem).toMatchObject({ status: 503, code: 'too_many_pipelined' });
    expect(problem.detail).toMatch(
      /^128 requests sent on this connection wait for the answers ahead of them \(at most 128\): read the answers/,
    );
    // In the request log and the journal like any answer: the first of the connection (a record
    // for each of a flood's thousands made it slower to get through).
    await until(() => records.some((r) => r.status === 503), 'the refusal is recorded');
    socket.destroy();
    expect(records.filter((r) => r.status === 503)).toHaveLength(1);
    // Other connections are answered as before.
    expect((await readOne(small(7))).status).toBe(200);
  });

  it('a client that pipelines small requests and never reads leaves at most 128 waiting (before: thousands, ~2 KB of heap each)', async () => {
    const socket = await open();
    parsed = 0;
    // 20,000 requests (~1.6 MB) in one write, never read. A waiting request writes nothing, so
    // node:http went on reading them (its brake counts queued answers' bytes, and a full socket
    // only once the answer ahead no longer fits): 1,448 waited here, 14,000 a connection under
    // `cqa serve` with answers of 200 bytes.
    const many = Array.from({ length: 20_000 }, (_, i) => ask(small(i % ENTRIES))).join('');
    socket.write(many);
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, waiting(serverSide(socket)));
    }, 5);
    let last = -1;
    await until(() => {
      const settled = parsed === last && parsed > 0;
      last = parsed;
      return settled && serverSide(socket)?.writableNeedDrain === true;
    }, 'the server stops reading');
    clearInterval(sample);
    peak = Math.max(peak, waiting(serverSide(socket)));
    socket.destroy();
    // A waiting request is one read and not yet answered (refused ones are answered at once).
    expect(peak).toBeLessThanOrEqual(128 + 1);
  });

  /** The body of one GET on a connection of its own. */
  async function fetchOnce(path: string): Promise<string> {
    return (await readOne(path)).body;
  }
  async function readOne(path: string): Promise<Answer> {
    const s = await open();
    s.write(ask(path));
    const [answer] = await readAnswers(s, ['GET']);
    s.destroy();
    return answer as Answer;
  }
});
