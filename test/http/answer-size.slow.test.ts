// An answer too large for a JavaScript string was a 500 (found from outside): 200 entries that each
// embed a related entry of 4 MB make 839 M characters, past V8's longest string, and the join
// threw `Invalid string length`. Now an answer over MAX_ANSWER_CHARS (64 Mi characters) is a 400
// `answer_too_large` that names its size and how many entries would fit, in each dialect's shape,
// from the node server and the fetch handler alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { HttpCore, type QueryEngine } from '../../src/core/http/core.js';
import { defaultEngine } from '../../src/core/http/engine.js';
import type { Snapshot } from '../../src/core/model/types.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { loadContent } from '../../src/node/content/index.js';
import { nodePlatform } from '../../src/node/server/node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { writeTree, type Tree } from '../content/helpers.js';
import { type Client, fetchClient, socketClient } from './fixture.js';

const V3 = '22222222-3333-4444-8555-666666666666';
/** Just under the 4 MiB a content file may be. */
const TITLE = 'x'.repeat(4 * 2 ** 20 - 100);
const JSON_ACCEPT = { accept: 'application/json' };

/**
 * A collection `big` with one entry of ~4 MB and `refs`: 20 entries that each relate to it (and so
 * embed it), an 84 Mi-character list: past the answer bound, within the bound on what relations may
 * embed (200 are refused at load since; docs/security.md).
 */
function embedding(project: string, dialect: string): Tree {
  const tree: Tree = {
    [`${project}/project.yaml`]: `id: ${project}\ndialect: ${dialect}\npublic: true\n`,
    [`${project}/big/_collection.yaml`]: 'fields:\n  title: text\n',
    [`${project}/big/b.yaml`]: `title: ${TITLE}\n`,
    [`${project}/refs/_collection.yaml`]: 'fields:\n  title: text\n  rel: { type: relation, collection: big }\n',
  };
  for (let i = 0; i < 20; i++) tree[`${project}/refs/r${i}.yaml`] = `title: r${i}\nrel: b\n`;
  return tree;
}

const FITS = /ask for fewer entries with limit(?: \(or paginate\))? \((\d+) of this size would fit\)/;

describe('answers longer than an answer may be', () => {
  let snapshot: Snapshot;
  let server: RunningServer;
  beforeAll(async () => {
    const tree: Tree = {
      ...embedding('c', 'cqa'),
      ...embedding('e', 'elmapi'),
      // elmapi3 embeds at most 8 Mi characters of related entries per answer: its own values make it large.
      'v3/project.yaml': `id: ${V3}\ndialect: elmapi3\npublic: true\n`,
      'v3/own/_collection.yaml': 'fields:\n  title: text\n',
    };
    for (let i = 0; i < 17; i++) tree[`v3/own/o${i}.yaml`] = `title: ${TITLE}\n`;
    const { model, issues } = await loadContent(writeTree(tree));
    expect(issues).toEqual([]);
    snapshot = createSnapshot(model);
    server = await startServer({ snapshot, host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(() => server?.close());

  const clients = (): [string, Client][] => [
    ['node server', socketClient(server.url)],
    ['fetch handler', fetchClient(createHandler(snapshot, { elmapi3: elmapi3Routes }))],
  ];

  it('cqa: a list over the bound is a 400 problem naming its size and the limit that fits; that limit, or fewer fields, answers', async () => {
    for (const [name, client] of clients()) {
      for (const path of ['/api/c/refs?limit=20', '/api/c/refs']) {
        const r = await client({ path, headers: JSON_ACCEPT });
        expect(r.status, `${name} ${path}`).toBe(400);
        expect(r.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        const p = JSON.parse(r.text);
        expect(p).toMatchObject({ status: 400, code: 'answer_too_large', param: 'limit' });
        expect(p.detail).toMatch(/^this answer \(20 items\) would be [\d,]+ characters, more than the 67,108,864 one answer may hold: /);
        expect(p.detail).toMatch(FITS);
        expect(p.detail).toContain('or for fewer fields with fields=');
      }
      const fit = Number(FITS.exec(JSON.parse((await client({ path: '/api/c/refs?limit=20', headers: JSON_ACCEPT })).text).detail)?.[1]);
      const ok = await client({ path: `/api/c/refs?limit=${fit}`, headers: JSON_ACCEPT });
      expect(ok.status, name).toBe(200);
      expect(JSON.parse(ok.text).data).toHaveLength(fit);
      const few = await client({ path: '/api/c/refs?limit=20&fields=title', headers: JSON_ACCEPT });
      expect(few.status, name).toBe(200);
      expect(JSON.parse(few.text).data).toHaveLength(20);
    }
  });

  it('elmapi: the same refusal in its own shape (422 {"error","code"})', async () => {
    for (const [name, client] of clients()) {
      for (const path of ['/api/e/refs?limit=20', '/api/e/refs']) {
        const r = await client({ path, headers: JSON_ACCEPT });
        expect(r.status, `${name} ${path}`).toBe(422);
        const body = JSON.parse(r.text);
        expect(body.code).toBe('answer_too_large');
        expect(body.error).toMatch(FITS);
      }
    }
  });

  it('elmapi3: the same refusal in its own shape (400 {"message"}), naming its parameters', async () => {
    for (const [name, client] of clients()) {
      const r = await client({ path: '/api/own', headers: { ...JSON_ACCEPT, 'project-id': V3 } });
      expect(r.status, name).toBe(400);
      const { message } = JSON.parse(r.text);
      expect(message).toMatch(/^this answer \(17 items\) would be [\d,]+ characters, more than the 67,108,864 one answer may hold: /);
      expect(message).toMatch(FITS);
      expect(message).toContain('or for fewer fields with exclude=');
      const fit = Number(FITS.exec(message)?.[1]);
      const ok = await client({ path: `/api/own?limit=${fit}`, headers: { ...JSON_ACCEPT, 'project-id': V3 } });
      expect(ok.status, name).toBe(200);
    }
  });

  it('an answer that grows past the longest string where it is not measured first is the same 400, not a 500', () => {
    const errors: unknown[] = [];
    const engine: QueryEngine = {
      ...defaultEngine,
      queryEntries: () => {
        throw new RangeError('Invalid string length');
      },
    };
    const core = new HttpCore(snapshot, nodePlatform, engine, { onError: (e) => errors.push(e) });
    const r = core.handle({ method: 'GET', path: '/api/c/refs', query: 'limit=5', headers: JSON_ACCEPT });
    expect(r.status).toBe(400);
    expect(JSON.parse(String(Buffer.from(r.body as Uint8Array)))).toMatchObject({ code: 'answer_too_large' });
    expect(JSON.parse(String(Buffer.from(r.body as Uint8Array))).detail).toContain(
      'longer than the 536,870,888 characters a JavaScript string holds',
    );
    expect(errors).toEqual([]);
  });
});
