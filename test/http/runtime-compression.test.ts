// createHandler's `compression: 'runtime'` (the default in Cloudflare Workers): the handler picks
// the coding and sets Content-Encoding, ETag and Vary for it, but leaves the body plain for the
// runtime to encode — never compressed twice.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { READ } from './cases.js';
import { makeModel, tempDir } from './fixture.js';

const snapshot = createSnapshot(makeModel(tempDir()));

describe("compression: 'runtime'", () => {
  const handler = createHandler(snapshot, { compression: 'runtime' });
  const plain = createHandler(snapshot, { compression: 'handler' });

  it('sets the coding the client accepts (br too) on the plain body', async () => {
    for (const [accept, coding] of [
      ['gzip', 'gzip'],
      ['br, gzip;q=0.5', 'br'],
      ['gzip;q=0, br;q=0', null],
    ] as const) {
      const res = await handler(new Request('http://x/api/alpha/posts', { headers: { ...READ, 'accept-encoding': accept } }));
      expect(res.headers.get('content-encoding'), accept).toBe(coding);
      if (coding) expect(res.headers.get('etag')).toMatch(new RegExp(`-${coding}"$`));
      const body = await res.text();
      expect(JSON.parse(body).meta.total).toBe(30);
    }
  });

  it("negotiates on the client's own Accept-Encoding where Workers keep it (request.cf)", async () => {
    const req = new Request('http://x/api/alpha/posts', { headers: { ...READ, 'accept-encoding': 'br, gzip' } });
    Object.defineProperty(req, 'cf', { value: { clientAcceptEncoding: '' } });
    const res = await handler(req);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toMatch(/^\d+$/);
  });

  it("'handler' compresses the body itself", async () => {
    const res = await plain(new Request('http://x/api/alpha/posts', { headers: { ...READ, 'accept-encoding': 'gzip' } }));
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });
});
