import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/node/content/project.js';
import { formatIssue } from '../../src/node/content/issues.js';
import { collection, entry, load, MTIME, png, project } from './helpers.js';

describe('project.yaml', () => {
  it('applies the defaults: id and name from the folder, en, [default_locale], not public, no tokens', async () => {
    const r = await load({ 'blog/project.yaml': '' });
    expect(r.issues).toEqual([]);
    const { collections, media, ...p } = project(r, 'blog');
    expect(p).toEqual({ id: 'blog', name: 'blog', description: null, default_locale: 'en', locales: ['en'], public: false, tokens: [] });
    expect(collections).toEqual([]);
    expect(media).toEqual([]);
  });

  it('hashes a plaintext token, never keeps it, and warns naming the file and token', async () => {
    const r = await load({
      'p/project.yaml': `id: demo
tokens:
  - name: website
    sha256: ${'AB'.repeat(32)}
  - name: local-dev
    token: demo-token
    scopes: [read, drafts]
`,
    });
    expect(r.issues).toEqual([]);
    expect(project(r, 'demo').tokens).toEqual([
      { name: 'website', sha256: 'ab'.repeat(32), scopes: ['read'] },
      { name: 'local-dev', sha256: sha256Hex('demo-token'), scopes: ['read', 'drafts'] },
    ]);
    expect(JSON.stringify(r.model)).not.toContain('demo-token');
    expect(r.warnings).toEqual([
      {
        file: 'p/project.yaml',
        line: 6,
        field: 'tokens',
        message: `token 'local-dev' is written in plaintext; fine for fixtures, but for real use replace 'token:' with 'sha256: ${sha256Hex('demo-token')}'`,
      },
    ]);
  });

  it('reports bad keys, locales, scopes and hashes', async () => {
    const r = await load({
      'p/project.yaml': `id: "bad id"
default_locale: fr
locales: [en, de]
public: sometimes
colour: blue
tokens:
  - name: a
    sha256: 1234
  - name: b
    token: x
    scopes: [write]
  - token: y
`,
    });
    expect(r.issues).toEqual([
      { file: 'p/project.yaml', line: 1, field: 'id', message: expect.stringMatching(/^project id 'bad id' is not valid/) },
      { file: 'p/project.yaml', line: 2, field: 'default_locale', message: "default_locale 'fr' is not in locales [en, de]" },
      { file: 'p/project.yaml', line: 4, field: 'public', message: 'expected true or false, got "sometimes"' },
      {
        file: 'p/project.yaml',
        line: 5,
        field: 'colour',
        message:
          "unknown key 'colour'; project.yaml keys are id, name, description, default_locale, locales, public, dialect, tokens, strict",
      },
      {
        file: 'p/project.yaml',
        line: 8,
        field: 'tokens',
        message:
          "token 'a': sha256 must be 64 hex digits (make one with 'cqa token create'), got a number; a plaintext token goes under 'token:' (for fixtures)",
      },
      { file: 'p/project.yaml', line: 11, field: 'tokens', message: 'token \'b\': unknown scope "write"; scopes are read, drafts' },
      { file: 'p/project.yaml', line: 12, field: 'tokens', message: "token 3: needs a 'name' (text)" },
    ]);
  });

  // Found from outside: `locales: en, de` is one text, and the message then spoke of 'locales []'.
  it('says to write locales as a list when one text names several', async () => {
    const r = await load({ 'p/project.yaml': 'name: P\nlocales: en, de\ndefault_locale: de\npublic: true\n', 'p/posts/a.de.md': 'A' });
    // Read as meant for the rest: a.de is the de version of a, with no warning that de is unknown.
    expect(r.warnings).toEqual([]);
    expect(r.issues).toEqual([
      {
        file: 'p/project.yaml',
        line: 2,
        field: 'locales',
        message: 'expected a list of locale tags, got the one text "en, de": write it as a list (locales: [en, de])',
      },
    ]);
  });

  it('never quotes what is written as a token or its sha256 (it may be the token itself), nor shows it in a code frame', async () => {
    const r = await load({
      'p/project.yaml': 'tokens:\n  - name: a\n    sha256: S3CRET-NOT-HEX\n  - name: b\n    token: 12345678\n',
      'q/project.yaml': 'tokens:\n  - name: c\n    token: "S3CRET-UNTERMINATED\n',
    });
    expect(r.issues.map((i) => i.message)).toEqual([
      "token 'a': sha256 must be 64 hex digits (make one with 'cqa token create'), got text of 14 characters; a plaintext token goes under 'token:' (for fixtures)",
      "token 'b': token must be non-empty text, got a number",
      expect.stringMatching(/^broken YAML/),
    ]);
    const printed = r.issues.map((i) => formatIssue(i)).join('\n');
    expect(printed).not.toContain(' | '); // no code frame of project.yaml: any line near may hold a token
    expect(printed).not.toMatch(/S3CRET|12345678/);
  });

  it.each([
    ['a value the hint quotes', '    token: @S3CRET\n'],
    ["': ' in the value", '    token: S3CRET: x\n'],
    ['text after a closing quote', '    token: "S3CRET"x\n'],
    ["a ' inside '…'", "    token: 'S3CRET'x\n"],
    ['a flow mapping', '  - {name: b, token: S3CRET, scopes: [read\n'],
    ['no colon', '    token S3CRET\n  - x: [\n'],
    ['the value under its key', '    token:\n      S3CRET: [x\n'],
    ['a block scalar', '    token: |\n      S3CRET\n  - [x\n'],
    ['an anchor used elsewhere', '    x: &t S3CRET\n    token: *t\n  - [x\n'],
    ['a quoted, escaped key', '    "\\u0074oken": S3CRET\n  - [x\n'],
    ['a list of plain values', ''],
  ])('shows no part of a token in a broken line: %s (found from outside)', async (_, line) => {
    const r = await load({ 'p/project.yaml': line ? `tokens:\n  - name: a\n${line}` : 'tokens: [S3CRET]\n' });
    expect(r.issues.length).toBeGreaterThan(0);
    expect(r.issues.map((i) => formatIssue(i)).join('\n')).not.toMatch(/S3CRET/);
  });

  it('warns of a private project without a token (no request could read it); public or with tokens, nothing', async () => {
    const WARNING = {
      file: 'p/project.yaml',
      line: 1,
      field: 'tokens',
      message:
        "the project is private (the default) and lists no token, so every request to it is refused: add 'public: true', or a token under 'tokens:' (cqa token create --project p makes one)",
    };
    expect((await load({ 'p/project.yaml': 'name: P\n' })).warnings).toEqual([WARNING]);
    expect((await load({ 'p/project.yaml': 'name: P\npublic: false\n' })).warnings).toEqual([WARNING]);
    expect((await load({ 'p/project.yaml': 'name: P\npublic: true\n' })).warnings).toEqual([]);
    const hashed = `tokens:\n  - name: app\n    sha256: ${'a'.repeat(64)}\n`;
    expect((await load({ 'p/project.yaml': hashed })).warnings).toEqual([]);
    // The command names the project's id, from id: or the folder (found from outside: it said '<id>').
    expect((await load({ 'p/project.yaml': 'id: blog\n' })).warnings[0]?.message).toContain('cqa token create --project blog makes one');
  });

  it('an entry file put in the content root, above every project: a warning saying where it goes; a README is left alone (found from outside)', async () => {
    const r = await load({
      'p/project.yaml': 'public: true\n',
      'carl.yaml': 'name: Carl\n',
      'README.md': '# notes\n',
      '.hidden.yaml': 'x: 1\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'carl.yaml',
        message:
          'ignored: the content root holds project folders only; an entry goes in a collection folder of a project (<project>/<collection>/carl.yaml)',
      },
    ]);
  });

  it('requires project.yaml in every folder of the content root and unique project ids', async () => {
    const r = await load({
      'q/project.yaml': 'id: p\npublic: true\n',
      'q/notes.txt': 'x',
      'stray/posts/a.md': 'x',
      'stray/a.yaml': 'x: 1\n',
      '_ignored/project.yaml': ': :',
      'README.md': '# hi',
    });
    // A file beside project.yaml is said to be ignored; in a folder that is no project, the error says all.
    expect(r.warnings.map((w) => w.file)).toEqual(['q/notes.txt']);
    expect(r.issues).toEqual([
      { file: 'q/project.yaml', line: 1, field: 'id', message: "duplicate project id 'p': p/project.yaml has the same id" },
      { file: 'stray/', message: expect.stringMatching(/^not a project: every folder of the content root needs a project\.yaml/) },
    ]);
  });

  it('does not read the temp folder a killed cqa pull left as a second project, and says what to do (found from outside)', async () => {
    const r = await load({
      'p.tmp-4242-0123456789ab/project.yaml': 'name: P\npublic: true\n',
      'p.tmp-4242-0123456789ab/posts/a.md': 'x',
      'q.old-4242-0123456789ab/project.yaml': 'name: Q\npublic: true\n',
      // Not the pattern a pull names its folders with: a project (or not) as any other folder.
      'r.tmp-1/project.yaml': 'id: r\npublic: true\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.model.projects.map((x) => x.id)).toEqual(['p', 'r']);
    expect(r.warnings).toEqual([
      {
        file: 'p.tmp-4242-0123456789ab/',
        message:
          'not read: the temp folder of a cqa pull of p that was stopped (or is still running). The next cqa pull of p into this folder removes it; or delete it once no pull is running',
      },
      {
        file: 'q.old-4242-0123456789ab/',
        message: expect.stringMatching(/^not read: the earlier q, which a cqa pull moved aside .* puts it back; .* rename it to q$/),
      },
    ]);
  });
});

describe('content root', () => {
  it('says so when given a project folder instead of the content folder', async () => {
    const r = await load({});
    const { loadContent } = await import('../../src/node/content/load.js');
    const inner = await loadContent(`${r.root}/p`);
    expect(inner.issues[0]).toEqual({
      file: 'project.yaml',
      message: expect.stringMatching(/^this is a project folder, but a content folder is expected/),
    });
  });
});

describe('identifiers and reserved names', () => {
  it('rejects bad entry ids from the file or the file name, and bad collection slugs', async () => {
    const r = await load({
      'p/posts/-dash.md': 'x',
      'p/posts/ok.md': '---\nid: "has space"\n---\n',
      'p/project-media/a.yaml': 'x: 1\n',
      'p/bad.slug/a.yaml': 'x: 1\n',
    });
    expect(r.issues).toEqual([
      { file: 'p/bad.slug/', message: expect.stringMatching(/^collection slug 'bad.slug' is not valid/) },
      {
        file: 'p/posts/-dash.md',
        field: 'id',
        message: expect.stringMatching(/^entry id '-dash' is not valid: .*; it comes from the file name: rename the file or set 'id:'$/),
      },
      { file: 'p/posts/ok.md', line: 2, field: 'id', message: expect.stringMatching(/^entry id 'has space' is not valid/) },
      { file: 'p/project-media/', message: "'project-media' is reserved for the media list; rename the folder" },
    ]);
  });

  it('ignores files and folders starting with _ or ., warns about non-entry files', async () => {
    const r = await load({
      'p/posts/_draft-notes.md': 'x',
      'p/posts/.hidden.md': 'x',
      'p/posts/_old/a.md': 'x',
      'p/.cache/a.yaml': 'x: 1',
      'p/posts/a.md': 'A',
      'p/posts/2021/b.md': 'B',
      'p/posts/notes.txt': 'x',
      // What editors and systems leave beside files: not content, said nothing of (found from
      // outside: vim's backups warned on every save).
      'p/posts/a.md~': 'A',
      'p/posts/Thumbs.db': 'x',
      'p/posts/a.md.tmp': 'A',
    });
    expect(r.issues).toEqual([]);
    expect(collection(r, 'posts').entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(project(r).collections.map((c) => c.slug)).toEqual(['posts']);
    expect(r.warnings).toEqual([
      { file: 'p/posts/notes.txt', message: 'ignored: not an entry file (entries are .md, .markdown, .yaml, .yml or .json)' },
    ]);
  });

  it('refuses settings files it would otherwise drop or publish: project.yml, _collection.yml, _media.yml, a project file in a collection', async () => {
    const r = await load({
      'q/project.yml': 'name: Q\n',
      'q/posts/a.md': 'A',
      'p/posts/_collection.yml': 'fields:\n  n: number\n',
      'p/posts/a.md': '---\nn: three\n---\n',
      'p/media/_media.yml': 'x.png: { alt: A }\n',
      'p/inner/project.yaml': 'name: Inner\ntokens: [{ name: web, token: s3cret-token, scopes: [read] }]\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/inner/project.yaml',
        message:
          "a project file inside the collection 'inner' of project 'p': projects cannot be nested, and this one would be published as an entry (tokens included). Move its folder to the content root to make it a project, or rename the file to keep it as an entry",
      },
      { file: 'p/media/_media.yml', message: 'media details are read only from p/media/_media.yaml: rename it' },
      { file: 'p/posts/_collection.yml', message: 'the schema is read only from p/posts/_collection.yaml: rename it' },
      { file: 'q/project.yml', message: 'the project file is read only as project.yaml: rename it' },
    ]);
    expect(JSON.stringify(r.model)).not.toContain('s3cret-token');
  });

  it('warns about settings files in the wrong place or with a near-miss name, which it ignores beside the real schema', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields: { title: text }\n',
      'p/posts/_collections.yaml': 'fields: {}\n',
      'p/posts/2021/_collection.yaml': 'fields: {}\n',
      'p/posts/_media.yaml': 'x.png: { alt: A }\n',
      'p/posts/_colection.yml': 'fields: {}\n',
      'p/posts/_notes.yaml': 'x: 1\n',
      'p/posts/_protocol.yml': 'x: 1\n',
      'p/posts/a.md': 'A',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'p/posts/2021/_collection.yaml',
        message: "ignored: a collection's schema is the _collection.yaml at the top of its folder (p/posts/_collection.yaml)",
      },
      {
        file: 'p/posts/_colection.yml',
        message: 'ignored (a name starting with _ is not content): the schema is p/posts/_collection.yaml',
      },
      {
        file: 'p/posts/_collections.yaml',
        message: "ignored: a collection's schema is the _collection.yaml at the top of its folder (p/posts/_collection.yaml)",
      },
      { file: 'p/posts/_media.yaml', message: 'ignored: media details go in p/media/_media.yaml' },
      {
        file: 'p/posts/_protocol.yml',
        message: 'ignored (a name starting with _ is not content): is it meant to be p/posts/_collection.yaml?',
      },
    ]);
  });

  it('refuses a schema saved under another name when the collection has none: its hidden and password fields would be published', async () => {
    // What editors make of _collection.yaml: hidden extensions (Notepad), a changed case, a blank, a backup.
    const names = [
      '_collection.yaml.txt',
      '_Collection.yaml',
      '_collection .yaml',
      '_collection.yaml ',
      '_collection.yaml.bak',
      '_collection.YAML',
      '_colection.yml',
    ];
    for (const name of names) {
      const r = await load({
        [`p/posts/${name}`]: 'fields:\n  title: text\n  note: { type: text, hidden: true }\n  pin: password\n',
        'p/posts/x.yaml': 'title: Launch\nnote: do not publish before the 5th\npin: hunter2\n',
      });
      expect(r.issues, name).toEqual([
        {
          file: `p/posts/${name}`,
          message:
            "not read: the schema of collection 'posts' is read only from p/posts/_collection.yaml, which does not exist, so every field would be guessed and published as written (hidden and password fields too): rename this file to p/posts/_collection.yaml",
        },
      ]);
    }
    const underscoreless = await load({
      'p/posts/Collection.yml': 'name: Posts\nfields:\n  title: text\n  note: { type: text, hidden: true }\n',
      'p/posts/x.yaml': 'title: Launch\nnote: do not publish before the 5th\n',
    });
    expect(underscoreless.issues).toEqual([
      {
        file: 'p/posts/Collection.yml',
        line: 2,
        field: 'fields',
        message:
          "this looks like the collection's schema, but a schema is read only from p/posts/_collection.yaml (with a _ first), which does not exist: rename this file to p/posts/_collection.yaml",
      },
    ]);
    // An entry that is merely called `collection` is one.
    expect((await load({ 'p/posts/collection.yaml': 'title: A collection of essays\n' })).issues).toEqual([]);
    const nested = await load({ 'p/posts/2021/_collection.yaml': 'fields: {}\n', 'p/posts/x.yaml': 'title: A\n' });
    expect(nested.issues.map((i) => [i.file, i.message.split(': ').at(-1)])).toEqual([
      ['p/posts/2021/_collection.yaml', 'move this file to p/posts/_collection.yaml'],
    ]);
  });

  it('refuses media details saved under another name when media/_media.yaml does not exist, and ignores them beside it', async () => {
    const dot = png(1, 1);
    const without = await load({ 'p/media/a.png': dot, 'p/media/_media.YAML': 'a.png: { alt: A dot }\n' });
    expect(without.issues).toEqual([
      {
        file: 'p/media/_media.YAML',
        message:
          'not read: media details (captions, alt texts) are read only from p/media/_media.yaml, which does not exist: rename this file to p/media/_media.yaml',
      },
    ]);
    const beside = await load({
      'p/media/a.png': dot,
      'p/media/_media.yaml': 'a.png: { alt: A dot }\n',
      'p/media/_media.yaml.bak': 'a.png: { alt: old }\n',
    });
    expect(beside.issues).toEqual([]);
    expect(beside.warnings).toEqual([
      { file: 'p/media/_media.yaml.bak', message: 'ignored: media details are read only from p/media/_media.yaml' },
    ]);
  });

  it('names the field a key was meant to be: another case, or a typo in a small schema (found from outside)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: {type: text, required: true}\n  summary: text\n  n: number\n',
      'p/posts/a.yaml': 'Title: Upper\nsumary: x\nm: 1\n',
    });
    expect(r.issues.map((i) => [i.field, i.message])).toEqual([
      [
        'Title',
        expect.stringContaining(
          "not in the schema of collection 'posts': did you mean 'title'? (fields: title, summary, n); else add it to p/posts/_collection.yaml or remove it",
        ),
      ],
      ['title', 'required field is missing'],
      ['sumary', expect.stringContaining("did you mean 'summary'? (fields: title, summary, n); else add it")],
      // One letter from another one-letter name is no evidence of a typo.
      ['m', expect.stringMatching(/\(fields: title, summary, n\); add it to/)],
    ]);
  });

  it('gives a did-you-mean by edit distance to the first 200 unknown keys of a collection, so 3,000 stay cheap (found from outside)', async () => {
    const long = (i: number) => `f${'a'.repeat(58)}${String(i).padStart(3, '0')}`;
    const fields = Array.from({ length: 200 }, (_, i) => `  ${long(i)}: number\n`).join('');
    const keys = Array.from({ length: 3000 }, (_, i) => `${long(1000 + i)}: 1\n`).join('');
    const r = await load({ 'p/c/_collection.yaml': `fields:\n${fields}`, 'p/c/e1.yaml': keys });
    expect(r.issues).toHaveLength(3000);
    const meant = r.issues.filter((i) => i.message.includes('did you mean'));
    expect(meant).toHaveLength(200);
    expect(meant[0]?.message).toContain(`did you mean '${long(0)}'`); // 'f…1000' is 3 edits from 'f…000' (a length past 8)
    expect(r.issues[2999]?.message).not.toContain('did you mean');
  });

  it('says what was meant (found from outside): fields in a body without front matter, a colon without a space, a media file in a folder', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: {type: text, required: true}\n  pic: media\n',
      'p/posts/a.md': 'title: D\npic: w.svg\n',
      'p/posts/b.yaml': 'title:Nospace\n',
      'p/posts/c.yaml': 'title: C\npic: w.svg\n',
      'p/media/img/w.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    expect(r.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      [
        'p/posts/a.md',
        1,
        "required field is missing; the body has 'title:' on line 1: put the fields between '---' lines at the top (front matter)",
      ],
      [
        'p/posts/b.yaml',
        1,
        expect.stringMatching(/^expected a mapping of field names to values, got .*: add a space after ':' \(title: Nospace\)$/),
      ],
      [
        'p/posts/c.yaml',
        2,
        "no media file 'w.svg' under media/ (media ids are paths under the project's media/ folder); did you mean 'img/w.svg'?",
      ],
    ]);
  });

  it("names the media id meant when one is written as a path or URL: './', a leading '/', media/, /media/<project>/, backslashes, %20 (found from outside: no hint)", async () => {
    const refs = [
      './img/w x.svg',
      '/img/w x.svg',
      'media/img/w x.svg',
      '/media/p/img/w x.svg',
      'img\\w x.svg',
      'img/w%20x.svg',
      'img//w x.svg',
      '../p/media/img/w x.svg',
      'https://cdn.example.com/media/p/img/w%20x.svg',
    ];
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  pic: media\n',
      ...Object.fromEntries(refs.map((ref, i) => [`p/posts/e${i}.yaml`, `title: E\npic: ${JSON.stringify(ref)}\n`])),
      'p/posts/x.yaml': 'title: X\npic: ./img/none.svg\n',
      'p/media/img/w x.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    const under = "under media/ (media ids are paths under the project's media/ folder)";
    expect(r.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      ...refs.map((ref, i) => [
        `p/posts/e${i}.yaml`,
        2,
        `no media file '${ref}' ${under}; did you mean 'img/w x.svg'? (the path under media/ alone, as it is on disk)`,
      ]),
      ['p/posts/x.yaml', 2, `no media file './img/none.svg' ${under}`],
    ]);
  });

  it('names the entry meant when a relation names its file (ann.yaml, authors/ann.md, ./authors/ann) (found from outside: no hint)', async () => {
    const refs = ['ann.yaml', 'authors/ann.md', './authors/ann', 'authors\\ann.yml'];
    const r = await load({
      'p/authors/ann.yaml': 'name: Ann\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  by: { type: relation, collection: authors }\n',
      ...Object.fromEntries(refs.map((ref, i) => [`p/posts/e${i}.yaml`, `title: E\nby: ${JSON.stringify(ref)}\n`])),
      'p/posts/x.yaml': 'title: X\nby: bob.yaml\n',
    });
    expect(r.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      ...refs.map((ref, i) => [
        `p/posts/e${i}.yaml`,
        2,
        `no entry '${ref}' in collection 'authors'; did you mean 'ann'? (an entry's id: its file name without folder and extension, or its id:)`,
      ]),
      ['p/posts/x.yaml', 2, "no entry 'bob.yaml' in collection 'authors'"],
    ]);
  });

  it('warns of a comma list written as one item of a multiple text field (found from outside)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  tags: {type: text, multiple: true}\n',
      'p/posts/a.yaml': 'title: A\ntags: a, b, c\n',
      'p/posts/b.yaml': 'title: B, with a comma\ntags: [a, b]\n',
      'p/posts/c.yaml': 'title: C\ntags: ["Smith, John"]\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings.map((w) => [w.file, w.line, w.field, w.message])).toEqual([
      [
        'p/posts/a.yaml',
        2,
        'tags',
        "'a, b, c' is one item, commas and all: to list several, write [a, b, c] (or one '- item' per line); to keep one item, put it in a list: [\"…\"]",
      ],
    ]);
    expect(entry(r, 'posts', 'a').values.tags).toEqual(['a, b, c']);
  });

  it('lists only the fields a file may write when a key is not in the schema (not body_html or translations, which options fill)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'render: html\ntranslations: true\nfields:\n  title: text\n',
      'p/posts/a.md': '---\ntitle: A\nsubtitle: x\n---\nBody\n',
    });
    expect(r.issues.map((i) => i.message)).toEqual([
      "not in the schema of collection 'posts' (fields: title, body); add it to p/posts/_collection.yaml or remove it",
    ]);
  });

  it('rejects field names that a query could not name', async () => {
    const r = await load({ 'p/posts/a.yaml': 'ok: 1\n"a b": 2\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.yaml',
        line: 2,
        field: 'a b',
        message: "'a b' is not a valid field name: use a letter or _ first, then letters, digits, _ or - (at most 64)",
      },
    ]);
    expect(collection(r, 'posts').fields.map((f) => f.name)).toEqual(['ok']);
  });
});

describe('entries: locale, draft, timestamps', () => {
  it('takes the locale from the file, else a file-name suffix, else the default; the id keeps the suffix', async () => {
    const r = await load({
      'p/posts/hello.md': 'x',
      'p/posts/hello.de.md': 'x',
      'p/posts/hello.fr.md': 'x',
      'p/posts/other.yaml': 'locale: de\n',
      'p/posts/bad.yaml': 'locale: fr\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/bad.yaml',
        line: 1,
        field: 'locale',
        message: 'unknown locale "fr": project \'p\' has locales en, de (add it to locales in project.yaml)',
      },
    ]);
    const locales = Object.fromEntries(collection(r, 'posts').entries.map((e) => [e.id, e.locale]));
    // bad.yaml is reported and kept with the default locale
    expect(locales).toEqual({ bad: 'en', hello: 'en', 'hello.de': 'de', 'hello.fr': 'en', other: 'de' });
  });

  it('says an empty locale: is empty, with what to write (it used to say unknown locale "")', async () => {
    const r = await load({
      'p/posts/a.md': '---\ntitle: A\nlocale: ""\n---\nBody\n',
      'p/posts/b.de.yaml': "title: B\nlocale: ''\n",
      'p/posts/c.yaml': 'title: C\nlocale: "  "\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.md',
        line: 3,
        field: 'locale',
        message: `locale "" is empty: write a locale of project 'p' (en, de), or leave 'locale:' out to make the entry 'en' (the project's default)`,
      },
      {
        file: 'p/posts/b.de.yaml',
        line: 2,
        field: 'locale',
        message: `locale "" is empty: write a locale of project 'p' (en, de), or leave 'locale:' out to make the entry 'de' (as its file name says)`,
      },
      {
        file: 'p/posts/c.yaml',
        line: 2,
        field: 'locale',
        message: `locale "  " is empty: write a locale of project 'p' (en, de), or leave 'locale:' out to make the entry 'en' (the project's default)`,
      },
    ]);
  });

  it('falls back to the mtime for created_at/updated_at and to created_at for published_at', async () => {
    const r = await load({
      'p/posts/plain.md': 'x',
      'p/posts/dated.yaml': 'created_at: 2021-11-25T10:00:00+01:00\nupdated_at: 2021-12-01\n',
      'p/posts/pub.yaml': 'published_at: 2022-01-01T00:00:00Z\n',
      'p/posts/draft.yaml': 'draft: true\n',
      'p/posts/bad.yaml': 'created_at: yesterday\ndraft: "no"\n',
      'p/posts/feb.yaml': 'published_at: 2025-02-30T10:00:00Z\n',
    });
    const mtime = MTIME.toISOString();
    expect(r.issues).toEqual([
      {
        file: 'p/posts/bad.yaml',
        line: 1,
        field: 'created_at',
        message: 'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "yesterday"',
      },
      {
        file: 'p/posts/bad.yaml',
        line: 2,
        field: 'draft',
        message: 'expected true or false, got "no" (YAML 1.2 reads yes/no/on/off as text)',
      },
      {
        file: 'p/posts/feb.yaml',
        line: 1,
        field: 'published_at',
        message: 'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "2025-02-30T10:00:00Z": February 2025 has days 01 to 28',
      },
    ]);
    const pick = (id: string) => {
      const e = entry(r, 'posts', id);
      return [e.draft, e.created_at, e.updated_at, e.published_at];
    };
    expect(pick('plain')).toEqual([false, mtime, mtime, mtime]);
    expect(pick('dated')).toEqual([false, '2021-11-25T09:00:00.000Z', '2021-12-01T00:00:00.000Z', '2021-11-25T09:00:00.000Z']);
    expect(pick('pub')).toEqual([false, mtime, mtime, '2022-01-01T00:00:00.000Z']);
    expect(pick('draft')).toEqual([true, mtime, mtime, null]);
  });

  it('keeps drafts in the model, and treats them as published with drafts: true', async () => {
    const tree = { 'p/posts/a.yaml': 'draft: true\n', 'p/posts/b.yaml': 'x: 1\n' };
    const normal = await load(tree);
    expect(collection(normal, 'posts').entries.map((e) => [e.id, e.draft])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    const drafts = await load(tree, { drafts: true });
    expect(entry(drafts, 'posts', 'a')).toMatchObject({ draft: false, published_at: MTIME.toISOString() });
  });

  it('reads files with a BOM and CRLF line ends, and .markdown files', async () => {
    const r = await load({
      'p/posts/a.md': '\uFEFF---\r\ntitle: A\r\nn: x\r\n---\r\nBody line\r\n',
      'p/posts/b.markdown': '---\ntitle: B\n---\nB body\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  n: number\n',
    });
    expect(r.issues).toEqual([{ file: 'p/posts/a.md', line: 3, field: 'n', message: 'expected a number, got "x"' }]);
    expect(entry(r, 'posts', 'a').values).toEqual({ title: 'A', body: 'Body line' });
    expect(entry(r, 'posts', 'b').values).toEqual({ title: 'B', body: 'B body' });
  });

  it('reads JSON entries and numeric ids', async () => {
    const r = await load({ 'p/nums/a.json': '{ "id": 7, "n": 1 }', 'p/nums/b.json': '{ "id": "12", "n": 2 }' });
    expect(r.issues).toEqual([]);
    expect(collection(r, 'nums').entries.map((e) => e.id)).toEqual(['7', '12']);
  });
});

describe('_collection.yaml that declares nothing', () => {
  // Found from outside: an emptied schema published the fields it used to hide.
  it.each([
    ['empty', ''],
    ['only comments', '# schema TODO\n'],
    ['{}', '{}\n'],
  ])('is an error when %s, saying the fields would all be published', async (_, text) => {
    const r = await load({ 'p/events/_collection.yaml': text, 'p/events/a.yaml': 'title: A\nsecret: s3cret\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/events/_collection.yaml',
        message: expect.stringMatching(
          /^declares no field \(the file is empty or only comments\), so every field of the entries would be published, hidden ones too: .*or delete the file/,
        ),
      },
    ]);
  });

  // Found from outside (round two): the lines under `fields:` commented out did the same.
  it.each([
    ['commented out', 'name: Events\nfields:\n#  title: text\n#  secret: { type: text, hidden: true }\n'],
    ['~', 'name: Events\nfields: ~\n'],
  ])("is an error when the lines under 'fields:' are %s", async (_, text) => {
    const r = await load({ 'p/events/_collection.yaml': text, 'p/events/a.yaml': 'title: A\nsecret: s3cret\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/events/_collection.yaml',
        line: 2,
        field: 'fields',
        message: expect.stringMatching(
          /^declares no field \('fields:' has nothing under it\), so every field .*or delete 'fields:' to have types/,
        ),
      },
    ]);
  });

  it('still infers the fields when it names only other settings', async () => {
    const r = await load({ 'p/events/_collection.yaml': 'name: Events\n', 'p/events/a.yaml': 'title: A\n' });
    expect(r.issues).toEqual([]);
    expect(collection(r, 'events').fields.map((f) => f.name)).toEqual(['title']);
  });
});

describe('body_field spelt like a declared field', () => {
  // Found from outside: `body_field: reviw` served the body as a new field, the declared one stayed empty.
  it('warns with the field it would be, and the body still goes where it says', async () => {
    const r = await load({
      'p/books/_collection.yaml': 'body_field: reviw\nfields:\n  title: text\n  review: markdown\n',
      'p/books/a.md': '---\ntitle: A\n---\nGood.\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'p/books/_collection.yaml',
        line: 1,
        field: 'body_field',
        message:
          "no declared field is 'reviw', so the Markdown body is served as a new field 'reviw'; did you mean 'review'? (declare 'reviw' under fields: if it is meant)",
      },
    ]);
    expect(collection(r, 'books').fields.map((f) => f.name)).toEqual(['title', 'review', 'reviw']);
  });

  it('says nothing of a body field named unlike any field that holds a body (content, beside a text comment)', async () => {
    const r = await load({
      'p/books/_collection.yaml': 'body_field: content\nfields:\n  title: text\n  comment: text\n',
      'p/books/a.md': '---\ntitle: A\n---\nGood.\n',
    });
    expect([...r.issues, ...r.warnings]).toEqual([]);
  });
});

describe('an id with letters outside ASCII', () => {
  it('says ASCII, and names the plain form of accented letters (found from outside)', async () => {
    const r = await load({ 'p/books/misérables-2.md': 'x', 'p/books/日本語.md': 'x' });
    expect(r.issues.map((i) => i.message)).toEqual([
      "entry id 'misérables-2' is not valid: use an ASCII letter or digit first, then ASCII letters, digits, dots, _ or - (at most 200 characters, e.g. 'miserables-2'); it comes from the file name: rename the file or set 'id:'",
      "entry id '日本語' is not valid: use an ASCII letter or digit first, then ASCII letters, digits, dots, _ or - (at most 200 characters); it comes from the file name: rename the file or set 'id:'",
    ]);
  });
});

describe('a settings key written almost as one that exists', () => {
  it('names the key it would be (found from outside: locale: for locales)', async () => {
    const r = await load({
      'p/project.yaml': 'name: P\nlocale: [en, de]\npublic: true\n',
      'p/posts/_collection.yaml': 'feilds:\n  title: text\n',
    });
    expect(r.issues.map((i) => i.message)).toEqual([
      "unknown key 'feilds'; did you mean 'fields'? (_collection.yaml keys are name, body_field, sort, fields, render, translations, singleton)",
      "unknown key 'locale'; did you mean 'locales'? (project.yaml keys are id, name, description, default_locale, locales, public, dialect, tokens, strict)",
    ]);
  });
});
