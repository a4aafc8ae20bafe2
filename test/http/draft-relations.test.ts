// Relations to drafts (§2.5: an answer embeds the related *published* entries only): filters,
// sorts, whereRelation and counts work on what the answer shows, in every state, for every token,
// through both adapters. A reader without the drafts scope cannot tell a draft's id from an id that
// does not exist, and no answer to a published-state request names a draft, not even as an id
// inside an embedded entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { png, writeTree } from '../content/helpers.js';
import { fetchClient, socketClient, type Client } from './fixture.js';
import { matches, shownValues, sortedIds, type Item, type RefOp } from './shown.js';

// Draft ids: one sorts before every published id, one after; all contain "-draft".
const DRAFT_IDS = ['a0-draft', 'zz-draft', 'd1-draft', 'd2-draft'];
const MISSING = 'no-such-id';

const content = writeTree({
  'd/project.yaml':
    'tokens:\n  - name: reader\n    token: reader-tok\n    scopes: [read]\n  - name: editor\n    token: editor-tok\n    scopes: [read, drafts]\n',
  'd/media/a.png': png(1, 1),
  'd/media/b.png': png(2, 2),
  'd/authors/_collection.yaml': 'fields:\n  name: text\n  mentor: { type: relation, collection: authors }\n',
  'd/authors/ann.yaml': 'name: Ann\nmentor: zz-draft\n',
  'd/authors/bob.yaml': 'name: Bob\nmentor: ann\n',
  'd/authors/a0-draft.yaml': 'name: Early\ndraft: true\n',
  'd/authors/zz-draft.yaml': 'name: Late\ndraft: true\nmentor: bob\n',
  'd/posts/_collection.yaml': [
    'fields:',
    '  title: text',
    '  author: { type: relation, collection: authors }',
    '  coauthors: { type: relation, collection: authors, multiple: true }',
    '  related: { type: relation, collection: posts, multiple: true }',
    '  cover: media',
    // Found from outside: a group's relations named their drafts.
    '  credits:',
    '    type: group',
    '    repeatable: true',
    '    fields:',
    '      who: { type: relation, collection: authors }',
    '      also: { type: relation, collection: authors, multiple: true }',
    '',
  ].join('\n'),
  'd/posts/p1.yaml':
    'title: One\nauthor: a0-draft\ncoauthors: [a0-draft, bob]\nrelated: [d1-draft]\ncover: a.png\ncredits: [{ who: a0-draft, also: [zz-draft, bob] }, { who: bob }]\n',
  'd/posts/p2.yaml': 'title: Two\nauthor: ann\ncoauthors: [zz-draft]\nrelated: [p1, d1-draft]\ncover: b.png\n',
  'd/posts/p3.yaml': 'title: Three\nauthor: zz-draft\ncoauthors: []\nrelated: [p2]\n',
  'd/posts/p4.yaml': 'title: Four\nauthor: bob\ncoauthors: [ann, a0-draft]\nrelated: [d2-draft, p3]\ncover: a.png\n',
  'd/posts/p5.yaml': 'title: Five\n',
  'd/posts/d1-draft.yaml': 'title: Draft one\ndraft: true\nauthor: ann\ncoauthors: [a0-draft]\nrelated: [p1]\n',
  'd/posts/d2-draft.yaml': 'title: Draft two\ndraft: true\nauthor: a0-draft\nrelated: [d1-draft, p4]\ncover: b.png\n',
});

const TOKENS = { reader: 'reader-tok', editor: 'editor-tok' } as const;
type Token = keyof typeof TOKENS;
/** `state` as sent ('' = no state parameter) and whether the token may ask for it. */
const MATRIX: [string, Token, boolean][] = [
  ['', 'reader', true],
  ['published', 'reader', true],
  ['with_draft', 'reader', false],
  ['only_draft', 'reader', false],
  ['', 'editor', true],
  ['published', 'editor', true],
  ['with_draft', 'editor', true],
  ['only_draft', 'editor', true],
];

/** Per field: the ids its filters are asked about (published, draft, missing) and the embedded field whereRelation tests. */
const FIELDS: Record<string, { ids: string[]; rel?: [string, string[]] }> = {
  author: { ids: ['ann', 'bob', 'a0-draft', 'zz-draft', MISSING], rel: ['name', ['Ann', 'Bob', 'Early', 'Late']] },
  coauthors: { ids: ['ann', 'bob', 'a0-draft', 'zz-draft'], rel: ['name', ['Ann', 'Bob', 'Early', 'Late']] },
  related: { ids: ['p1', 'p3', 'd1-draft', 'd2-draft'], rel: ['title', ['One', 'Draft one', 'Four']] },
  cover: { ids: ['a.png', 'b.png', MISSING] },
};

/** Every filter of the table: [query, reference]. */
function filters(): [string, (i: Item) => boolean][] {
  const out: [string, (i: Item) => boolean][] = [];
  for (const [field, { ids, rel }] of Object.entries(FIELDS)) {
    for (const id of ids) {
      for (const op of ['eq', 'not'] as RefOp[]) out.push([`where[${field}][${op}]=${id}`, (i) => matches(i, field, op, [id])]);
      out.push([`where[${field}]=${id}`, (i) => matches(i, field, 'eq', [id])]);
    }
    for (const op of ['in', 'not_in'] as RefOp[]) {
      out.push([`where[${field}][${op}]=${ids.join(',')}`, (i) => matches(i, field, op, ids)]);
      out.push([`where[${field}][${op}]=${ids[ids.length - 1]},${ids[ids.length - 2]}`, (i) => matches(i, field, op, ids.slice(-2))]);
    }
    out.push([`where[${field}][null]`, (i) => matches(i, field, 'null')]);
    out.push([`where[${field}]=null`, (i) => matches(i, field, 'null')]);
    out.push([`where[${field}][not_null]`, (i) => matches(i, field, 'not_null')]);
    if (rel) {
      const [key, values] = rel;
      const embedded = (i: Item) => (([] as unknown[]).concat(i[field] ?? []) as Item[]).map((e) => e[key]);
      for (const v of values) out.push([`whereRelation[${field}][${key}]=${encodeURIComponent(v)}`, (i) => embedded(i).includes(v)]);
      out.push([
        `whereRelation[${field}][${key}][not]=${encodeURIComponent(values[0] as string)}`,
        (i) => embedded(i).some((x) => x !== values[0]),
      ]);
      out.push([`whereRelation[${field}][id][in]=${ids.join(',')}`, (i) => shownValues(i, field).some((x) => ids.includes(x as string))]);
    }
  }
  return out;
}

let server: RunningServer;
const clients: Record<string, Client> = {};
beforeAll(async () => {
  server = await startServer({ content });
  clients.node = socketClient(server.url);
  clients.fetch = fetchClient(createHandler(server.snapshot));
});
afterAll(() => server?.close());

describe.each(['node', 'fetch'])('%s adapter', (kind) => {
  const get = async (path: string, token: Token) => {
    const r = await (clients[kind] as Client)({ path, headers: { accept: 'application/json', authorization: `Bearer ${TOKENS[token]}` } });
    expect(r.status, `${path}: ${r.text}`).toBeLessThan(500);
    return r;
  };

  it.each(MATRIX)('state=%s, %s token: filters, sorts and counts agree with the shown answer', async (state, token, allowed) => {
    const withState = (q: string) => `/api/d/posts?${[q, state && `state=${state}`].filter(Boolean).join('&')}`;
    const all = await get(withState(''), token);
    if (!allowed) {
      expect(all.status).toBe(403);
      for (const [query] of filters()) expect((await get(withState(query), token)).text, query).toBe(all.text);
      return;
    }
    expect(all.status).toBe(200);
    const shown = JSON.parse(all.text).data as Item[];
    expect(shown.length).toBe(state === 'only_draft' ? 2 : state === 'with_draft' ? 7 : 5);
    for (const [query, keep] of filters()) {
      const want = shown.filter(keep).map((i) => i.id);
      const r = await get(withState(query), token);
      const body = JSON.parse(r.text);
      expect(
        body.data.map((i: Item) => i.id),
        query,
      ).toEqual(want);
      expect(body.meta.total, query).toBe(want.length);
      expect(JSON.parse((await get(withState(`${query}&count`), token)).text), query).toEqual({ count: want.length });
    }
    for (const field of Object.keys(FIELDS)) {
      for (const desc of [false, true]) {
        const query = `sort=${field}${desc ? ':desc' : ''}`;
        const want = sortedIds(shown, field, desc);
        expect(
          JSON.parse((await get(withState(query), token)).text).data.map((i: Item) => i.id),
          query,
        ).toEqual(want);
        expect(
          JSON.parse((await get(withState(`${query}&limit=2&offset=1`), token)).text).data.map((i: Item) => i.id),
          query,
        ).toEqual(want.slice(1, 3));
        const first = await get(withState(`${query}&first`), token);
        if (want.length) expect(JSON.parse(first.text).data.id, query).toBe(want[0]);
      }
    }
  });

  it('a reader cannot tell a draft id from one that does not exist', async () => {
    for (const state of ['', 'published']) {
      for (const [query] of filters()) {
        if (!DRAFT_IDS.some((d) => query.includes(d))) continue;
        const blind = DRAFT_IDS.reduce((q, d) => q.split(d).join(MISSING), query);
        const path = (q: string) => `/api/d/posts?${[q, state && `state=${state}`].filter(Boolean).join('&')}`;
        const [a, b] = [await get(path(query), 'reader'), await get(path(blind), 'reader')];
        expect(a.text, query).toBe(b.text);
        expect(a.headers.etag, query).toBe(b.headers.etag);
      }
    }
  });

  it('no published-state answer names a draft, embedded entries included', async () => {
    for (const path of server.snapshot.paths) {
      const entries = path.startsWith('/api/d/') && !path.startsWith('/api/d/project-media');
      for (const query of entries ? ['', '?state=published&timestamps'] : ['']) {
        const r = await get(`${path}${query}`, 'reader');
        expect(r.status, path).toBe(200);
        for (const id of DRAFT_IDS) expect(r.text, `${path}${query}`).not.toContain(id);
      }
    }
    // …and with drafts asked for, relations still show published targets only (the drafts
    // themselves are listed).
    const r = await get('/api/d/posts?state=with_draft', 'editor');
    // A group's relations as a relation field's: a draft is null, or left out of a list.
    expect((JSON.parse(r.text).data as Item[]).find((i) => i.id === 'p1')?.credits).toEqual([{ who: null, also: ['bob'] }, { who: 'bob' }]);
    for (const item of JSON.parse(r.text).data as Item[]) {
      for (const field of ['author', 'coauthors', 'related']) {
        for (const id of shownValues(item, field)) expect(DRAFT_IDS, `${item.id}.${field}`).not.toContain(id);
      }
    }
  });
});
