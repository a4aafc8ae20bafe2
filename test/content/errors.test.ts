import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/node/content/limits.js';
import { entry, load } from './helpers.js';

const POSTS = `fields:
  title: { type: text, required: true }
  price: number
  tags: { type: enumeration, values: [news, tech, life], multiple: true }
  author: { type: relation, collection: authors }
  cover: media
`;

describe('validation errors: all of them, each with file, line, field and what was expected', () => {
  it('reports every mistake in a tree, not just the first', async () => {
    const r = await load({
      'p/authors/ann.yaml': 'name: Ann\n',
      'p/posts/_collection.yaml': POSTS,
      'p/posts/a.md': '---\ntitle: A\nprice: cheap\ntags: [news, sport]\nauthor: bob\ncover: nope.png\nsubtitle: x\n---\nBody\n',
      'p/posts/b.md': '---\nprice: 3\n---\n',
    });
    expect(r.issues).toEqual([
      { file: 'p/posts/a.md', line: 3, field: 'price', message: 'expected a number, got "cheap"' },
      { file: 'p/posts/a.md', line: 4, field: 'tags', message: 'item 2: expected one of news, tech, life, got "sport"' },
      { file: 'p/posts/a.md', line: 5, field: 'author', message: "no entry 'bob' in collection 'authors'" },
      {
        file: 'p/posts/a.md',
        line: 6,
        field: 'cover',
        message: "no media file 'nope.png' under media/ (media ids are paths under the project's media/ folder)",
      },
      {
        file: 'p/posts/a.md',
        line: 7,
        field: 'subtitle',
        message:
          "not in the schema of collection 'posts' (fields: title, price, tags, author, cover, body); add it to p/posts/_collection.yaml or remove it",
      },
      { file: 'p/posts/b.md', line: 1, field: 'title', message: 'required field is missing' },
    ]);
  });

  it('points a missing required body at the line where the body would begin', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  body: { type: markdown, required: true }\n',
      'p/posts/a.md': '---\ntitle: A\n---\n',
    });
    expect(r.issues).toEqual([{ file: 'p/posts/a.md', line: 4, field: 'body', message: 'required field is missing' }]);
  });

  it('points at the line of the offending item in a block list', async () => {
    const r = await load({
      'p/authors/ann.yaml': 'name: Ann\n',
      'p/posts/_collection.yaml': 'fields:\n  authors: { type: relation, collection: authors, multiple: true }\n',
      'p/posts/a.yaml': 'authors:\n  - ann\n  - zed\n',
    });
    expect(r.issues).toEqual([{ file: 'p/posts/a.yaml', line: 3, field: 'authors', message: "no entry 'zed' in collection 'authors'" }]);
  });

  // Found from outside: 200 small entries that each listed four entries of 1 MB made 4.7 MB of
  // content into 1.6 GB of dist/, and with 2,000 a server that passed 5 GB and never started.
  it('refuses relations whose answers would embed more than the limit, at the relation field, naming the numbers', async () => {
    const big = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`p/big/b${i}.yaml`, `blob: ${'a'.repeat(1_000_000)}\n`]));
    const small = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`p/small/s${i}.yaml`, 'refs: [b0, b1, b2, b3]\n']));
    const schema = { 'p/small/_collection.yaml': 'fields:\n  refs: { type: relation, collection: big, multiple: true }\n' };
    // 30 × 4 MB, in each answer and in the list: 240 MB, under the limit's 256 MiB.
    expect((await load({ ...big, ...small(30), ...schema })).issues).toEqual([]);
    const r = await load({ ...big, ...small(40), ...schema });
    expect(r.issues).toEqual([
      {
        file: 'p/small/_collection.yaml',
        line: 2,
        field: 'refs',
        message: `relation 'refs' makes answers too large: each entry's answer and its collection's list hold the entries it lists, and its 160 listed entries of collection 'big' add 305.2 MiB to those of 'small' (all relations: 305.2 MiB, 80 times the content of 3.8 MiB; the limit is ${LIMITS.embedFactor} times, or 256 MiB). Relate to smaller entries (keep large text out of the entries that are related to), or list fewer`,
      },
    ]);
    // An entry whose file is named as another's id is not the one listed (found from outside: the
    // tiny k0.md was counted for the 1 MB entry of id k0).
    const named = Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [
        [`p/big/b${i}.yaml`, `id: k${i}\nblob: ${'a'.repeat(1_000_000)}\n`],
        [`p/big/k${i}.yaml`, `id: t${i}\nblob: x\n`],
      ]).flat(),
    );
    const renamed = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p/small/s${i}.yaml`, 'refs: [k0, k1, k2, k3]\n']));
    expect((await load({ ...named, ...renamed, ...schema })).issues.map((i) => i.field)).toEqual(['refs']);
  }, 60_000);

  // Found from outside: 40,000 locales took 20 s to check (and a serve --watch request waited for it).
  it('refuses more locales than a project may have', async () => {
    const locales = (n: number) =>
      `name: P\nlocales: [${Array.from({ length: n }, (_, i) => `aa-${String(i).padStart(5, '0')}`).join(', ')}]\ndefault_locale: aa-00000\npublic: true\n`;
    expect((await load({ 'p/project.yaml': locales(1_000) })).issues).toEqual([]);
    expect((await load({ 'p/project.yaml': locales(40_000) })).issues).toEqual([
      { file: 'p/project.yaml', line: 2, field: 'locales', message: 'lists 40,000 locales, more than the 1,000 a project may have' },
    ]);
  });

  // Found from outside: `rels: [b, b, …]` 1,000 times embedded b 1,000 times, past what a string holds.
  it('refuses a relation that lists an entry more than once, once per repeated entry, at its first repeat', async () => {
    const r = await load({
      'p/authors/ann.yaml': 'name: Ann\n',
      'p/authors/bo.yaml': 'name: Bo\n',
      'p/posts/_collection.yaml': 'fields:\n  authors: { type: relation, collection: authors, multiple: true }\n',
      'p/posts/a.yaml': `authors:\n  - ann\n  - bo\n  - ann\n${'  - bo\n'.repeat(1000)}`,
      'p/posts/b.yaml': 'authors: [bo, ann]\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.yaml',
        line: 4,
        field: 'authors',
        message: "lists 'ann' more than once: a relation lists each entry once; remove the repeats",
      },
      {
        file: 'p/posts/a.yaml',
        line: 5,
        field: 'authors',
        message: "lists 'bo' more than once: a relation lists each entry once; remove the repeats",
      },
    ]);
  });

  it('warns of ids that differ only in case (one folder on macOS and Windows), naming both files', async () => {
    const r = await load({
      'p/posts/Upper.yaml': 'title: A\n',
      'p/posts/other.yaml': 'id: upper\ntitle: B\n',
      'p/posts/x.yaml': 'title: C\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'p/posts/other.yaml',
        field: 'id',
        message:
          "the id 'upper' differs from 'Upper' (p/posts/Upper.yaml) only in case: a static tree built or copied on macOS or Windows, whose file systems do not tell them apart, keeps one of the two; give one of them another id",
      },
    ]);
  });

  it("warns of entry and media names Windows cannot hold: CON, nul.md, COM1, a trailing dot, '?' (found from outside: check passed a tree a Windows checkout or copy of dist/ cannot hold)", async () => {
    const r = await load({
      'p/posts/CON.yaml': 'title: A\n',
      'p/posts/nul.md': '---\ntitle: B\n---\n',
      'p/posts/x.yaml': 'id: com1\ntitle: C\n',
      'p/posts/dot..yaml': 'title: D\n',
      'p/posts/aux/e.yaml': 'title: E\n',
      'p/posts/fine.yaml': 'title: F\n',
      'p/posts/console.yaml': 'title: G\n',
      'p/media/odd/q?x.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'p/media/prn.png.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'p/media/ok.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    expect(r.issues).toEqual([]);
    const device = 'a device name Windows reserves (CON, PRN, AUX, NUL, COM1-9, LPT1-9, whatever the extension)';
    const tail = 'a git checkout or a copy of the built tree (dist/) on Windows cannot hold it; rename it';
    expect(r.warnings.map((w) => [w.file, w.field, w.message]).sort()).toEqual(
      [
        ['p/media/odd/q?x.svg', undefined, `'q?x.svg' holds a character Windows does not allow in a file name (< > : " | ? * \\): ${tail}`],
        ['p/media/prn.png.svg', undefined, `'prn.png.svg' is ${device}: ${tail}`],
        ['p/posts/CON.yaml', 'id', `'CON.yaml' is ${device}: ${tail}`],
        ['p/posts/aux/e.yaml', 'id', `'aux' is ${device}: ${tail}`],
        ['p/posts/dot..yaml', 'id', `'dot.' ends in a dot, which Windows drops from a file name: ${tail}`],
        ['p/posts/nul.md', 'id', `'nul.md' is ${device}: ${tail}`],
        ['p/posts/x.yaml', 'id', `'com1' is ${device}: ${tail}`],
      ].sort(),
    );
  });

  it('names both files of a duplicate id, with the line of its id: (found from outside: no line)', async () => {
    const r = await load({ 'p/posts/a.md': '---\nid: same\n---\n', 'p/posts/b.yaml': 'id: same\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/b.yaml',
        line: 1,
        field: 'id',
        message:
          "duplicate id 'same': p/posts/a.md has the same id (ids must be unique in a collection): rename one of the files, or set another 'id:' in it",
      },
    ]);
  });

  it('reports broken YAML, broken front matter and broken JSON with their lines', async () => {
    const r = await load({
      'p/posts/a.md': '---\ntitle: ok\ntags: [a, b\n---\nBody\n',
      'p/posts/b.md': '---\ntitle: never closed\n',
      'p/posts/c.yaml': 'title: x\ntitle: y\n',
      'p/posts/d.json': '{\n  "title": "x",\n}\n',
      'p/posts/e.yaml': '- a list\n- not a mapping\n',
      'p/posts/f.md': '---toml\ntitle = "x"\n---\n',
    });
    const byFile = Object.fromEntries(r.issues.map((i) => [i.file, i]));
    expect(Object.keys(byFile)).toEqual([
      'p/posts/a.md',
      'p/posts/b.md',
      'p/posts/c.yaml',
      'p/posts/d.json',
      'p/posts/e.yaml',
      'p/posts/f.md',
    ]);
    expect(byFile['p/posts/a.md']).toMatchObject({ line: 3, message: expect.stringMatching(/^broken YAML: /) });
    expect(byFile['p/posts/b.md']).toEqual({
      file: 'p/posts/b.md',
      line: 1,
      message: "front matter is not closed: add a line '---' after it",
    });
    expect(byFile['p/posts/c.yaml']).toEqual({
      file: 'p/posts/c.yaml',
      line: 2,
      message: 'duplicate key "title" (first on line 1): keys must be unique',
    });
    // The comma to remove, on its line (V8 said "Expected double-quoted property name in JSON at position 19").
    expect(byFile['p/posts/d.json']).toEqual({
      file: 'p/posts/d.json',
      line: 2,
      message: "broken JSON: a comma before '}': JSON allows none after the last key; remove it",
    });
    expect(byFile['p/posts/e.yaml']).toEqual({
      file: 'p/posts/e.yaml',
      line: 1,
      message: 'expected a mapping of field names to values, got a list',
    });
    expect(byFile['p/posts/f.md']).toEqual({
      file: 'p/posts/f.md',
      line: 1,
      message: "front matter language 'toml' is not supported; use YAML",
    });
  });

  it("reports a YAML merge key (<<:), which YAML 1.2 does not merge, on its line (found from outside: a json field and a collection without a schema served a key named '<<')", async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  meta: json\n  seo: { type: group, fields: { t: text, d: text } }\n',
      'p/posts/a.yaml': 'title: A\nbase: &b\n  x: 1\n',
      'p/posts/b.yaml': 'title: B\nmeta:\n  <<: {x: 1}\n  y: 2\n',
      'p/posts/c.yaml': 'title: C\nseo:\n  d: own\n  <<: [{t: one}]\n',
      'p/posts/d.md': '---\ntitle: D\n<<: {meta: 3}\n---\n',
      'p/loose/e.yaml': 'title: E\nx: &x {a: 1}\ny:\n  <<: *x\n  b: 2\n',
      // Quoted, it is a key like any other.
      'p/posts/f.yaml': 'title: F\nmeta: {"<<": 1, \'<<<\': 2}\n',
    });
    const fix =
      "'<<' is a YAML merge key, which YAML 1.2 (what cqa reads) does not have: the keys would not be merged but served under the key '<<'; write the keys out here (quote it, \"<<\", for a key of that name)";
    expect(r.issues.filter((i) => i.file !== 'p/posts/a.yaml')).toEqual([
      { file: 'p/loose/e.yaml', line: 4, message: fix },
      { file: 'p/posts/b.yaml', line: 3, message: fix },
      { file: 'p/posts/c.yaml', line: 4, message: fix },
      { file: 'p/posts/d.md', line: 3, message: fix },
    ]);
  });

  it('reports front matter that would be read as the body: after blank lines, in TOML (+++), opened with four dashes', async () => {
    const r = await load({
      'p/posts/a.md': '\n---\ntitle: Blank first\n---\nbio\n',
      'p/posts/b.md': '\r\n\r\n---\r\ntitle: CRLF\r\n---\r\n',
      'p/posts/c.md': '+++\ntitle = "toml"\n+++\n',
      'p/posts/d.md': '----\ntitle: four\n----\n',
      // Not front matter: a body that starts with a rule, or with text.
      'p/posts/e.md': '\n---\n\nA rule, then text.\n',
      'p/posts/f.md': '# Heading\n\n---\ntitle: in the body\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.md',
        line: 2,
        message: "front matter must start on line 1: remove the 1 blank line before '---' (else it is read as the body)",
      },
      {
        file: 'p/posts/b.md',
        line: 3,
        message: "front matter must start on line 1: remove the 2 blank lines before '---' (else it is read as the body)",
      },
      { file: 'p/posts/c.md', line: 1, message: "TOML front matter (+++) is not read: write it as YAML between '---' lines" },
      { file: 'p/posts/d.md', line: 1, message: "front matter opens with exactly three dashes: write '---', not '----'" },
    ]);
  });

  it("says to close front matter with '---', not '...', on the '...' line (found from outside: 'not closed' on line 1, or a second YAML document in the body)", async () => {
    const r = await load({
      'p/posts/a.md': '---\ntitle: A\n...\nBody.\n',
      'p/posts/b.md': '---\r\ntitle: B\r\n... \r\nBody.\r\n\r\n---\r\n\r\nAfter a rule.\r\n',
      // A '...' in the body, after the closing '---', is text.
      'p/posts/c.md': '---\ntitle: C\n---\nWait for it\n...\n',
      'p/posts/d.md': '---\ntitle: D\nnote: |\n  ...\n---\n',
      // '...' then '---' ends the YAML, then the front matter: read as meant.
      'p/posts/e.md': '---\ntitle: E\n...\n\n# done\n---\nBody.\n',
    });
    const message =
      "front matter is closed with '...', which cqa does not read as its end (the front matter would go on to the next '---'): write '---' on this line";
    expect(r.issues).toEqual([
      { file: 'p/posts/a.md', line: 3, message },
      { file: 'p/posts/b.md', line: 3, message },
    ]);
    expect(entry(r, 'posts', 'e').values).toMatchObject({ title: 'E', body: 'Body.' });
  });

  it('says where broken JSON is and what V8 found, without its position noise; a trailing comma in a list too', async () => {
    const r = await load({
      'p/posts/a.json': '{ "tags": [1, 2,\n ] }',
      'p/posts/b.json': '{\n  "title" "x"\n}',
      'p/posts/c.json': '{ "title": "a,]" }',
    });
    expect(r.issues).toEqual([
      { file: 'p/posts/a.json', line: 1, message: "broken JSON: a comma before ']': JSON allows none after the last item; remove it" },
      { file: 'p/posts/b.json', line: 2, message: "broken JSON: Expected ':' after property name" },
    ]);
  });

  it("gives the line of a token JSON refuses, without V8's quote of the file, and says when the file holds YAML (found from outside: no line, the whole file quoted)", async () => {
    const r = await load({
      'p/posts/a.json': '{\n  "title": "A",\n  "meta": {},\n  "n": tru}\n',
      'p/posts/b.json': 'title: B\ntags: [a]\n',
      'p/posts/c.json': `{\n  "title": "C",\n${'  "pad": 1,\n'.repeat(50)}  "x": nope\n}\n`,
    });
    expect(r.issues).toEqual([
      { file: 'p/posts/a.json', line: 4, message: "broken JSON: Unexpected token '}'" },
      {
        file: 'p/posts/b.json',
        line: 1,
        message:
          "broken JSON: Unexpected token 'i': the file holds YAML, not JSON; give it the extension .yaml (or .md, for front matter and a body)",
      },
      { file: 'p/posts/c.json', line: 53, message: "broken JSON: Unexpected token 'o'" },
    ]);
  });

  // Found from outside: V8's words ("Expected property name or '}'") for what JSON5 and JavaScript allow.
  it('says that JSON has no comments and no single-quoted strings, with the line', async () => {
    const r = await load({
      'p/posts/a.json': '{\n  // the title\n  "title": "a"\n}',
      'p/posts/b.json': '{\n  "title": \'b\'\n}',
      'p/posts/c.json': '{ "url": "https://a.example/*x*/", /* note */ "n": 1 }',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      'p/posts/a.json:2: broken JSON: JSON has no comments: remove it (or write the entry as YAML, which has # comments)',
      `p/posts/b.json:2: broken JSON: a string in single quotes: JSON's strings take double quotes ("…")`,
      'p/posts/c.json:1: broken JSON: JSON has no comments: remove it (or write the entry as YAML, which has # comments)',
    ]);
  });

  it('takes a required text of blanks only for an empty one', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: { type: text, required: true }\n  body: { type: markdown, required: true }\n',
      'p/posts/a.md': '---\ntitle: "   "\n---\n \n\t\n',
      'p/posts/b.md': '---\ntitle: " B "\n---\nBody\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.field}: ${i.message}`)).toEqual([
      'p/posts/a.md:2: title: required field is empty',
      'p/posts/a.md:4: body: required field is missing',
    ]);
  });

  it('warns when the file name and locale: name two locales', async () => {
    const r = await load({
      'p/project.yaml': 'name: P\nlocales: [en, de]\npublic: true\n',
      'p/posts/h.de.yaml': 'title: H\nlocale: en\n',
      'p/posts/i.de.yaml': 'title: I\nlocale: de\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'p/posts/h.de.yaml',
        line: 2,
        field: 'locale',
        message: "the file name says 'de' and locale: says 'en': this entry is 'en'; rename the file or correct locale:",
      },
    ]);
  });

  // Found from outside: a 0-byte .md or .yaml was an entry with every field null, in silence.
  it('warns of an entry file with nothing in it', async () => {
    const r = await load({ 'p/posts/a.md': '', 'p/posts/b.yaml': '\n', 'p/posts/c.md': '---\n---\n', 'p/posts/d.md': 'Only a body' });
    expect(r.issues).toEqual([]);
    const message =
      'empty: this entry has no fields and no body, so it is published with every field null; write its content, or remove the file';
    expect(r.warnings).toEqual(['p/posts/a.md', 'p/posts/b.yaml', 'p/posts/c.md'].map((file) => ({ file, message })));
  });

  it('does not report a relation to an entry whose own file is broken a second time', async () => {
    const r = await load({
      'p/authors/ann.yaml': 'name: [unclosed\n',
      'p/posts/a.yaml': 'author: ann\n',
      'p/posts/_collection.yaml': 'fields:\n  author: { type: relation, collection: authors }\n',
    });
    expect(r.issues.map((i) => i.file)).toEqual(['p/authors/ann.yaml']);
  });

  it('rejects a body given twice (front matter and Markdown body)', async () => {
    const r = await load({ 'p/posts/a.md': '---\nbody: also here\n---\nThe body\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.md',
        line: 2,
        field: 'body',
        message: "'body' is the body field of this collection and the file also has a Markdown body: keep one of them",
      },
    ]);
  });

  it('reports a required field that is present but empty', async () => {
    const r = await load({
      'p/posts/_collection.yaml':
        'fields:\n  title: { type: text, required: true }\n  tags: { type: text, multiple: true, required: true }\n',
      'p/posts/a.yaml': 'title: ""\ntags: []\n',
    });
    expect(r.issues).toEqual([
      { file: 'p/posts/a.yaml', line: 1, field: 'title', message: 'required field is empty' },
      { file: 'p/posts/a.yaml', line: 2, field: 'tags', message: 'required field is empty' },
    ]);
  });

  it('reports an invalid value of a required field once, as invalid, not also as empty', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  price: { type: number, required: true }\n',
      'p/posts/a.yaml': 'title: A\nprice: cheap\n',
    });
    expect(r.issues).toEqual([{ file: 'p/posts/a.yaml', line: 2, field: 'price', message: 'expected a number, got "cheap"' }]);
  });

  it('says to remove the quotes around a number written as text (found from outside)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  pages: number\n',
      'p/posts/a.yaml': 'pages: "1463"\n',
      'p/posts/b.yaml': "pages: '1,463'\n",
      'p/posts/c.yaml': "pages: '0b101'\n", // text to YAML 1.2 without the quotes too
    });
    expect(r.issues).toEqual([
      { file: 'p/posts/a.yaml', line: 1, field: 'pages', message: 'expected a number, got "1463": remove the quotes' },
      { file: 'p/posts/b.yaml', line: 1, field: 'pages', message: 'expected a number, got "1,463"' },
      { file: 'p/posts/c.yaml', line: 1, field: 'pages', message: 'expected a number, got "0b101"' },
    ]);
  });

  it("says to write a number with '_' between its digits (YAML 1.1's 1_000) without them (found from outside: no hint)", async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  pages: number\n',
      'p/posts/a.yaml': 'pages: 1_000\n',
      'p/posts/b.yaml': 'pages: -12_345.5\n',
      'p/posts/c.yaml': 'pages: 1__0\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.yaml',
        line: 1,
        field: 'pages',
        message: 'expected a number, got "1_000": YAML 1.2 reads digits with \'_\' between them as text; write 1000',
      },
      {
        file: 'p/posts/b.yaml',
        line: 1,
        field: 'pages',
        message: 'expected a number, got "-12_345.5": YAML 1.2 reads digits with \'_\' between them as text; write -12345.5',
      },
      { file: 'p/posts/c.yaml', line: 1, field: 'pages', message: 'expected a number, got "1__0"' },
    ]);
  });
});

describe('schema errors in _collection.yaml', () => {
  it('names the type or option meant when one is spelt almost so (found from outside: colection, relaton)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  a: relaton\n  b: { type: relation, colection: posts }\n  c: { type: Text }\n',
    });
    expect(r.issues.map((i) => [i.field, i.message.replace(/ \((types|field options) are .*/, '')])).toEqual([
      ['a', `unknown type "relaton"; did you mean 'relation'?`],
      ['b', "unknown option 'colection'; did you mean 'collection'?"],
      ['b', "a relation needs 'collection': the slug of the target collection, like { type: relation, collection: authors }"],
      ['c', `unknown type "Text"; did you mean 'text'?`],
    ]);
  });

  it('reports unknown types and options, enumerations without values, relations without or to a missing collection', async () => {
    const r = await load({
      'p/posts/_collection.yaml': `fields:
  a: strnig
  b: { type: enumeration }
  c: relation
  d: { type: relation, collection: nowhere }
  e: { type: text, requried: true }
  f: { type: number, values: [1] }
  id: text
sort: nope:desc
extra: 1
`,
    });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/_collection.yaml',
        line: 2,
        field: 'a',
        message: expect.stringMatching(/^unknown type "strnig"; types are text, longtext, markdown, /),
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 3,
        field: 'b',
        message: "an enumeration needs 'values': a list of the allowed values, like { type: enumeration, values: [news, tech] }",
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 4,
        field: 'c',
        message: "a relation needs 'collection': the slug of the target collection, like { type: relation, collection: authors }",
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 5,
        field: 'd',
        message: "relation to collection 'nowhere', which does not exist; collections: posts",
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 6,
        field: 'e',
        message:
          "unknown option 'requried'; did you mean 'required'? (field options are type, required, multiple, hidden, values, collection, fields, repeatable, range)",
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 7,
        field: 'f',
        message: "'values' only applies to type enumeration (this field is number)",
      },

      {
        file: 'p/posts/_collection.yaml',
        line: 8,
        field: 'id',
        message: "'id' is reserved (id, locale, draft, created_at, updated_at, published_at) and cannot be a field name",
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 9,
        field: 'sort',
        message: expect.stringMatching(/^cannot sort by 'nope': not a visible field of this collection; sortable: id, locale, /),
      },
      {
        file: 'p/posts/_collection.yaml',
        line: 10,
        field: 'extra',
        message: "unknown key 'extra'; _collection.yaml keys are name, body_field, sort, fields, render, translations, singleton",
      },
    ]);
  });

  // Found from outside: `sort: "-title"` got no hint; `"": text` was said as ": '' is not a valid
  // field name" and listed as "(fields: title, n, )"; refused names were offered to sort by.
  it('-title says to write title:desc; an empty or refused field name is said once and offered nowhere', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'sort: "-title, +n"\nfields:\n  title: text\n  n: number\n  "": text\n  1bad: text\n',
      'p/posts/a.yaml': 'title: A\nok: 1\n',
      'p/other/_collection.yaml': 'sort: nope\nfields:\n  title: text\n  id: text\n  "with space": text\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.field}: ${i.message}`)).toEqual([
      "p/other/_collection.yaml:1: sort: cannot sort by 'nope': not a visible field of this collection; sortable: id, locale, created_at, updated_at, published_at, title",
      "p/other/_collection.yaml:4: id: 'id' is reserved (id, locale, draft, created_at, updated_at, published_at) and cannot be a field name",
      "p/other/_collection.yaml:5: with space: 'with space' is not a valid field name: use a letter or _ first, then letters, digits, _ or - (at most 64)",
      "p/posts/_collection.yaml:1: sort: '-title' is not a sort key: write title:desc (the direction comes after the field)",
      "p/posts/_collection.yaml:1: sort: '+n' is not a sort key: write n:asc (the direction comes after the field)",
      'p/posts/_collection.yaml:5: fields: a field name cannot be empty: write a letter or _ first, then letters, digits, _ or - (at most 64)',
      "p/posts/_collection.yaml:6: 1bad: '1bad' is not a valid field name: use a letter or _ first, then letters, digits, _ or - (at most 64)",
      "p/posts/a.yaml:2: ok: not in the schema of collection 'posts' (fields: title, n); add it to p/posts/_collection.yaml or remove it",
    ]);
  });

  it('does not let a hidden field be the sort key', async () => {
    const r = await load({ 'p/posts/_collection.yaml': 'sort: secret\nfields:\n  secret: { type: text, hidden: true }\n' });
    expect(r.issues).toEqual([
      { file: 'p/posts/_collection.yaml', line: 1, field: 'sort', message: expect.stringMatching(/^cannot sort by 'secret'/) },
    ]);
  });

  it('reports each of 150,000 wrong values of one entry (found from outside: cqa check stopped with "Maximum call stack size exceeded")', async () => {
    const tags = Array.from({ length: 150_000 }, (_, i) => `t${i}`);
    const r = await load({ 'p/posts/_collection.yaml': POSTS, 'p/posts/x.json': JSON.stringify({ title: 'X', tags }) });
    const wrong = r.issues.filter((i) => i.file === 'p/posts/x.json' && i.field === 'tags');
    expect(wrong).toHaveLength(150_000);
    expect(wrong.at(-1)).toMatchObject({
      file: 'p/posts/x.json',
      field: 'tags',
      message: 'item 150000: expected one of news, tech, life, got "t149999"',
    });
  });
});
