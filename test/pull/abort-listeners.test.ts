// A pull sends thousands of requests under one AbortSignal (Ctrl-C). Each request must leave no
// listener on it: fetch keeps its own until the response is collected, and a long pull used to
// print MaxListenersExceededWarning ("3066 abort listeners added") and hold every one.
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Fetcher } from '../../src/node/pull/fetch.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

it('200 requests leave no abort listener on the pull signal, and an abort still stops the next one', async () => {
  const controller = new AbortController();
  const fetcher = new Fetcher({ baseUrl: base, token: undefined, signal: controller.signal });
  for (let i = 0; i < 200; i++) await fetcher.request(`/x${i}`, {}, (r) => r.text());
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  controller.abort(new Error('stopped'));
  await expect(fetcher.request('/y', {}, (r) => r.text())).rejects.toThrow('stopped');
});
