// Field names that are also names of Object.prototype (toString, valueOf, hasOwnProperty, …), end to
// end: `cqa build` writes valid JSON, byte-identical to what both adapters answer, and every query
// parameter that takes a field name answers 200 with the right items (or a 400 where the collection
// has no such field) — never a 500.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as build } from '../../src/node/commands/build.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { png, writeTree } from '../content/helpers.js';
import { fetchClient, socketClient, tempDir, type Client } from './fixture.js';
import { matches, sortedIds, type Item, type RefOp } from './shown.js';

// __proto__ and constructor cannot be field names (test/content/prototype-names.test.ts).
const NAMES = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__' && n !== 'constructor');
const HEADERS = { accept: 'application/json', authorization: 'Bearer names-read' };

const fields = (type: (k: number) => string) => `fields:\n${NAMES.map((n, k) => `  ${n}: ${type(k)}`).join('\n')}\n`;
const all = (value: (k: number) => string) => `${NAMES.map((n, k) => `${n}: ${value(k)}`).join('\n')}\n`;
const multiple = (k: number) => k % 2 === 1;

/** Per collection: the two values its queries compare with. Every entry but the last has them. */
const COLLECTIONS: Record<string, { values: [string, string]; lt?: boolean; relation?: boolean }> = {
  plain: { values: ['1', '2'], lt: true },
  rels: { values: ['t1', 't2'], relation: true },
  medias: { values: ['a.png', 'b.txt'] },
  enums: { values: ['x', 'y'] },
  inferred: { values: ['v1', 'v2'] },
};

const content = writeTree({
  'names/project.yaml': 'tokens:\n  - name: r\n    token: names-read\n',
  'names/media/a.png': png(1, 1),
  'names/media/b.txt': 'b',
  'names/targets/t1.yaml': 'label: one\n',
  'names/targets/t2.yaml': 'label: two\n',
  'names/plain/_collection.yaml': fields(() => 'number'),
  'names/plain/e1.yaml': all(() => '1'),
  'names/plain/e2.yaml': all(() => '2'),
  'names/plain/e3.yaml': '{}\n',
  'names/rels/_collection.yaml': fields((k) => `{ type: relation, collection: targets, multiple: ${multiple(k)} }`),
  'names/rels/r1.yaml': all(() => 't1'),
  'names/rels/r2.yaml': all((k) => (multiple(k) ? '[t2, t1]' : 't2')),
  'names/rels/r3.yaml': '{}\n',
  'names/medias/_collection.yaml': fields((k) => `{ type: media, multiple: ${multiple(k)} }`),
  'names/medias/m1.yaml': all(() => 'a.png'),
  'names/medias/m2.yaml': all(() => 'b.txt'),
  'names/medias/m3.yaml': '{}\n',
  'names/enums/_collection.yaml': fields(() => '{ type: enumeration, values: [x, y] }'),
  'names/enums/n1.yaml': all(() => 'x'),
  'names/enums/n2.yaml': all(() => 'y'),
  'names/enums/n3.yaml': '{}\n',
  'names/inferred/i1.yaml': all(() => 'v1'),
  'names/inferred/i2.yaml': 'valueOf: v2\ntoString: v2\n',
  'names/inferred/i3.yaml': 'other: z\n',
});
const root = tempDir('cqa-names-');
const out = join(root, 'dist');

let server: RunningServer;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const quietErr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    expect(await build([content, '--out', out, '--include-private'])).toBe(0);
  } finally {
    quiet.mockRestore();
    quietErr.mockRestore();
  }
  server = await startServer({ content });
  clients.node = socketClient(server.url);
  clients.fetch = fetchClient(createHandler(server.snapshot));
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function getJson(client: Client, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await client({ path, headers: HEADERS });
  expect(r.status, `${path}: ${r.text}`).toBeLessThan(500);
  return { status: r.status, body: JSON.parse(r.text) as Record<string, unknown> };
}

describe.each(['node', 'fetch'])('%s adapter', (kind) => {
  it('cqa build wrote valid JSON, byte-identical to the answers', async () => {
    const client = clients[kind] as Client;
    const files = (readdirSync(join(out, 'api'), { recursive: true }) as string[]).filter(
      (f) => f.endsWith('index.json') && !/\.query[\\/]index\.json$/.test(f),
    ); // (not the static client's query indexes)
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const text = readFileSync(join(out, 'api', file), 'utf8');
      expect(() => JSON.parse(text), file).not.toThrow();
      const path = `/api/${file.split(/[\\/]/).slice(0, -1).join('/')}`;
      const r = await client({ path, headers: HEADERS });
      expect(r.status, path).toBe(200);
      expect(r.text, path).toBe(text);
    }
  });

  it.each(Object.entries(COLLECTIONS))(
    'every query parameter on %s, with every name as the field',
    async (slug, { values: [a, b], lt, relation }) => {
      const client = clients[kind] as Client;
      const base = `/api/names/${slug}`;
      const shown = (await getJson(client, base)).body.data as Item[];
      expect(shown.length).toBe(3);
      for (const n of NAMES) {
        const clauses: [string, RefOp, string[]][] = [
          [`where[${n}]=${a}`, 'eq', [a]],
          [`where[${n}][eq]=${b}`, 'eq', [b]],
          [`where[${n}][not]=${a}`, 'not', [a]],
          [`where[${n}]=null`, 'null', []],
          [`where[${n}][null]`, 'null', []],
          [`where[${n}][not_null]`, 'not_null', []],
          [`where[${n}][in]=${a},${b}`, 'in', [a, b]],
          [`where[${n}][not_in][]=${b}`, 'not_in', [b]],
          ...(lt ? [[`where[${n}][lt]=2`, 'lt', ['2']] as [string, RefOp, string[]]] : []),
        ];
        for (const [query, op, vals] of clauses) {
          const want = shown.filter((i) => matches(i, n, op, vals)).map((i) => i.id);
          const list = await getJson(client, `${base}?${query}`);
          expect(list.status, query).toBe(200);
          expect(
            (list.body.data as Item[]).map((i) => i.id),
            query,
          ).toEqual(want);
          expect((await getJson(client, `${base}?${query}&count`)).body, query).toEqual({ count: want.length });
        }
        for (const desc of [false, true]) {
          const query = `sort=${n}${desc ? ':desc' : ''}`;
          const list = await getJson(client, `${base}?${query}`);
          expect(list.status, query).toBe(200);
          expect(
            (list.body.data as Item[]).map((i) => i.id),
            query,
          ).toEqual(sortedIds(shown, n, desc));
        }
        const only = (await getJson(client, `${base}?fields=${n}`)).body.data as Item[];
        expect(
          only.map((i) => Object.keys(i)),
          n,
        ).toEqual(shown.map(() => ['id', 'locale', n]));
        const rest = (await getJson(client, `${base}?exclude=${n}`)).body.data as Item[];
        expect(
          rest.map((i) => Object.keys(i)),
          n,
        ).toEqual(shown.map((i) => Object.keys(i).filter((k) => k !== n)));
        if (relation) {
          const query = `whereRelation[${n}][label]=one`;
          const list = await getJson(client, `${base}?${query}`);
          expect(list.status, query).toBe(200);
          expect(
            (list.body.data as Item[]).map((i) => i.id),
            query,
          ).toEqual(shown.filter((i) => matches(i, n, 'eq', ['t1'])).map((i) => i.id));
        }
      }
    },
  );

  it('answers 400, never 500, where the name is not a field, operator, parameter or value', async () => {
    const client = clients[kind] as Client;
    for (const n of NAMES) {
      for (const [query, code] of [
        [`where[${n}]=1`, 'unknown_field'],
        [`where[${n}][null]`, 'unknown_field'],
        [`where[label][${n}]=1`, 'unknown_operator'],
        [`sort=${n}`, 'invalid_sort'],
        [`fields=${n}`, 'unknown_field'],
        [`exclude=${n}`, 'unknown_field'],
        [`whereRelation[${n}][label]=one`, 'unknown_field'],
        [`${n}=1`, 'unknown_parameter'],
        [`${n}[where]=1`, 'unknown_parameter'],
        [`state=${n}`, 'invalid_state'],
        [`locale=${n}`, 'invalid_locale'],
      ]) {
        const r = await getJson(client, `/api/names/targets?${query}`);
        expect([r.status, r.body.code], query).toEqual([400, code]);
      }
      // A relation field whose target collection has no such field; a plain field is no relation.
      const viaRel = await getJson(client, `/api/names/rels?whereRelation[toString][${n}]=1`);
      expect([viaRel.status, viaRel.body.code], n).toEqual([400, 'unknown_field']);
      const notRel = await getJson(client, `/api/names/plain?whereRelation[${n}][label]=one`);
      expect([notRel.status, notRel.body.code], n).toEqual([400, 'unknown_field']);
      // One entry, with a field projection.
      const one = await getJson(client, `/api/names/plain/e3?fields=${n}`);
      expect([one.status, one.body.data], n).toEqual([200, { id: 'e3', locale: 'en', [n]: null }]);
    }
  });
});
