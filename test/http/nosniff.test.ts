// Every API answer says X-Content-Type-Options: nosniff, on cqa serve / startServer and the fetch
// handler alike: answers quote what the request sent (`sort: unknown field '<svg onload=…>'`), and
// a browser must never read one as another type (found from outside: cqa preview sent it, serve not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { JSON_ACCEPT, READ } from './cases.js';
import { fetchClient, makeModel, socketClient, tempDir, type Client } from './fixture.js';

let snapshot: Snapshot;
let server: RunningServer;
beforeAll(async () => {
  snapshot = createSnapshot(makeModel(tempDir()));
  server = await startServer({ snapshot, port: 0 });
});
afterAll(() => server?.close());

const PATHS: [string, Record<string, string>, number][] = [
  ['/api/alpha/posts', READ, 200],
  ['/api/alpha/posts?limit=1000&fields=id', { ...READ, 'accept-encoding': 'gzip' }, 200],
  ['/api/alpha/posts?sort=%3Csvg%20onload=alert(1)%3E', READ, 400],
  ['/api/%3Cscript%3E/posts', JSON_ACCEPT, 404],
  ['/api/alpha/posts', JSON_ACCEPT, 401],
];

describe('X-Content-Type-Options: nosniff on every answer', () => {
  it.each(['startServer', 'createHandler'])('%s', async (kind) => {
    const client: Client = kind === 'startServer' ? socketClient(server.url) : fetchClient(createHandler(snapshot));
    for (const [path, headers, status] of PATHS) {
      const r = await client({ path, headers });
      expect(r.status, path).toBe(status);
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });
});
