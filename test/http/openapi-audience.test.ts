// /openapi.json describes only what the caller may read: without a token the public projects,
// with a valid token its own project too (same token rules as the API). Each audience gets its own
// document, ETag and cache policy, through both adapters (startServer and createHandler).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { fetchClient, makeModel, sha, socketClient, tempDir, TOKENS, type Client } from './fixture.js';

const NO_SCOPE = 'gamma-no-scope';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** What the private projects' descriptions would give away: ids, names, collections, fields, enum values. */
const PRIVATE_WORDS = ['alpha', 'Alpha', 'beta', 'Beta', '"posts', 'Posts', 'things', 'Things', 'price', '"news"', '"tech"', '"life"'];

let snapshot: Snapshot;
let server: RunningServer;
const clients: Record<string, () => Client> = {};

beforeAll(async () => {
  const model = makeModel(tempDir());
  const beta = model.projects[1]!;
  // A token that passes the hash lookup but grants nothing: 403, as on the API.
  const withNoScope = {
    ...model,
    projects: [
      model.projects[0]!,
      { ...beta, tokens: [...beta.tokens, { name: 'none', sha256: sha(NO_SCOPE), scopes: [] }] },
      model.projects[2]!,
    ],
  };
  snapshot = createSnapshot(withNoScope);
  server = await startServer({ snapshot });
  clients.node = () => socketClient(server.url);
  // A fresh handler per test: the first request decides what its cache holds.
  clients.fetch = () => fetchClient(createHandler(snapshot));
});
afterAll(() => server?.close());

const projectsOf = (text: string) => Object.keys(JSON.parse(text).paths).filter((p) => /^\/api\/[^/]+$/.test(p));

describe.each(['node', 'fetch'])('/openapi.json (%s adapter)', (kind) => {
  const client = () => (clients[kind] as () => Client)();

  it('without a token describes the public projects only', async () => {
    const r = await client()({ path: '/openapi.json' });
    expect(r.status).toBe(200);
    expect(projectsOf(r.text)).toEqual(['/api/pub']);
    const doc = JSON.parse(r.text);
    expect(Object.keys(doc.components.schemas).filter((n) => n.includes('.'))).toEqual([
      'pub.notes',
      'pub.notes.list',
      'pub.notes.item',
      'pub.notes.where',
    ]);
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(['pub']);
    for (const word of PRIVATE_WORDS) expect(r.text.includes(word), word).toBe(false);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers.vary).toContain('Authorization');
  });

  it("with a token adds the token's project, privately cached, with its own ETag", async () => {
    const c = client();
    // Token first, then anonymous: what the cache holds for one audience never reaches the other.
    const alpha = await c({ path: '/openapi.json', headers: bearer(TOKENS.read) });
    const anonymous = await c({ path: '/openapi.json' });
    const beta = await c({ path: '/openapi.json', headers: bearer(TOKENS.beta) });
    expect(alpha.status).toBe(200);
    expect(projectsOf(alpha.text)).toEqual(['/api/alpha', '/api/pub']);
    expect(projectsOf(beta.text)).toEqual(['/api/beta', '/api/pub']);
    expect(projectsOf(anonymous.text)).toEqual(['/api/pub']);
    expect(alpha.text).toContain('"enum":["news","tech","life"]');
    expect(beta.text).not.toContain('alpha');
    expect(alpha.headers['cache-control']).toMatch(/^private/);
    expect(alpha.headers.vary).toContain('Authorization');
    expect(new Set([alpha.headers.etag, beta.headers.etag, anonymous.headers.etag]).size).toBe(3);
    // A validator of one audience does not revalidate another's document.
    const cross = await c({ path: '/openapi.json', headers: { 'if-none-match': alpha.headers.etag as string } });
    expect(cross.status).toBe(200);
    expect(projectsOf(cross.text)).toEqual(['/api/pub']);
    const same = await c({ path: '/openapi.json', headers: { ...bearer(TOKENS.read), 'if-none-match': alpha.headers.etag as string } });
    expect(same.status).toBe(304);
  });

  it('answers a bad token as the API does (401/403), never with a document', async () => {
    const c = client();
    const unknown = await c({ path: '/openapi.json', headers: bearer('not-a-known-token') });
    expect(unknown.status).toBe(401);
    expect(unknown.headers['www-authenticate']).toBe('Bearer realm="cqa", error="invalid_token"');
    const malformed = await c({ path: '/openapi.json', headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    expect(malformed.headers['www-authenticate']).toBe('Bearer realm="cqa", error="invalid_request"');
    const noScope = await c({ path: '/openapi.json', headers: bearer(NO_SCOPE) });
    expect(noScope.status).toBe(403);
    for (const r of [unknown, malformed, noScope]) {
      expect(r.headers['cache-control']).toBe('no-store');
      for (const word of PRIVATE_WORDS) expect(r.text.includes(word), word).toBe(false);
    }
  });
});

describe('snapshot.openapi', () => {
  it('is the public description; openapiOf(ids) describes exactly those projects', () => {
    expect(projectsOf(snapshot.openapi)).toEqual(['/api/pub']);
    expect(projectsOf(snapshot.openapiOf(['beta', 'alpha', 'nope']))).toEqual(['/api/alpha', '/api/beta']);
    expect(projectsOf(snapshot.openapiOf([]))).toEqual([]);
  });
});
