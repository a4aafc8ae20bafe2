import { describe, expect, it } from 'vitest';
import { collection, entry, load } from './helpers.js';

describe('types inferred without a schema', () => {
  it('follows SPEC §2.4: numbers, booleans, dates, datetimes, lists, otherwise text', async () => {
    const r = await load({
      'p/items/a.yaml': 'n: 1\nb: true\nd: 2021-01-01\nt: 2021-01-01T10:00:00Z\nl: [x, y]\ns: hello\nmix: 1\nnums: [1, 2]\nobj: { k: v }\n',
      'p/items/b.md': '---\nn: 2.5\nb: false\nd: 2021-02-01\nt: 2021-02-01\nl: z\ns: 2\nmix: one\n---\nBody\n',
    });
    expect(r.issues).toEqual([]);
    const fields = Object.fromEntries(collection(r, 'items').fields.map((f) => [f.name, `${f.type}${f.multiple ? '[]' : ''}`]));
    expect(fields).toEqual({
      n: 'number',
      b: 'boolean',
      d: 'date',
      t: 'datetime',
      l: 'text[]',
      s: 'text',
      mix: 'text',
      nums: 'number[]',
      obj: 'json',
      body: 'markdown',
    });
    // first-seen order: a.yaml's keys, then b.md's body
    expect(collection(r, 'items').fields.map((f) => f.name)).toEqual(['n', 'b', 'd', 't', 'l', 's', 'mix', 'nums', 'obj', 'body']);
    expect(entry(r, 'items', 'b').values).toMatchObject({ t: '2021-02-01T00:00:00.000Z', l: ['z'], s: '2', body: 'Body' });
  });

  it('sorts by id ascending by default, numerically when all ids are integers', async () => {
    const r = await load({ 'p/n/10.yaml': 'x: 1\n', 'p/n/9.yaml': 'x: 2\n', 'p/n/100.yaml': 'x: 3\n' });
    expect(collection(r, 'n').entries.map((e) => e.id)).toEqual(['9', '10', '100']);
    expect(collection(r, 'n').sort).toEqual([{ field: 'id', desc: false }]);
  });
});

describe('_collection.yaml', () => {
  it('reads name, body_field, multi-key sort and the shorthand field form', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'name: Blog posts\nbody_field: content\nsort: rank:desc, title\nfields:\n  title: text\n  rank: number\n',
      'p/posts/a.md': '---\ntitle: B\nrank: 1\n---\nA body\n',
      'p/posts/b.md': '---\ntitle: A\nrank: 1\n---\n',
      'p/posts/c.yaml': 'title: C\nrank: 5\n',
    });
    expect(r.issues).toEqual([]);
    const c = collection(r, 'posts');
    expect(c.name).toBe('Blog posts');
    expect(c.body_field).toBe('content');
    expect(c.sort).toEqual([
      { field: 'rank', desc: true },
      { field: 'title', desc: false },
    ]);
    expect(c.fields.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'],
      ['rank', 'number'],
      ['content', 'markdown'],
    ]);
    expect(c.entries.map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(entry(r, 'posts', 'a').values.content).toBe('A body');
    expect(entry(r, 'posts', 'b').values).not.toHaveProperty('content'); // an empty body is absent
  });

  it('renders a body declared as richtext, and takes a declared type for the body field', async () => {
    const r = await load({
      'p/pages/_collection.yaml': 'fields:\n  body: { type: richtext, required: true }\n',
      'p/pages/a.md': '# Hi\n\n<b>raw</b>\n',
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'pages', 'a').values.body).toBe('<h1>Hi</h1>\n<p>&lt;b&gt;raw&lt;/b&gt;</p>\n');
  });
});
