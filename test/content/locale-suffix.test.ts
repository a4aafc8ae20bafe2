// A file-name suffix that looks like a locale but is not one of the project's (`hello.fr.md` in a
// project of en and de) is a warning naming `locales:` in project.yaml (issue 24): the entry is
// still the English entry `hello.fr`, as SPEC §2.3 says, but no longer silently.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/node/content/issues.js';
import { load } from './helpers.js';

const entry = '---\ntitle: Bonjour\n---\nTexte.\n';

describe('a locale-like file-name suffix that is no project locale', () => {
  it('hello.fr.md in a project of en and de: a warning with the fix', async () => {
    const r = await load({ 'p/posts/hello.fr.md': entry });
    expect(r.issues).toEqual([]);
    expect(r.warnings.map(formatIssue)).toEqual([
      "p/posts/hello.fr.md: locale: the file name ends in '.fr' (French), which is not a locale of project 'p' (locales: en, de): this entry is 'en' with the id 'hello.fr'. Add fr to 'locales:' in project.yaml to make it the fr version of 'hello', or set 'locale:' and 'id:' in the file to keep this name",
    ]);
  });

  it.each(['hello.pt-BR.md', 'hello.zh-Hant.md', 'hello.es.yaml'])('%s: the same warning', async (name) => {
    const r = await load({ [`p/posts/${name}`]: name.endsWith('.yaml') ? 'title: x\n' : entry });
    expect(r.warnings.map(formatIssue)).toEqual([expect.stringContaining("which is not a locale of project 'p' (locales: en, de)")]);
  });

  it.each([
    ['a project locale', 'p/posts/hello.de.md', entry],
    ['no language', 'p/posts/notes.final.md', entry],
    ['a three-letter word', 'p/posts/backup.bak.md', entry],
    ['a version', 'p/posts/release.v2.md', entry],
    ['an explicit locale and id', 'p/posts/hello.fr.md', '---\nid: hello-fr\nlocale: en\ntitle: x\n---\n'],
  ])('%s: no warning', async (_, path, text) => {
    const r = await load({ [path]: text });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
  });
});
