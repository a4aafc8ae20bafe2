// A server that never answers, or trickles a byte every few seconds, kept `cqa pull` running in
// silence for 400+ s (undici's 300 s headers timeout, then retries; a trickle never timed out at
// all). Each request now has --timeout for its whole answer, headers and body; a timed-out request
// is not tried again, so the pull ends in about that time, naming the URL and the option.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { timeoutFromArgs } from '../../src/node/commands/pull-limits.js';
import { PullError } from '../../src/node/pull/model.js';
import { pull, type PullOptions } from '../../src/node/pull/pull.js';
import { tempDir } from './fixture.js';

type Mode = (res: ServerResponse, path: string, authorized: boolean) => void;

let server: Server | undefined;
let url = '';
const timers = new Set<NodeJS.Timeout>();
const asked: string[] = [];

async function serve(mode: Mode): Promise<void> {
  asked.length = 0;
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    mode(res, path, req.headers.authorization !== undefined);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const DOC = JSON.stringify({ data: { id: 'p', name: 'P', collections: [] } });
const EMPTY = JSON.stringify({ data: [], meta: { total: 0 } });

/** Headers at once, then one byte every `ms` (a body that never ends). */
function trickle(res: ServerResponse, ms = 100): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('{');
  const t = setInterval(() => res.write(' '), ms);
  timers.add(t);
  res.on('close', () => clearInterval(t));
}

const options = (extra: Partial<PullOptions> = {}): PullOptions => ({
  baseUrl: url,
  project: 'p',
  dialect: 'cqa',
  out: tempDir(),
  token: 't',
  timeoutMs: 500,
  backoffMs: 1,
  ...extra,
});

async function refusal(o: PullOptions): Promise<{ message: string; ms: number }> {
  const start = Date.now();
  const err = await pull(o).catch((e: unknown) => e);
  const ms = Date.now() - start;
  expect(err).toBeInstanceOf(PullError);
  expect((err as PullError).usage).toBe(false); // exit 1
  expect(readdirSync(o.out)).toEqual([]);
  return { message: (err as Error).message, ms };
}

describe('--timeout', () => {
  it('a server that never answers ends the pull after the timeout, naming the URL, without retrying', async () => {
    await serve(() => undefined);
    const { message, ms } = await refusal(options());
    expect(message).toBe(
      `${url}/api/p: no complete answer within 0.5 s, the time limit of each request; stopped. If the server is that slow, raise it with --timeout SECONDS`,
    );
    expect(ms).toBeLessThan(3000);
    expect(asked).toEqual(['/api/p']);
  });

  it('a body that trickles a byte at a time ends too: the limit covers the whole answer', async () => {
    await serve((res) => trickle(res));
    const { message, ms } = await refusal(options());
    expect(message).toMatch(/\/api\/p: no complete answer within 0\.5 s/);
    expect(ms).toBeLessThan(3000);
  });

  it('a list page that stalls, after answers that came', async () => {
    await serve((res, path) => {
      if (path === '/api/p') return void res.writeHead(200).end(DOC.replace('[]', '[{"slug":"posts","name":"Posts","fields":[]}]'));
      if (path === '/api/p/posts') return trickle(res);
      res.writeHead(200).end(EMPTY);
    });
    expect((await refusal(options())).message).toMatch(/\/api\/p\/posts\?timestamps&limit=100&offset=0: no complete answer within 0\.5 s/);
  });

  it('the request without a token (is the project public?) is bounded too', async () => {
    await serve((res, path, authorized) => {
      if (!authorized) return trickle(res);
      res.writeHead(200).end(path === '/api/p' ? DOC : EMPTY);
    });
    expect((await refusal(options())).message).toMatch(/\/api\/p: no complete answer within 0\.5 s/);
  });

  it('a media download that trickles is stopped and its partial file removed', async () => {
    await serve((res, path) => {
      if (path === '/files/a.bin') return trickle(res);
      if (path === '/api/p/project-media')
        return void res
          .writeHead(200)
          .end(JSON.stringify({ data: [{ id: 'a.bin', full_url: '/files/a.bin', size: 1000 }], meta: { total: 1 } }));
      res.writeHead(200).end(path === '/api/p' ? DOC : EMPTY);
    });
    expect((await refusal(options({ media: true }))).message).toMatch(/\/files\/a\.bin: no complete answer within 0\.5 s/);
  });

  it('answers within the limit are read as before', async () => {
    await serve((res, path) => void setTimeout(() => res.writeHead(200).end(path === '/api/p' ? DOC : EMPTY), 50));
    const r = await pull(options({ timeoutMs: 2000 }));
    expect(r.project.id).toBe('p');
  });

  it('on the command line: exit 1, the message on stderr, in about --timeout seconds', async () => {
    await serve(() => undefined);
    const start = Date.now();
    const child = spawn(process.execPath, ['bin/cqa.js', 'pull', url, '--project', 'p', '--out', tempDir(), '--timeout', '0.5'], {
      env: { ...process.env, CQA_TOKEN: 't' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(err).toContain(`cqa pull: ${url}/api/p: no complete answer within 0.5 s, the time limit of each request; stopped.`);
    expect(err).toContain('raise it with --timeout SECONDS');
    expect(Date.now() - start).toBeLessThan(8000);
  });

  it('the option takes seconds and names itself when wrong', () => {
    expect(timeoutFromArgs({})).toBeUndefined();
    expect(timeoutFromArgs({ timeout: '90' })).toBe(90_000);
    expect(timeoutFromArgs({ timeout: '0.5' })).toBe(500);
    for (const bad of ['0', '-1', 'soon', '1e9'])
      expect(() => timeoutFromArgs({ timeout: bad })).toThrow(
        `--timeout must be a number of seconds above 0 (at most 86400), got '${bad}'`,
      );
  });
});
