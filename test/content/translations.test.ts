// `translations: true` in _collection.yaml (issue 24): locale variants (`hello.md`, `hello.de.md`)
// name each other, `translations: { de: 'hello.de' }`; drafts are never named; an entry without a
// variant has null, so where[translations][not_null] finds the translated ones.
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { buildSnapshot } from '../../src/index.js';
import { load, project, writeTree } from './helpers.js';

const md = (title: string, extra = '') => `---\ntitle: ${title}\n${extra}---\nBody.\n`;

describe('translations: true', () => {
  it('links locale variants by file name, in the project locale order, drafts left out', async () => {
    const r = await load({
      'p/project.yaml': 'name: P\ndefault_locale: en\nlocales: [en, de, fr]\n',
      'p/posts/_collection.yaml': 'translations: true\n',
      'p/posts/hello.md': md('Hello'),
      'p/posts/hello.fr.md': md('Bonjour'),
      'p/posts/hello.de.md': md('Hallo'),
      'p/posts/2024/hello.de.md': md('Other folder, not a variant', 'id: hello-2024-de\n'),
      'p/posts/solo.md': md('Solo'),
      'p/posts/secret.md': md('Published'),
      'p/posts/secret.de.md': md('Draft', 'draft: true\n'),
    });
    expect(r.issues).toEqual([]);
    const posts = project(r).collections[0]!;
    expect(posts.fields.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'],
      ['body', 'markdown'],
      ['translations', 'json'],
    ]);
    const of = (id: string) => posts.entries.find((e) => e.id === id)!.values.translations;
    expect(of('hello')).toEqual({ de: 'hello.de', fr: 'hello.fr' });
    expect(Object.keys(of('hello') as object)).toEqual(['de', 'fr']);
    expect(of('hello.de')).toEqual({ en: 'hello', fr: 'hello.fr' });
    expect(of('hello-2024-de')).toBeNull();
    expect(of('solo')).toBeNull();
    expect(of('secret')).toBeNull(); // its variant is a draft
    expect(of('secret.de')).toBeNull();
  });

  it('two variants in one locale: one is listed, and the other is a warning naming both (found from outside: in silence)', async () => {
    // default_locale de makes hello.md a German entry too.
    const r = await load({
      'p/project.yaml': 'name: P\npublic: true\ndefault_locale: de\nlocales: [en, de, fr]\n',
      'p/posts/_collection.yaml': 'translations: true\n',
      'p/posts/hello.md': md('Hello'),
      'p/posts/hello.de.md': md('Hallo'),
      'p/posts/hello.fr.md': md('Bonjour'),
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      expect.objectContaining({
        file: 'p/posts/hello.de.md',
        field: 'locale',
        message:
          "'hello.de' and 'hello' (p/posts/hello.md) are variants of one entry in the same locale 'de', so translations lists 'hello' alone: give one of them another locale (a locale suffix in its file name, or locale: in the file)",
      }),
    ]);
    expect(project(r).collections[0]!.entries.find((e) => e.id === 'hello.fr')!.values.translations).toEqual({ de: 'hello' });
  });

  it('is served, and filterable: where[translations][not_null] lists the translated entries', async () => {
    const root = writeTree({
      'p/project.yaml': 'name: P\npublic: true\nlocales: [en, de]\n',
      'p/posts/_collection.yaml': 'translations: true\n',
      'p/posts/hello.md': md('Hello'),
      'p/posts/hello.de.md': md('Hallo'),
      'p/posts/solo.md': md('Solo'),
    });
    const handler = createHandler(await buildSnapshot({ content: root }));
    const get = async (q: string) =>
      (await (await handler(new Request(`http://x/api/p/posts${q}`, { headers: { accept: 'application/json' } }))).json()) as {
        data: unknown;
      };
    expect(await get('/hello?fields=translations')).toEqual({ data: { id: 'hello', locale: 'en', translations: { de: 'hello.de' } } });
    expect(((await get('?where[translations][not_null]&fields=id&sort=id')).data as { id: string }[]).map((e) => e.id)).toEqual([
      'hello',
      'hello.de',
    ]);
  });

  it('in an elmapi project: an ordinary json field, JSON-encoded as that dialect sends json fields', async () => {
    const root = writeTree({
      'p/project.yaml': 'name: P\npublic: true\ndialect: elmapi\nlocales: [en, de]\n',
      'p/posts/_collection.yaml': 'translations: true\n',
      'p/posts/hello.md': md('Hello'),
      'p/posts/hello.de.md': md('Hallo'),
    });
    const handler = createHandler(await buildSnapshot({ content: root }));
    const res = await handler(new Request('http://x/api/p/posts/hello', { headers: { accept: 'application/json' } }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { translations: unknown }).translations).toBe('{"de":"hello.de"}');
  });

  it('without the option, answers are as before: no translations key', async () => {
    const r = await load({ 'p/posts/hello.md': md('Hello'), 'p/posts/hello.de.md': md('Hallo') });
    expect(project(r).collections[0]!.fields.map((f) => f.name)).toEqual(['title', 'body']);
  });

  it.each([
    [
      'translations: yes',
      { 'p/posts/_collection.yaml': 'translations: yes\n' },
      {
        file: 'p/posts/_collection.yaml',
        line: 1,
        field: 'translations',
        message:
          'translations must be true or false (true: each entry names its locale variants, hello.de for hello), got "yes" (YAML 1.2 reads yes/no/on/off as text)',
      },
    ],
    [
      'a schema field named translations',
      { 'p/posts/_collection.yaml': 'translations: true\nfields:\n  translations: text\n' },
      {
        file: 'p/posts/_collection.yaml',
        line: 1,
        field: 'translations',
        message: "translations: true adds the field 'translations', but the schema has a field 'translations' already: rename that field",
      },
    ],
    [
      'translations written in an entry',
      { 'p/posts/_collection.yaml': 'translations: true\n', 'p/posts/a.md': md('A', 'translations: { de: x }\n') },
      {
        file: 'p/posts/a.md',
        line: 3,
        field: 'translations',
        message:
          "'translations' is the list of this entry's locale variants (translations: true in p/posts/_collection.yaml): remove it from the file",
      },
    ],
  ])('%s: an error naming the file, line and fix', async (_, tree, issue) => {
    const r = await load(tree);
    expect(r.issues).toEqual([issue]);
  });
});
