// `render: html` in _collection.yaml (issue 24): the Markdown body is also served as sanitized
// HTML, in `body_html`, by the same renderer as `richtext` fields.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { buildSnapshot } from '../../src/index.js';
import { load, project, writeTree } from './helpers.js';

const markdown = 'Hello **world** <script>alert(1)</script> [x](javascript:alert(1)) [ok](https://example.com)';
const schema = (extra = '') => `render: html\nfields:\n  title: text\n  intro: richtext\n  body: markdown\n${extra}`;

describe('render: html', () => {
  it('adds body_html after the body, rendered like a richtext field (raw HTML escaped, javascript: links dropped)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': schema(),
      'p/posts/a.md': `---\ntitle: A\nintro: ${JSON.stringify(markdown)}\n---\n${markdown}\n`,
    });
    expect(r.issues).toEqual([]);
    const posts = project(r).collections.find((c) => c.slug === 'posts')!;
    expect(posts.fields.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'],
      ['intro', 'richtext'],
      ['body', 'markdown'],
      ['body_html', 'richtext'],
    ]);
    const values = posts.entries[0]!.values;
    expect(values.body).toBe(markdown);
    expect(values.body_html).toBe(values.intro);
    expect(values.body_html).toContain('<strong>world</strong>');
    expect(values.body_html).toContain('&lt;script&gt;');
    expect(values.body_html).not.toContain('javascript:');
    expect(values.body_html).toContain('href="https://example.com"');
  });

  it('works without a schema and with another body_field; the API serves it and selects it with fields=', async () => {
    const root = writeTree({
      'p/project.yaml': 'name: P\npublic: true\n',
      'p/notes/_collection.yaml': 'render: html\nbody_field: text\n',
      'p/notes/n.md': '---\ntitle: N\n---\n# Heading\n',
    });
    const handler = createHandler(await buildSnapshot({ content: root }));
    const res = await handler(new Request('http://x/api/p/notes/n?fields=text_html', { headers: { accept: 'application/json' } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { id: 'n', locale: 'en', text_html: '<h1>Heading</h1>\n' } });
  });

  it.each([
    [
      'render: markdown',
      { 'p/posts/_collection.yaml': 'render: markdown\n' },
      {
        file: 'p/posts/_collection.yaml',
        line: 1,
        field: 'render',
        message: 'render must be html (the Markdown body also served as HTML, in \'body_html\'), got "markdown"',
      },
    ],
    [
      'a schema field named body_html',
      { 'p/posts/_collection.yaml': schema('  body_html: text\n'), 'p/posts/a.md': '---\ntitle: A\n---\nx\n' },
      {
        file: 'p/posts/_collection.yaml',
        line: 1,
        field: 'render',
        message:
          "render: html serves the body as HTML in the field 'body_html', but the schema has a field 'body_html' already: rename that field",
      },
    ],
    [
      'body_html written in an entry',
      { 'p/posts/_collection.yaml': schema(), 'p/posts/a.md': '---\ntitle: A\nbody_html: <b>x</b>\n---\nx\n' },
      {
        file: 'p/posts/a.md',
        line: 3,
        field: 'body_html',
        message: "'body_html' is the body rendered as HTML (render: html in p/posts/_collection.yaml): remove it from the file",
      },
    ],
  ])('%s: an error naming the file, line and fix', async (_, tree, issue) => {
    const r = await load(tree);
    expect(r.issues).toEqual([issue]);
  });
});
