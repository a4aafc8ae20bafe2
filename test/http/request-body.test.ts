// A request that brings a body (docs/security.md, "Slow clients"): the API reads none, so cqa serve
// and cqa preview answer it and close the connection, instead of reading the body to its end
// however slowly it comes (found from outside: one byte every 3 s held a connection for minutes).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmptyServers, startEmptyServers } from './empty-servers.js';

/** How long a test waits for the server to close before it calls the connection held. */
const GIVE_UP_MS = 8_000;

let servers: EmptyServers;

beforeAll(async () => {
  servers = await startEmptyServers();
});
afterAll(() => servers?.close());

/**
 * Sends `head` and then a byte of body every 200 ms; resolves with what the server wrote and
 * whether it closed the connection before GIVE_UP_MS.
 */
function trickleBody(url: string, head: string): Promise<{ answer: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(ticks);
      clearTimeout(giveUp);
      socket.destroy();
      done({ answer, closedByServer });
    };
    const ticks = setInterval(() => socket.writable && socket.write(head.includes('chunked') ? '1\r\na\r\n' : 'a'), 200);
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.on('connect', () => socket.write(head));
    socket.setEncoding('latin1').on('data', (text: string) => (answer += text));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

describe('a request with a body', () => {
  const heads = {
    'a Content-Length': 'Content-Length: 100000000\r\n\r\nab',
    'a chunked body': 'Transfer-Encoding: chunked\r\n\r\n2\r\nab\r\n',
  };
  for (const [server, url] of [
    ['cqa serve', () => servers.served.url],
    ['cqa preview', () => servers.preview.url],
  ] as const) {
    for (const [name, rest] of Object.entries(heads)) {
      it(`${server}: with ${name} is answered, and its connection closed without reading the body`, async () => {
        const { answer, closedByServer } = await trickleBody(url(), `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${rest}`);
        expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
        expect(answer.toLowerCase()).toContain('connection: close');
        expect(closedByServer).toBe(true);
      }, 15_000);
    }
  }

  it('a request without one keeps its connection (Content-Length: 0 included)', async () => {
    const res = await fetch(`${servers.served.url}/healthz`, { method: 'GET', headers: { 'content-length': '0' } });
    expect(res.headers.get('connection')).toBe('keep-alive');
  });
});
