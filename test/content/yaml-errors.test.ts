// Broken YAML said as the mistake made (issue 24): one message per mistake, on the line where it
// was made, with a hint and a code frame — not two or three of the parser's messages, some on the
// line before or at the end of the file.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { load, writeTree } from './helpers.js';

const md = (front: string) => `---\n${front}---\nBody.\n`;

describe('broken YAML: one message per mistake, on its line, with a hint and a frame', () => {
  it.each([
    [
      'a key indented under a key that has a value (front matter)',
      'p/posts/a.md',
      md('title: Hello\n  subtitle: World\ntags: [a]\n'),
      3,
      "broken YAML: this line is indented under 'title:' (line 2), which already has a value: start it in the column of 'title' to make it a key of its own, or leave nothing after 'title:' to nest it",
      '    2 | title: Hello\n  > 3 |   subtitle: World\n      |   ^\n    4 | tags: [a]',
    ],
    [
      'a nested key indented one space too far',
      'p/posts/a.yaml',
      'title: Hello\nmeta:\n  a: 1\n   b: 2\n',
      4,
      "broken YAML: this line is indented under 'a:' (line 3), which already has a value: start it in the column of 'a' to make it a key of its own, or leave nothing after 'a:' to nest it",
      '    3 |   a: 1\n  > 4 |    b: 2\n      |    ^',
    ],
    [
      'a list item indented less than the others',
      'p/posts/a.yaml',
      'title: Hello\ntags:\n  - a\n - b\n',
      4,
      'broken YAML: this line is indented 1 space, which lines up with no line above it (those are at 0, 2): indent it like the lines it belongs with (2 to continue the list or mapping above, 0 for the level before)',
      '    3 |   - a\n  > 4 |  - b\n      |  ^',
    ],
    [
      'a tab as indentation',
      'p/posts/a.yaml',
      'title: Hello\nmeta:\n\ta: 1\n',
      3,
      'broken YAML: a tab indents this line; YAML indents with spaces only: replace the tab with spaces',
      '    2 | meta:\n  > 3 | →a: 1\n      | ^',
    ],
    [
      'a list never closed (the parser names the next line)',
      'p/posts/a.yaml',
      'title: Hello\nlist: [a, b\nother: 1\n',
      2,
      "broken YAML: the '[' opened here is not closed: add ']' at the end of the line (or quote the value if the '[' is text)",
      '    1 | title: Hello\n  > 2 | list: [a, b\n      |       ^\n    3 | other: 1',
    ],
    [
      'a quote never closed (the parser names the end of the file)',
      'p/posts/a.yaml',
      'title: "Hello\nother: 1\n',
      1,
      'broken YAML: the " opened here is never closed: add " at the end of the value',
      '  > 1 | title: "Hello\n      |        ^\n    2 | other: 1',
    ],
    [
      "': ' inside a value",
      'p/posts/a.yaml',
      'title: Hello: World\n',
      1,
      "broken YAML: ': ' inside the value of 'title' would start a mapping: quote the value (title: \"Hello: World\")",
      '  > 1 | title: Hello: World\n      |             ^',
    ],
    [
      'a key without a colon',
      'p/posts/a.yaml',
      'title: Hello\nsubtitle World\nx: 1\n',
      2,
      "broken YAML: no ':' after 'subtitle': a line of a mapping is 'key: value' (subtitle: World)",
      '    1 | title: Hello\n  > 2 | subtitle World\n      | ^\n    3 | x: 1',
    ],
    [
      'a value starting with @',
      'p/posts/a.yaml',
      'title: @home\n',
      1,
      'broken YAML: a value cannot start with \'@\' unquoted: quote the value (title: "@home")',
      '  > 1 | title: @home\n      |        ^',
    ],
    [
      "an unquoted ' #' on the broken line",
      'p/posts/a.yaml',
      'title: Hello\ntags: [one, #two]\nx: 1\n',
      2,
      "broken YAML: the '[' opened here is not closed: add ']' at the end of the line (or quote the value if the '[' is text); note that ' #' starts a comment, which cuts the line there: quote the value if the '#' belongs to it",
      '    1 | title: Hello\n  > 2 | tags: [one, #two]\n      |       ^\n    3 | x: 1',
    ],
  ])('%s', async (_, path, text, line, message, frame) => {
    const r = await load({ [path]: text });
    expect(r.issues).toEqual([{ file: path, line, message, frame }]);
  });

  // Variants of the classes above, each with its message (the lines as the mistake is).
  it.each([
    [
      'a key of a list item indented one space short',
      'authors:\n  - name: A\n    role: x\n  - name: B\n   role: y\n',
      5,
      "broken YAML: this line is indented under 'name:' (line 4), which already has a value: start it in the column of 'name' to make it a key of its own, or leave nothing after 'name:' to nest it",
    ],
    [
      'a nested key between two levels',
      'a:\n  b:\n    c: 1\n   d: 2\n',
      4,
      'broken YAML: this line is indented 3 spaces, which lines up with no line above it (those are at 0, 2, 4): indent it like the lines it belongs with (4 to continue the list or mapping above, 2 for the level before)',
    ],
    [
      'a block text line indented too little',
      'x: |\n  text\n more\ny: 1\n',
      3,
      'broken YAML: this line is indented 1 space, which lines up with no line above it (those are at 0, 2): indent it like the lines it belongs with (2 to continue the list or mapping above, 0 for the level before)',
    ],
    [
      'no space after the colon',
      'title: A\nsub:x\nz: 1\n',
      2,
      "broken YAML: no space after ':' in 'sub:x': YAML needs one between a key and its value (sub: x)",
    ],
    ['a closing bracket too many', 'title: A\ntags: [a, b]]\n', 2, "broken YAML: a ']' with no '[' open before it: remove it"],
    [
      'a { never closed',
      'title: A\nmeta: {a: 1, b: 2\nz: 1\n',
      2,
      "broken YAML: the '{' opened here is not closed: add '}' at the end of the line (or quote the value if the '{' is text)",
    ],
    // Found from outside: a comment or blank line between gave the parser's own words, on the next key's line.
    [
      'a [ never closed, a comment line after it',
      'title: A\ntags: [a, b\n# note\nz: 1\n',
      2,
      "broken YAML: the '[' opened here is not closed: add ']' at the end of the line (or quote the value if the '[' is text)",
    ],
    [
      'a [ never closed, a blank line after it',
      'title: A\ntags: [a, b\n\nz: 1\n',
      2,
      "broken YAML: the '[' opened here is not closed: add ']' at the end of the line (or quote the value if the '[' is text)",
    ],
    [
      'a { never closed, blank and comment lines after it',
      'title: A\nmeta: {a: 1\n\n  # note\nz: 1\n',
      2,
      "broken YAML: the '{' opened here is not closed: add '}' at the end of the line (or quote the value if the '{' is text)",
    ],
    [
      "an apostrophe inside '…'",
      "title: 'it's here'\n",
      1,
      "broken YAML: a ' inside a '…' value ends it: write it twice (title: 'it''s here') or use double quotes (title: \"it's here\")",
    ],
    [
      'text after the closing quote',
      'title: "a"b\n',
      1,
      'broken YAML: text after the closing " of the value of \'title\': put all of the value inside the quotes (title: "\\"a\\"b")',
    ],
    [
      'inner double quotes inside "…"',
      'title: "He said "hi" to me"\n',
      1,
      'broken YAML: a " inside a "…" value ends it: enclose the value in single quotes (title: \'He said "hi" to me\')',
    ],
    [
      'inner quotes of both kinds',
      'title: "He said "it\'s" to me"\n',
      1,
      'broken YAML: a " inside a "…" value ends it: put a backslash before each inner " (title: "He said \\"it\'s\\" to me")',
    ],
    [
      'inner quotes with escapes of its own: they are kept',
      'title: "Line\\tone "x" and \\"y\\" ok"\n',
      1,
      'broken YAML: a " inside a "…" value ends it: put a backslash before each inner " (title: "Line\\tone \\"x\\" and \\"y\\" ok")',
    ],
    [
      "inner ' in '…' with a backslash: doubled, as '…' has no escapes",
      "title: 'C:\\Users' or 'D:\\x'\n",
      1,
      "broken YAML: a ' inside a '…' value ends it: write each inner ' twice (title: 'C:\\Users'' or ''D:\\x')",
    ],
    [
      "'- ' after a key",
      'title: - dash\n',
      1,
      "broken YAML: '- ' starts a list item, which cannot follow a key on its line: quote the value to keep it as text (title: \"- dash\"), or put the list's items on the lines below 'title:'",
    ],
    [
      "'- ' after a key, then a comment (left out of the quoted value)",
      'title: - dash # to do\n',
      1,
      "broken YAML: '- ' starts a list item, which cannot follow a key on its line: quote the value to keep it as text (title: \"- dash\"), or put the list's items on the lines below 'title:'; note that ' #' starts a comment, which cuts the line there: quote the value if the '#' belongs to it",
    ],
    [
      "a lone '-' after a key",
      'title: -\n',
      1,
      "broken YAML: '- ' starts a list item, which cannot follow a key on its line: quote the value to keep it as text (title: \"-\"), or put the list's items on the lines below 'title:'",
    ],
    [
      "'* ' at a value's start",
      'title: * star\n',
      1,
      'broken YAML: a value that starts with \'*\' is read as a YAML alias (a reference to a value named with &): quote the value to keep it as text (title: "* star")',
    ],
    [
      "'& ' at a value's start",
      'title: & more\n',
      1,
      'broken YAML: a value that starts with \'&\' is read as a YAML anchor (a name for the value after it): quote the value to keep it as text (title: "& more")',
    ],
    [
      "'>' with text after it",
      'title: >folded?\n',
      1,
      "broken YAML: '>' starts a folded block of text on the lines below (on its own line only '-', '+' or an indentation digit may follow it): quote the value to keep it as text (title: \">folded?\"), or put the text on the lines below, indented",
    ],
    [
      "'| ' with text after it",
      'title: | pipe\n',
      1,
      "broken YAML: '|' starts a block of text on the lines below (on its own line only '-', '+' or an indentation digit may follow it): quote the value to keep it as text (title: \"| pipe\"), or put the text on the lines below, indented",
    ],
    [
      "text after a value's list",
      'title: [draft] notes\n',
      1,
      "broken YAML: a value that starts with '[' is a list, which ends at its ']': quote the value to keep it as text (title: \"[draft] notes\")",
    ],
    [
      "'? ' at a value's start",
      'title: ? what\n',
      1,
      'broken YAML: \'? \' starts a complex key: quote the value to keep it as text (title: "? what")',
    ],
    [
      'a tab before a key',
      'title: A\n\ttags: x\n',
      2,
      'broken YAML: a tab indents this line; YAML indents with spaces only: remove it (the line above holds its own value, so this one starts at its level)',
    ],
    // Found from outside: token lines added under 'public: false' got the parser's own words, then a message per line of the item.
    [
      'a list pasted under a key that has a value',
      'name: P\npublic: false\n  - name: web\n    sha256: abc\n    scopes: [read]\n',
      3,
      "broken YAML: this list item is indented under 'public:' (line 2), which already has a value: put a key of its own above the items, in the column of 'public' and with nothing after its ':' (like 'tags:'), or leave nothing after 'public:' to make the list its value",
    ],
    // Found from outside: a no-break space pasted after the colon gave the parser's own words.
    [
      'a no-break space after the colon',
      'title: A\nemail:\u00a0ann@example.com\nz: 1\n',
      2,
      "broken YAML: the space after 'email:' is \\u00a0 (a no-break space, as word processors paste it), which YAML does not read as a space: type a plain space (email: ann@example.com)",
    ],
    [
      'a list item, then a key',
      '- a\nb: 1\n',
      2,
      'broken YAML: a list item (line 1) and a key (line 2) at the same indentation: a list and a mapping cannot mix; indent the list under a key, or make every line a key',
    ],
  ])('%s', async (_, text, line, message) => {
    const r = await load({ 'p/posts/a.yaml': text });
    expect(r.issues.map((i) => [i.line, i.message])).toEqual([[line, message]]);
  });

  it('a one-line file whose colon is followed by a no-break space: the same hint (found from outside)', async () => {
    for (const [path, text, line] of [
      ['p/posts/a.yaml', 'title:\u00a0Hello\n', 1],
      ['p/posts/b.md', md('title:\u2007Hello\n'), 2],
    ] as const) {
      const r = await load({ [path]: text });
      expect(r.issues.map((i) => [i.line, i.message.replace(/^.*?": /, '')])).toEqual([
        [
          line,
          `the space after 'title:' is ${text.includes('\u00a0') ? '\\u00a0' : '\\u2007'} (a no-break space), which YAML does not read as a space: type a plain space (title: Hello)`,
        ],
      ]);
    }
  });

  it('two mistakes in one file: two messages, each on its line', async () => {
    const r = await load({ 'p/posts/a.yaml': 'title: Hello\n  sub: x\nok: 1\nmore:\n\tb: 2\n' });
    expect(r.issues.map((i) => [i.line, i.message.slice(0, 40)])).toEqual([
      [2, 'broken YAML: this line is indented under'],
      [5, 'broken YAML: a tab indents this line; YA'],
    ]);
  });

  // Found from outside: with CRLF line ends the most common mistake fell back to the parser's own
  // words, on the line above. Every hint must read the lines without their '\r'.
  it.each([
    ['a key indented under a key that has a value', 'title: T\n  n: 3\n'],
    ['the same in front matter', '---\ntitle: T\n  n: 3\n---\nBody\n'],
    ['a nested key between two levels', 'a:\n  b:\n    c: 1\n   d: 2\n'],
    ['a key in a list item', 'authors:\n  - name: A\n    role: x\n  - name: B\n   role: y\n'],
    ['text after the closing quote', 'title: "a"b\n'],
    ['a list item, then a key', '- a\nb: 1\n'],
  ])('CRLF line ends give the message LF gives: %s', async (_, text) => {
    const path = text.startsWith('---') ? 'p/posts/a.md' : 'p/posts/a.yaml';
    const lf = await load({ [path]: text });
    const crlf = await load({ [path]: text.replace(/\n/g, '\r\n') });
    expect(lf.issues).toHaveLength(1);
    expect(crlf.issues).toEqual(lf.issues);
  });

  // Found from outside: the frame showed line 1 of a .md file, '---', as an empty line.
  it("a .md file's frame shows line 1 as it is ('---', and any language after it)", async () => {
    const r = await load({ 'p/posts/q.md': '---\ntitle: "T\nn: 3\n---\n', 'p/posts/y.md': '---yaml\ntitle: T\n  n: 3\n---\n' });
    expect(r.issues.map((i) => i.frame)).toEqual([
      '    1 | ---\n  > 2 | title: "T\n      |        ^\n    3 | n: 3',
      '    2 | title: T\n  > 3 |   n: 3\n      |   ^',
    ]);
    const first = await load({ 'p/posts/t.md': '---\n\ttitle: T\n---\n' });
    expect(first.issues[0]?.frame).toBe('    1 | ---\n  > 2 | →title: T\n      | ^');
  });

  // Found from outside: both were "no ':' after '---'".
  it('a second document, or front matter in a .yaml file, is said as such', async () => {
    const r = await load({
      'p/posts/md.yaml': 'title: A\n---\ntitle: B\n',
      'p/posts/fm.yml': '---\ntitle: x\n---\nBody\n',
      'p/project.yaml': 'name: P\n---\nlocales: [en]\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      "p/posts/fm.yml:3: broken YAML: front matter ('---' lines around the fields, line 1 and this one) is for .md and .markdown files; a YAML file is the fields alone: remove the '---' lines (or rename the file to .md if a Markdown body follows)",
      "p/posts/md.yaml:2: broken YAML: '---' starts a second YAML document, and a file holds one: remove the line (and move what follows to a file of its own if it is another entry)",
      "p/project.yaml:2: broken YAML: '---' starts a second YAML document, and a file holds one: remove the line (and move what follows to a file of its own if it is another entry)",
    ]);
  });

  it('the frame shows control characters escaped, never raw (a file must not drive the terminal)', async () => {
    const r = await load({ 'p/posts/a.yaml': 'title: \u001b[31mred\u001b[0m\n\tx: 1\n' });
    expect(r.issues[0]?.frame).toContain('\\u{1b}[31mred\\u{1b}[0m');
    expect(r.issues[0]?.frame).not.toMatch(/\u001b/);
  });

  it.each([
    ['at the end', 'name: P\nlocales: [en, de\n'],
    ['with a comment line after it', 'name: P\nlocales: [en, de\n# comment\npublic: true\n'],
  ])('a settings file (project.yaml) gets the same: a [ never closed %s', async (_, text) => {
    const r = await load({ 'p/project.yaml': text });
    expect(r.issues).toEqual([
      expect.objectContaining({
        file: 'p/project.yaml',
        line: 2,
        message: expect.stringMatching(/^broken YAML: the '\[' opened here is not closed/),
      }),
    ]);
  });

  it.each([
    ['broken', 'name: P\nlocales: [en, de\n# comment\ntokens:\n  - name: ci\n    token: secret-1\n'],
    ['not a mapping', '- name: P\n- locales: [en, de]\n'],
  ])(
    'a %s project.yaml gives no warnings said against the defaults standing in for it (they asked for a locale and a token it lists)',
    async (_, text) => {
      const r = await load({
        'p/project.yaml': text,
        'p/posts/_collection.yaml': 'fields:\n  title: {type: text, required: true}\n',
        'p/posts/hello.md': '---\ntitle: Hello\n---\n',
        'p/posts/hello.de.md': '---\ntitle: Hallo\n---\n',
        'p/posts/bad.md': '---\ntitle: [1, 2]\n---\n',
        // Nor an error of a locale it lists (found from outside: "project 'p' has locales en (add it …)").
        'p/posts/hallo.md': '---\ntitle: Hallo\nlocale: de\n---\n',
      });
      // The entries' own errors are still said with it: every mistake in one run.
      expect(r.issues.map((i) => i.file)).toEqual(['p/posts/bad.md', 'p/project.yaml']);
      expect(r.warnings).toEqual([]);
    },
  );

  it('front matter gets the same: a [ never closed, a blank line after it', async () => {
    const r = await load({ 'p/posts/a.md': '---\ntitle: A\ntags: [a, b\n\nz: 1\n---\nBody\n' });
    expect(r.issues).toEqual([
      expect.objectContaining({
        file: 'p/posts/a.md',
        line: 3,
        message: expect.stringMatching(/^broken YAML: the '\[' opened here is not closed/),
      }),
    ]);
  });
});

describe('cqa check prints the frame under the message', () => {
  let err: string[];
  beforeEach(() => {
    err = [];
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  });
  afterEach(() => vi.restoreAllMocks());

  it('file:line: message, then the lines around it', async () => {
    const root = writeTree({
      'demo/project.yaml': 'name: Demo\npublic: true\n',
      'demo/posts/a.md': md('title: Hello\n  subtitle: World\n'),
    });
    expect(await main(['check', root])).toBe(1);
    expect(err).toEqual([
      "demo/posts/a.md:3: broken YAML: this line is indented under 'title:' (line 2), which already has a value: start it in the column of 'title' to make it a key of its own, or leave nothing after 'title:' to nest it\n    2 | title: Hello\n  > 3 |   subtitle: World\n      |   ^",
      '1 error in 1 file',
    ]);
  });
});

// Values YAML reads that no field keeps as written (found from outside: !!binary gave an internal
// message with no line; !!set and !!omap were served as {}, 1e400 as "Infinity", a 23-digit
// integer as 1e+23).
describe('YAML values no field can keep', () => {
  it('are errors naming the file, the line and the key; quoted, they are text', async () => {
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/a.yaml': 'title: a\nblob: !!binary aGVsbG8=\ns: !!set {x, y}\nbig: 1e400\nlong: 12345678901234567890123\no: !!omap [a: 1]\n',
      'p/posts/b.md': '---\ntitle: b\nwhen: !!timestamp 2001-12-14\n---\nBody.\n',
      'p/posts/c.yaml': 'title: c\nbig: "1e400"\nlong: "12345678901234567890123"\nsafe: 9007199254740991\n',
      // Other spellings of the same (found from outside: they slipped past the first filter).
      'p/posts/d.yaml': 'title: d\nloc: { a: 1.e400, b: .inf, c: 0xFFFFFFFFFFFFFFFF, d: .nan }\n',
      // A number written with an exponent is kept as written, whatever else the file holds.
      'p/posts/e.yaml': 'title: e\nlat: 6.02e23\nphone: "Wow!!"\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.field}: ${i.message}`)).toEqual([
      'p/posts/a.yaml:2: blob: binary data (!!binary) is no value a field can hold: write it as text (base64) without the tag',
      'p/posts/a.yaml:3: s: a set (!!set) is no value a field can hold: write it without the tag',
      'p/posts/a.yaml:4: big: reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: quote it to keep it as text',
      'p/posts/a.yaml:5: long: a whole number beyond 9,007,199,254,740,991 loses its last digits as a number: quote it to keep it as text',
      'p/posts/a.yaml:6: o: an ordered map (!!omap, !!pairs) is no value a field can hold: write it without the tag',
      'p/posts/b.md:3: when: a !!timestamp is no value a field can hold: write it without the tag',
      'p/posts/d.yaml:2: loc: a: reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: quote it to keep it as text',
      'p/posts/d.yaml:2: loc: b: reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: quote it to keep it as text',
      'p/posts/d.yaml:2: loc: c: a whole number beyond 9,007,199,254,740,991 loses its last digits as a number: quote it to keep it as text',
      'p/posts/d.yaml:2: loc: d: .nan (not a number) is no value JSON can hold: quote it to keep it as text',
    ]);
  });

  // Found from outside: such a value hid every other error of its file, and its advice ("quote
  // it") led to "expected a number" on a number field.
  it("are listed with the file's other errors, with advice that fits the field's type", async () => {
    const r = await load({
      'p/things/_collection.yaml':
        'fields:\n  title: { type: text, required: true }\n  n: { type: number, required: true }\n  m: number\n  big: number\n  ok: boolean\n  day: date\n  nums: { type: number, multiple: true }\n',
      'p/things/a.md': '---\ntitle: A\nn: .nan\nok: 5\nm: 1e400\nbig: 12345678901234567890123\nday: .inf\nnums: [1, .nan]\n---\n',
      'p/things/b.yaml': 'title: !!binary aGVsbG8=\nn: 1\nok: maybe\n',
      'p/project.yaml': 'name: P\nlocales: [en]\nx: .nan\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.field ?? ''}: ${i.message}`)).toEqual([
      'p/project.yaml:3: : x: .nan (not a number) is no value JSON can hold: quote it to keep it as text',
      'p/things/a.md:3: n: .nan (not a number) is no value JSON can hold: write a number, or leave the field out',
      'p/things/a.md:4: ok: expected true or false, got 5',
      'p/things/a.md:5: m: reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: write a number below 1.8e308 (about the largest a number field holds)',
      'p/things/a.md:6: big: a whole number beyond 9,007,199,254,740,991 loses its last digits as a number: write it with fewer digits (a number field keeps whole numbers up to 9,007,199,254,740,991 exactly), or make the field text and quote the value',
      'p/things/a.md:7: day: reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: write a date YYYY-MM-DD',
      'p/things/a.md:8: nums: item 2: .nan (not a number) is no value JSON can hold: write a number, or leave the field out',
      'p/things/b.yaml:1: title: binary data (!!binary) is no value a field can hold: write it as text (base64) without the tag',
      'p/things/b.yaml:3: ok: expected true or false, got "maybe"',
    ]);
  });
});

// Found from outside: both had no line, in the yaml package's words ("Unresolved alias",
// "Excessive alias count indicates a resource exhaustion attack").
describe('alias mistakes', () => {
  it('an alias with no anchor before it, and aliases that multiply: on their line, in our words', async () => {
    let bomb = 'a: &a [x,x,x,x,x,x,x,x,x]\n';
    for (const [k, v] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
    ])
      bomb += `${k}: &${k} [${`*${v},`.repeat(8)}*${v}]\n`;
    const r = await load({
      'p/posts/an.md': '---\ntitle: &a T\ns: *a\ntags: *b\nlater: *c\nc: &c 1\n---\n',
      'p/posts/bomb.md': `---\ntitle: x\n${bomb}---\n`,
    });
    const none = (name: string) =>
      `the alias *${name} names no anchor set before it: put &${name} before the value to repeat (key: &${name} value) above this line, or write the value out`;
    expect(r.issues).toEqual([
      { file: 'p/posts/an.md', line: 4, message: none('b') },
      { file: 'p/posts/an.md', line: 5, message: none('c') },
      {
        file: 'p/posts/bomb.md',
        line: 5, // c: the first alias of an anchor (b) that holds aliases
        message:
          'aliases (*name) of anchors that hold aliases themselves repeat the data too many times (each level multiplies it): use fewer aliases, or write the data out',
      },
    ]);
  });
});

describe('hints about a broken line of any length', () => {
  // Found from outside: the hints' own regular expressions were quadratic in a run of blanks
  // (80,000 took 7 s), and the message quoted every blank.
  it('stay short, and name the mistake, on a line of 80,000 blanks', async () => {
    const { load } = await import('./helpers.js');
    const r = await load({
      'p/posts/a.yaml': `a: x${' '.repeat(80_000)}y: z\n`,
      'p/posts/b.yaml': `k${' '.repeat(80_000)}x\u2028y\n`,
    });
    expect(r.issues.map((i) => [i.file, i.message.length < 300])).toEqual([
      ['p/posts/a.yaml', true],
      ['p/posts/b.yaml', true],
    ]);
    expect(r.issues[0]?.message).toBe("broken YAML: ': ' inside the value of 'a' would start a mapping: quote the value");
  });
});

describe('many plain aliases', () => {
  // Found from outside: 200,000 aliases of a plain value gave the yaml package's words ("…resource
  // exhaustion attack"), with no line.
  it("are said in cqa's words, from the first alias's line", async () => {
    const { load } = await import('./helpers.js');
    const r = await load({ 'p/posts/a.yaml': `a: &x 1\nl:\n${'  - *x\n'.repeat(2000)}` });
    expect(r.issues).toEqual([
      {
        file: 'p/posts/a.yaml',
        line: 3,
        message: 'more than 1,000 aliases (*name) in one file, from this line on: write the values out, or use fewer aliases',
      },
    ]);
  });
});

describe('a value that starts with !', () => {
  // Found from outside: `title: !important note` was served as "note", `summary: !x` as "".
  it('is an error with its line when YAML reads a tag it does not know (the value would lose it), with the quoted form', async () => {
    const { load } = await import('./helpers.js');
    const r = await load({
      'p/posts/a.yaml': 'title: A\nsummary: !important note\n',
      'p/posts/b.md': '---\ntitle: !x\n---\nBody\n',
      'p/posts/c.yaml': 'title: C\ntags: [!a b, c]\n',
      'p/posts/d.yaml': 'title: !!! Sale !!!\n',
      'p/posts/e.yaml': 'title: E\nn: !!str 12\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      `p/posts/a.yaml:2: '!important' is read as a YAML tag (a name after '!'), which drops it from the value: quote the value to keep it as written ("!important note")`,
      `p/posts/b.md:2: '!x' is read as a YAML tag (a name after '!'), which drops it from the value: quote the value to keep it as written ("!x")`,
      `p/posts/c.yaml:2: '!a' is read as a YAML tag (a name after '!'), which drops it from the value: quote the value to keep it as written`,
      `p/posts/d.yaml:1: broken YAML: a value that starts with '!' is read as a YAML tag, and '!!!' is none: quote the value to keep it as written`,
    ]);
    expect(r.model.projects[0]?.collections[0]?.entries.find((e) => e.id === 'e')?.values).toMatchObject({ n: '12' });
  });
});

describe('a value that starts with an HTML character reference', () => {
  // Found from outside: `footer: &copy; 2024 Ann` was served as "2024 Ann", `title: &amp;` as null.
  it('is an error with its line (YAML reads it as an anchor and drops it), with the quoted form; a real anchor is fine', async () => {
    const { load } = await import('./helpers.js');
    const r = await load({
      'p/posts/a.yaml': 'title: A\nfooter: &copy; 2024 Ann\n',
      'p/posts/b.md': '---\ntitle: &amp;\n---\nBody\n',
      'p/posts/c.yaml': 'title: C\nnote: &#169; me\n',
      'p/posts/e.yaml': 'sign: &nbsp;x, y\n',
      'p/posts/d.yaml': 'title: &t D\nalso: *t\n',
      'p/posts/f.yaml': 'footer: &copy; 2024 Ann\n  all rights reserved\n',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      `p/posts/a.yaml:2: '&copy;' is read as a YAML anchor (a name after '&'), which drops it from the value: quote the value to keep it as written ("&copy; 2024 Ann")`,
      `p/posts/b.md:2: '&amp;' is read as a YAML anchor (a name after '&'), which drops it from the value: quote the value to keep it as written ("&amp;")`,
      `p/posts/c.yaml:2: '&#169;' is read as a YAML anchor (a name after '&'), which drops it from the value: quote the value to keep it as written ("&#169; me")`,
      `p/posts/e.yaml:1: broken YAML: a value that starts with '&' is read as a YAML anchor (a name for the value after it): quote the value to keep it as text (sign: "&nbsp;x, y")`,
      `p/posts/f.yaml:1: '&copy;' is read as a YAML anchor (a name after '&'), which drops it from the value: quote the value to keep it as written ("&copy; 2024 Ann all rights reserved")`,
    ]);
    expect(r.model.projects[0]?.collections[0]?.entries.find((e) => e.id === 'd')?.values).toMatchObject({ title: 'D', also: 'D' });
  });
});

describe('a file read as something else than it says', () => {
  // Found from outside: CR-only line ends gave "front matter is not closed" and a parser message;
  // `title: {{ page.title }}` gave "expected text, got a mapping" and a Node warning on stderr.
  it('lines ended by CR alone, and a mapping or list used as a key, are errors that say so', async () => {
    const { load } = await import('./helpers.js');
    const warned: string[] = [];
    const onWarning = (w: Error) => warned.push(w.message);
    process.on('warning', onWarning);
    try {
      const r = await load({
        'p/posts/a.md': '---\rtitle: CR\r---\rBody\rline2\r',
        'p/posts/b.yaml': 'title: CRY\rcount: 5\r',
        'p/posts/c.md': '---\ntitle: {{ page.title }}\n---\n',
        'p/posts/d.yaml': 'title: D\n[a, b]: x\n',
        'p/posts/e.yaml': 'title: "first\rsecond"\nmeta: {x: [1, {y: 2}]}\n',
      });
      const cr =
        'its lines end with a carriage return alone (CR, as classic Mac OS saved text), so it reads as one line: save it with LF (or CRLF) line ends';
      expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
        `p/posts/a.md:1: ${cr}`,
        `p/posts/b.yaml:1: ${cr}`,
        'p/posts/c.md:2: a mapping used as a key ({{ … }} and { … } make mappings, [ … ] lists): quote the value to keep it as text',
        'p/posts/d.yaml:2: a list used as a key ({{ … }} and { … } make mappings, [ … ] lists): quote the value to keep it as text',
      ]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warned).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('aliases of a long text', () => {
  // Found from outside: 999 aliases of a 4 MB string passed the alias checks (they count values),
  // then took 4 GB and ended `cqa check` (and a `serve --watch`) out of memory.
  it('are refused once they repeat more text than twice what a file may hold, with the file', async () => {
    const { load } = await import('./helpers.js');
    const big = 'x'.repeat(1 << 20);
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  meta: json\n',
      'p/posts/a.yaml': `meta:\n  s: &a "${big}"\n  l: [${'*a, '.repeat(899)}*a]\n`,
      'p/posts/b.yaml': `meta:\n  s: &a "${'y'.repeat(1000)}"\n  l: [${'*a, '.repeat(899)}*a]\n`,
    });
    expect(r.issues.map((i) => [i.file, i.message])).toEqual([
      [
        'p/posts/a.yaml',
        'aliases expand the data to more than 8,388,608 characters of text (twice what a file may hold): use fewer aliases, or write the long values out once',
      ],
    ]);
  });
});

describe('a message about a megabyte line', () => {
  // Found from outside: hints that quote the line made 1–3 MB messages (to the terminal and /healthz).
  it('is cut at 1,000 characters, saying how long it was', async () => {
    const { load } = await import('./helpers.js');
    const r = await load({ 'p/posts/a.yaml': `title: \`${'x'.repeat(1_000_000)}\n` });
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]?.message.length).toBeLessThan(1100);
    expect(r.issues[0]?.message).toMatch(/… \(cut: 1,000,0\d\d characters\)$/);
  });
});
