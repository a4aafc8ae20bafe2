// A server that cannot listen leaves nothing running (issue 24, item 3): startServer({ watch })
// rejects and its process ends by itself (no parse thread, watcher or timer left), and
// `cqa serve --watch` on a busy port explains why and exits 2. Run on the compiled lib/ (the
// global setup builds it), where --watch parses on a thread of its own.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LIB = pathToFileURL(resolve('lib/index.js')).href;
const CONTENT = resolve('content');
const work = mkdtempSync(join(tmpdir(), 'cqa-start-failure-'));
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

/** Runs node with `args` to its end; SIGKILLed after 15 s (a process left running by a leak). */
function run(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      done({ code, signal, out, err });
    });
  });
}

/** A script that calls startServer(options) and prints how it ended; it must then exit on its own. */
const script = (options: string) => `
  const { startServer } = await import(${JSON.stringify(LIB)});
  const content = ${JSON.stringify(CONTENT)};
  try {
    await startServer(${options});
    console.log('started');
  } catch (err) {
    console.log('rejected ' + (err.code ?? err.message));
  }
`;

describe('startServer({ watch: true }) that cannot listen', () => {
  const cases: [string, () => string, string][] = [
    ['on a busy port', () => `{ content, watch: true, port: ${busyPort} }`, 'rejected EADDRINUSE'],
    // 192.0.2.1 (TEST-NET-1) is no address of this machine.
    ['on an address not of this machine', () => `{ content, watch: true, host: '192.0.2.1', port: 0 }`, 'rejected EADDRNOTAVAIL'],
  ];
  it.each(cases)('%s: rejects, and the process exits by itself', async (_name, options, expected) => {
    // A file, not `-e`: the parse thread would inherit `--input-type` and refuse to start.
    const file = join(work, `${_name.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(file, script(options()));
    const r = await run([file]);
    expect(r.err).toBe('');
    expect(r.out.trim()).toBe(expected);
    expect(r.signal).toBeNull(); // not killed by the 15 s bound
    expect(r.code).toBe(0);
  });
});

describe('cqa serve --watch on a busy port', () => {
  it('says the port is in use and exits 2', async () => {
    const r = await run(['bin/cqa.js', 'serve', 'content', '--watch', '--port', String(busyPort), '--quiet']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(
      r.err
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('warning:')),
    ).toEqual([`cqa serve: cannot listen on 127.0.0.1:${busyPort}: the port is in use; choose another --port (--port 0 picks a free one)`]);
  });
});
