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

// Found from outside: a project locale in another case (one.pt-br.md, pt-BR) became an 'en' entry
// in silence, and `locales: [en, EN]` was two locales. Tags are the same whatever their case.
describe('a locale written in another case', () => {
  it('a file-name suffix: a warning saying what to rename the file to', async () => {
    const r = await load({
      'p/project.yaml': 'name: P\nlocales: [en, pt-BR, zh-Hant]\npublic: true\n',
      'p/posts/one.pt-BR.md': entry,
      'p/posts/one.pt-br.md': entry,
      'p/posts/one.zh-hant.yaml': 'title: x\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings.map(formatIssue)).toEqual([
      "p/posts/one.pt-br.md: locale: the file name ends in '.pt-br', the locale 'pt-BR' of project 'p' in another case: this entry is 'en' with the id 'one.pt-br' (a file name's locale is matched exactly). Rename the file one.pt-BR.md to make it the pt-BR version of 'one'",
      "p/posts/one.zh-hant.yaml: locale: the file name ends in '.zh-hant', the locale 'zh-Hant' of project 'p' in another case: this entry is 'en' with the id 'one.zh-hant' (a file name's locale is matched exactly). Rename the file one.zh-Hant.yaml to make it the zh-Hant version of 'one'",
    ]);
  });

  it("in project.yaml and in an entry's locale: an error with what to write", async () => {
    const r = await load({
      'p/project.yaml': 'name: P\ndefault_locale: EN\nlocales: [en, EN, pt-BR]\n',
    });
    expect(r.issues.map(formatIssue)).toEqual([
      "p/project.yaml:2: default_locale: default_locale 'EN' is written 'en' in locales: write it the same way (default_locale: en)",
      "p/project.yaml:3: locales: locale 'EN' is 'en' again, in another case (locale tags are the same whatever their case): list it once",
    ]);
    const entryLocale = await load({
      'p/project.yaml': 'name: P\nlocales: [en, pt-BR]\n',
      'p/posts/a.md': '---\nlocale: pt-br\ntitle: x\n---\n',
    });
    expect(entryLocale.issues.map(formatIssue)).toEqual([
      "p/posts/a.md:2: locale: locale 'pt-br' is the locale 'pt-BR' of project 'p' in another case: write it as project.yaml does (locale: pt-BR)",
    ]);
  });
});
