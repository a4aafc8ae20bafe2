// The compiled CLI on bad option values and failures to listen: one line `cqa <command>: …` that
// names what to change, exit 2 (usage) or 1 (anything else), and never a stack trace.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText, explainListenError, ListenError } from '../../src/node/commands/errors.js';
import { startServer } from '../../src/node/server/start.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-cli-'));
const dist = join(work, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'manifest.json'), '{"name":"content-query-api","snapshot":"0"}\n'); // what makes a folder a build for cqa preview
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => {
  busy?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs bin/cqa.js to its end (killed after 20 s: every case here exits by itself). */
function cqa(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['bin/cqa.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      done({ code, out, err });
    });
  });
}

const STACK = /^\s+at /m;

describe('cqa: option values out of range', () => {
  // Every numeric option of every command: negative, fractional, exponent, hex, huge, over the maximum.
  const cases: [string[], RegExp][] = [
    [['serve', '--port', '65536'], /^cqa serve: --port must be an integer from 0 to 65535, got '65536'/],
    [['serve', '--port', '1.5'], /^cqa serve: --port must be an integer/],
    [['serve', '--port=-1'], /^cqa serve: --port must be an integer/],
    [['serve', '--port', '1e3'], /^cqa serve: --port must be an integer/],
    // Each malformed --delay names its problem and what to write instead.
    [['serve', '--delay', '3000000000'], /^cqa serve: --delay '3000000000': 3000000000 ms is more than 600000 ms \(ten minutes\)/],
    [
      ['serve', '--delay', '0x10'],
      /^cqa serve: --delay '0x10': not a number of milliseconds; write milliseconds \(200\) or a range MIN-MAX \(100-400\)/,
    ],
    [
      ['serve', '--delay', 'a-b'],
      /^cqa serve: --delay 'a-b': not a number of milliseconds; write milliseconds \(200\) or a range MIN-MAX \(100-400\)/,
    ],
    [
      ['serve', '--delay', '400-100'],
      /^cqa serve: --delay '400-100': the range's minimum \(400\) is above its maximum \(100\); write 100-400$/m,
    ],
    [['serve', '--delay=-5'], /^cqa serve: --delay '-5': a delay cannot be negative; write 5, or 0-5 for a range from 0$/m],
    // A negative number after the option is its value, not an option parseArgs calls ambiguous.
    [['serve', '--delay', '-5'], /^cqa serve: --delay '-5': a delay cannot be negative; write 5, or 0-5 for a range from 0$/m],
    [['serve', '--port', '-1'], /^cqa serve: --port must be an integer from 0 to 65535, got '-1'/],
    [['serve', '--delay', '10-'], /^cqa serve: --delay '10-': the range has no maximum; write both ends \(10-110\) or 10 alone$/m],
    [['serve', '--delay', '1.5'], /^cqa serve: --delay '1\.5': milliseconds are whole numbers; write 2$/m],
    [['serve', '--fail-rate', '1.5'], /^cqa serve: --fail-rate must be a number from 0 to 1 \(0\.1: one request in ten\), got '1\.5'/],
    [['serve', '--fail-rate', '10%'], /^cqa serve: --fail-rate must be a number from 0 to 1/],
    [['serve', '--fail-status', '404'], /^cqa serve: --fail-status must be one of 429, 500, 503, got '404'/],
    [['serve', '--seed=-1'], /^cqa serve: --seed must be an integer from 0 to 4294967295/],
    [['serve', '--log', 'xml'], /^cqa serve: --log must be one of text, json, got 'xml'/],
    [['serve', '--max-limit', '99999999999999999999999'], /^cqa serve: --max-limit must be an integer from 0 to 1000000000/],
    [['serve', '--max-limit', ''], /^cqa serve: --max-limit must be an integer/],
    [['preview', dist, '--port', '70000'], /^cqa preview: --port must be an integer from 0 to 65535/],
    [['preview', dist, '--port', '12.0'], /^cqa preview: --port must be an integer/],
    // Values sent as headers: a control character would fail every answer.
    [['serve', '--cache-control', 'no-cache\r\nX-Evil: 1'], /^cqa serve: --cache-control must be printable ASCII/],
    [['serve', '--cors', 'https://a.example\n'], /^cqa serve: --cors must be printable ASCII/],
    // Origins no browser sends (found from outside: accepted, and every cross-origin fetch failed).
    [['serve', '--cors', 'example.com'], /^cqa serve: --cors 'example.com' is not an origin .* write scheme:\/\/host\[:port\]/],
    [
      ['serve', '--cors', 'https://a.example/,http://localhost:5173'],
      /^cqa serve: --cors 'https:\/\/a.example\/' .* write 'https:\/\/a.example'$/m,
    ],
  ];
  it.each(cases)('%j → exit 2 naming the option and its range', async (args, message) => {
    const r = await cqa(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(STACK);
  });
});

describe('cqa: where to listen', () => {
  it.each([
    [['serve', 'content', '--port', '0', '--host', '999.1.1.1'], 'serve'],
    [['preview', dist, '--port', '0', '--host', '999.9.9.9'], 'preview'],
    [['serve', 'content', '--port', '0', '--host', 'bad host!'], 'serve'],
  ])('%j: a malformed --host is a usage error, not a stack trace', async (args, command) => {
    const r = await cqa(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^cqa ${command}: --host must be an IP address .* got '`));
    expect(r.err).not.toMatch(STACK);
  });

  it.each(['serve', 'preview'])('cqa %s on a port in use: one line saying so, exit 2', async (command) => {
    const r = await cqa(
      [command, command === 'serve' ? 'content' : dist, '--port', String(busyPort), '--host', '127.0.0.1', '--quiet'].filter(
        (a) => command === 'serve' || a !== '--quiet',
      ),
    );
    expect(r.code).toBe(2);
    expect(
      r.err
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('warning:')),
    ).toEqual([
      `cqa ${command}: cannot listen on 127.0.0.1:${busyPort}: the port is in use; choose another --port (--port 0 picks a free one)`,
    ]);
  });

  it('explains every listen and lookup error as a ListenError naming the option', () => {
    const error = (code: string, syscall: string) => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
    const cases: [string, string, RegExp][] = [
      ['EADDRINUSE', 'listen', /port is in use; choose another --port/],
      ['EACCES', 'listen', /permission denied .* --port from 1024 to 65535/],
      ['EPERM', 'listen', /permission denied/],
      ['EADDRNOTAVAIL', 'listen', /not an address of this machine; use --host 127\.0\.0\.1/],
      ['EAFNOSUPPORT', 'listen', /no IPv6; use --host 127\.0\.0\.1/],
      ['ENOTFOUND', 'getaddrinfo', /host name 'h' could not be resolved; give an IP address/],
      ['EAI_AGAIN', 'getaddrinfo', /could not be resolved/],
      ['EINVAL', 'listen', /^cannot listen on h:1: listen EINVAL$/],
    ];
    for (const [code, syscall, message] of cases) {
      const explained = explainListenError(error(code, syscall), 'h', 1);
      expect(explained, code).toBeInstanceOf(ListenError);
      expect((explained as Error).message, code).toMatch(message);
    }
    const other = new Error('something else');
    expect(explainListenError(other, 'h', 1)).toBe(other);
  });
});

describe('cqa: unknown commands', () => {
  it('are a usage error (exit 2) even when named like an Object.prototype member', async () => {
    for (const name of ['nope', 'toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const r = await cqa([name]);
      expect(r.code, name).toBe(2);
      expect(r.err, name).toMatch(new RegExp(`^cqa: unknown command '${name}'`));
      expect(r.err).not.toMatch(STACK);
    }
  });
});

describe('cqa: unexpected failures', () => {
  it('are one line `cqa <command>: <message>` and exit 1; the stack only with CQA_DEBUG=1', async () => {
    // A _headers that is a folder: reading it fails inside the command, past every check.
    const odd = join(work, 'odd');
    mkdirSync(join(odd, '_headers'), { recursive: true });
    writeFileSync(join(odd, 'manifest.json'), '{"name":"content-query-api","snapshot":"0"}\n'); // a build's, or preview refuses the folder (exit 2)
    const r = await cqa(['preview', odd, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(/^cqa preview: EISDIR: [^\n]*$/);
    const debug = await cqa(['preview', odd, '--port', '0'], { CQA_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.err).toMatch(STACK);
  });

  it('errorText gives the first line of the message', () => {
    expect(errorText(new Error('first\nsecond'))).toBe('first');
    expect(errorText('plain')).toBe('plain');
  });
});

describe('startServer', () => {
  it.each([3_000_000_000, -1, 1.5, Number.NaN])('refuses delay %s (Node would fire a timer over 2^31-1 ms after 1 ms)', async (delay) => {
    await expect(startServer({ snapshot: { projects: new Map() } as never, port: 0, delay })).rejects.toThrow(
      /delay must be an integer from 0 to 600000/,
    );
  });
});
