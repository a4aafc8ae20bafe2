// --cors / the `cors` option takes origins as a browser sends them in its Origin header. A value
// that can never equal one (no scheme, a trailing slash, a path, capitals, a default port) was
// accepted, and every cross-origin request then failed with the browser's bare "CORS error"
// (found from outside): it is refused, naming what to write.
import { describe, expect, it } from 'vitest';
import { corsProblem } from '../../src/core/http/cors.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer } from '../../src/node/server/start.js';
import { makeModel, tempDir } from './fixture.js';

const snapshot = createSnapshot(makeModel(tempDir()));

describe('cors: origins as a browser sends them', () => {
  it.each([
    '*',
    '',
    'https://app.example',
    'http://localhost:5173',
    'http://127.0.0.1:8080, https://app.example',
    'http://[::1]:3000',
    'capacitor://localhost', // a web view's own scheme: sent as written
    'null', // a sandboxed frame, a file: page
  ])('%j is taken', (cors) => {
    expect(corsProblem(cors)).toBeUndefined();
    expect(() => createHandler(snapshot, { cors })).not.toThrow();
  });

  it.each([
    ['example.com', 'write scheme://host[:port], e.g. https://example.com'],
    ['localhost:5173', 'write scheme://host[:port], e.g. https://example.com'],
    ['https://example.com/', "write 'https://example.com'"],
    ['https://example.com/app', "write 'https://example.com'"],
    ['https://Example.COM', "write 'https://example.com'"],
    ['https://example.com:443', "write 'https://example.com'"],
    ['http://user@example.com', "write 'http://example.com'"],
    ['https://ok.example, http://localhost:5173/', "write 'http://localhost:5173'"],
    // Round two (found from outside): an IDN in punycode, capitals of an app scheme, a ';' list.
    ['https://bücher.de', "write 'https://xn--bcher-kva.de'"],
    ['chrome-extension://ABC/', "write 'chrome-extension://abc'"],
    ['http://a.com;http://b.com', 'write scheme://host[:port], e.g. https://example.com'],
  ])('%j is refused: %s', (cors, fix) => {
    const problem = corsProblem(cors) as string;
    expect(problem).toMatch(/is not an origin as a browser sends it .* so it would never match: /);
    expect(problem.endsWith(fix)).toBe(true);
    expect(() => createHandler(snapshot, { cors })).toThrow(new TypeError(`cors: ${problem}`));
  });

  it.each([
    [
      'https://*.example.com',
      "'https://*.example.com': a pattern matches no browser's origin (it is compared as written): list each origin",
    ],
    [' , ', "',' names no origin: give '*', an origin, or a comma-separated list"],
    ['*,https://a.example', "'*' stands alone: it allows every origin, so a list holding it means '*'; give '*' or the origins"],
    ['file:///x.html', "'file:///x.html': a page opened from a file sends the origin null: write null"],
  ])('%j is refused, saying why', (cors, problem) => {
    expect(corsProblem(cors)).toBe(problem);
  });

  it('startServer refuses it before it listens', async () => {
    await expect(startServer({ snapshot, cors: 'https://app.example/', port: 0 })).rejects.toThrow(
      "cors: 'https://app.example/' is not an origin as a browser sends it",
    );
  });
});
