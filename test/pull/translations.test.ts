// `translations: true` comes back as `translations: true`, not as a json field whose links are
// copied into every file (found from outside: `translations: {fr: first.fr}` in each pulled file,
// links that no longer follow a file added or renamed). The pulled tree builds to the same answers.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { pull } from '../../src/node/pull/pull.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { writeTree } from '../content/helpers.js';
import { buildApi, tempDir } from './fixture.js';

const md = (title: string, extra = '') =>
  `---\ntitle: ${title}\n${extra}created_at: 2024-01-02T03:04:05Z\nupdated_at: 2024-01-02T03:04:05Z\n---\nBody.\n`;
const TOKEN = 'drafts-token';

const source = writeTree({
  'p/project.yaml': `name: P\npublic: true\ndefault_locale: en\nlocales: [en, de, fr]\ntokens:\n  - { name: d, token: ${TOKEN}, scopes: [read, drafts] }\n`,
  'p/posts/_collection.yaml': 'translations: true\nfields:\n  title: text\n',
  'p/posts/hello.md': md('Hello'),
  'p/posts/hello.fr.md': md('Bonjour'),
  'p/posts/hello.de.md': md('Hallo'),
  'p/posts/solo.md': md('Solo'),
  'p/posts/secret.md': md('Published'),
  'p/posts/secret.de.md': md('Draft', 'draft: true\n'),
  // A json field of that name, last, holding links of its own: not translations: true.
  'p/notes/_collection.yaml': 'fields:\n  title: text\n  translations: json\n',
  'p/notes/a.yaml': 'title: A\ntranslations: { de: b }\n',
  'p/notes/b.yaml': 'title: B\nlocale: de\n',
});

const V3 = '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d12';
const v3 = writeTree({
  'v3/project.yaml': `id: ${V3}\nname: V\ndialect: elmapi3\npublic: true\nlocales: [en, fr]\ntokens:\n  - { name: d, token: ${TOKEN}, scopes: [read, drafts] }\n`,
  'v3/posts/_collection.yaml': 'translations: true\nfields:\n  title: text\n',
  'v3/posts/a.yaml': 'title: A\ncreated_at: 2024-01-02T03:04:05Z\n',
  'v3/posts/a.fr.yaml': 'title: A fr\ncreated_at: 2024-01-02T03:04:05Z\n',
  'v3/posts/b.yaml': 'title: B\ncreated_at: 2024-01-03T03:04:05Z\n',
});

let server: RunningServer;
let server3: RunningServer;
beforeAll(async () => {
  server = await startServer({ content: source });
  server3 = await startServer({ content: v3 });
});
afterAll(async () => {
  await server?.close();
  await server3?.close();
});

const filesOf = (dir: string) => readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')] as const);

describe('cqa pull of translations: true', () => {
  it.each([false, true])('writes translations: true and no links into the files (--drafts: %s); same answers', async (drafts) => {
    const out = tempDir();
    const warnings: string[] = [];
    await pull({ baseUrl: server.url, project: 'p', token: TOKEN, dialect: 'cqa', out, drafts, warn: (m) => warnings.push(m) });
    expect((await loadContent(out)).issues).toEqual([]);
    expect(readFileSync(join(out, 'p/posts/_collection.yaml'), 'utf8')).toBe(
      'name: posts\ntranslations: true\nfields:\n  title: text\n  body: markdown\n',
    );
    const posts = filesOf(join(out, 'p/posts')).filter(([name]) => name !== '_collection.yaml');
    expect(posts.map(([name]) => name).sort()).toEqual(
      ['hello.de.md', 'hello.fr.md', 'hello.md', 'secret.md', 'solo.md', ...(drafts ? ['secret.de.md'] : [])].sort(),
    );
    for (const [name, text] of posts) expect(text, name).not.toContain('translations');
    // The json field of that name is kept as it is, and said to be.
    expect(readFileSync(join(out, 'p/notes/_collection.yaml'), 'utf8')).toContain('  translations: json\n');
    expect(readFileSync(join(out, 'p/notes/a.yaml'), 'utf8')).toContain('translations:\n  de: b\n');
    expect(warnings).toEqual([
      "collection 'notes': the field 'translations' looks like the one translations: true adds, but its values are not the links the pulled files' names give (variants in other folders, or named otherwise than their files?): written as a json field with its values as they are; they will not follow a file added or renamed",
    ]);
    // The loader links the variants again: the published answers are the source's, byte for byte.
    if (!drafts) expect(await buildApi(out)).toEqual(await buildApi(source));
  });

  it('elmapi3: the members of a translation group share a file name, and the links are made from it again', async () => {
    const out = tempDir();
    const warnings: string[] = [];
    await pull({ baseUrl: server3.url, project: V3, token: TOKEN, dialect: 'elmapi3', out, drafts: true, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect((await loadContent(out)).issues).toEqual([]);
    expect(readFileSync(join(out, V3, 'posts/_collection.yaml'), 'utf8')).toBe('name: posts\ntranslations: true\nfields:\n  title: text\n');
    for (const [name, text] of filesOf(join(out, V3, 'posts')).filter(([n]) => n !== '_collection.yaml'))
      expect(text, name).not.toContain('translations');
    const pulled = await startServer({ content: out });
    try {
      const get = async (url: string) => (await fetch(`${url}/api/posts?timestamps`, { headers: { 'project-id': V3 } })).text();
      const answer = await get(server3.url);
      expect(answer).toContain('"translations":{"fr":');
      expect(await get(pulled.url)).toBe(answer);
    } finally {
      await pulled.close();
    }
  });

  it('a file added to the pulled tree is linked as in the source', async () => {
    const out = tempDir();
    await pull({ baseUrl: server.url, project: 'p', token: TOKEN, dialect: 'cqa', out });
    writeTree({ 'p/posts/solo.de.md': md('Allein') }, out);
    const r = await loadContent(out);
    expect(r.issues).toEqual([]);
    const posts = r.model.projects[0]?.collections.find((c) => c.slug === 'posts');
    expect(posts?.entries.find((e) => e.id === 'solo')?.values.translations).toEqual({ de: 'solo.de' });
  });
});
