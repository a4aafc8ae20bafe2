// Slow clients (docs/security.md): a connection that never finishes its request headers is closed
// after headersTimeout, 10 s, by cqa serve and by cqa preview. Node enforces the timeout only when
// it checks its connections, by default every 30 s: such a connection lived ~35 s. Slow (~11 s).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmptyServers, startEmptyServers } from './empty-servers.js';

const HEADERS_TIMEOUT_MS = 10_000;
/** Node checks every second (src/node/server/timeouts.ts), and a test machine may be busy. */
const MARGIN_MS = 2_000;

let servers: EmptyServers;

beforeAll(async () => {
  servers = await startEmptyServers();
});
afterAll(() => servers?.close());

/**
 * Opens a connection to `url`, sends a request line and one header, then one more header line
 * every 3 s without ever ending the headers. Resolves with how long the server kept the
 * connection and what it wrote; gives up (and closes) once the limit plus the margin has passed.
 */
function trickle(url: string): Promise<{ ms: number; answer: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let started = 0;
    let line = 0;
    let ticks: NodeJS.Timeout | undefined;
    let giveUp: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      clearInterval(ticks);
      clearTimeout(giveUp);
      socket.destroy();
      done({ ms: performance.now() - started, answer, closedByServer });
    };
    socket.on('connect', () => {
      started = performance.now();
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      ticks = setInterval(() => socket.writable && socket.write(`X-Slow-${line++}: 1\r\n`), 3_000);
      giveUp = setTimeout(() => finish(false), HEADERS_TIMEOUT_MS + MARGIN_MS + 1_000);
    });
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.once('close', () => finish(true));
  });
}

describe('a client that never finishes its headers', () => {
  it('is closed within headersTimeout (10 s) by cqa serve and cqa preview', async () => {
    const [fromServe, fromPreview] = await Promise.all([trickle(servers.served.url), trickle(servers.preview.url)]);
    for (const r of [fromServe, fromPreview]) {
      expect(r.closedByServer).toBe(true);
      expect(r.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 500);
      expect(r.ms).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + MARGIN_MS);
      expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    }
    // The servers still answer others.
    expect((await fetch(`${servers.served.url}/healthz`)).status).toBe(200);
  }, 30_000);
});
