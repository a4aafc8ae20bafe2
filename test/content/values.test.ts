import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fromOutcome, runJob } from '../../src/node/content/file-parser.js';
import { entry, load, writeTree } from './helpers.js';

const SCHEMA = `fields:
  title: text
  summary: longtext
  notes: markdown
  intro: richtext
  slug: slug
  email: email
  color: color
  price: number
  active: boolean
  day: date
  at: datetime
  opens: time
  tags: { type: enumeration, values: [news, tech, life], multiple: true }
  kind: { type: enumeration, values: [a, b] }
  meta: json
  secret: { type: text, hidden: true }
`;

describe('field types', () => {
  it('coerces and normalises a valid value of every type', async () => {
    const r = await load({
      'p/things/_collection.yaml': SCHEMA,
      'p/things/one.yaml': `title: 1984
summary: "Long\\ntext"
notes: "*md*"
intro: "Hello **world**"
slug: my-first-post
email: ann@example.com
color: "#ff8800"
price: 12.5
active: false
day: 2021-11-25
at: 2021-11-25T12:30:00+02:00
opens: "09:30"
tags: [news, tech]
kind: b
meta: { a: [1, 2], b: null }
secret: shh
`,
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'things', 'one').values).toEqual({
      title: '1984',
      summary: 'Long\ntext',
      notes: '*md*',
      intro: '<p>Hello <strong>world</strong></p>\n',
      slug: 'my-first-post',
      email: 'ann@example.com',
      color: '#ff8800',
      price: 12.5,
      active: false,
      day: '2021-11-25',
      at: '2021-11-25T10:30:00.000Z',
      opens: '09:30',
      tags: ['news', 'tech'],
      kind: 'b',
      meta: { a: [1, 2], b: null },
      secret: 'shh',
    });
  });

  it('keeps YAML 1.2 semantics: a date stays a string, yes stays text', async () => {
    const r = await load({ 'p/things/a.yaml': 'day: 2021-11-25\nanswer: yes\n' });
    expect(entry(r, 'things', 'a').values).toEqual({ day: '2021-11-25', answer: 'yes' });
  });

  it('accepts datetimes with a space, fractions and no offset (UTC), and a date alone', async () => {
    const r = await load({
      'p/e/_collection.yaml': 'fields:\n  at: { type: datetime, multiple: true }\n',
      'p/e/a.yaml':
        'at: ["2021-11-25 10:00:00.12345", "2021-11-25T10:00Z", 2021-11-25, "0099-01-01T00:00:00-01:30", " 2024-02-29T23:59:59.999Z", 2000-02-29T00:00:00.000Z, "2023-01-01T10:00:00,000Z", "2023-01-01T10:00:00    Z", "2023-01-01T10:00:00.00 Z"]\n',
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'e', 'a').values.at).toEqual([
      '2021-11-25T10:00:00.123Z',
      '2021-11-25T10:00:00.000Z',
      '2021-11-25T00:00:00.000Z',
      '0099-01-01T01:30:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2000-02-29T00:00:00.000Z',
      // 24 characters each, but not the stored form: rebuilt like any other spelling.
      '2023-01-01T10:00:00.000Z',
      '2023-01-01T10:00:00.000Z',
      '2023-01-01T10:00:00.000Z',
    ]);
  });

  it('reads a single value of a multiple field as a list of one; null stays null', async () => {
    const r = await load({
      'p/things/_collection.yaml': SCHEMA,
      'p/things/a.yaml': 'tags: life\nmeta: null\ntitle: ~\n',
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'things', 'a').values).toEqual({ tags: ['life'], meta: null, title: null });
  });

  it.each([
    ['price', 'cheap', 'expected a number, got "cheap"'],
    ['active', 'yes', 'expected true or false, got "yes" (YAML 1.2 reads yes/no/on/off as text)'],
    ['active', '1', 'expected true or false, got 1'],
    ['slug', 'My Post', 'expected a slug (lower-case letters, digits and single hyphens, like my-first-post), got "My Post"'],
    ['email', 'ann.example.com', 'expected an email address, got "ann.example.com"'],
    ['color', 'red', 'expected a hex colour like "#ff8800" (quote it: in YAML an unquoted # starts a comment), got "red"'],
    // A date written so that names no day says why (found from outside: the message quoted the format it followed).
    ['day', '2021-02-30', 'expected a date YYYY-MM-DD, got "2021-02-30": February 2021 has days 01 to 28'],
    ['day', '2024-02-30', 'expected a date YYYY-MM-DD, got "2024-02-30": February 2024 has days 01 to 29'],
    ['day', '2025-13-45', 'expected a date YYYY-MM-DD, got "2025-13-45": month 13 does not exist (months go from 01 to 12)'],
    // A date written another common way: the ISO form to write (found from outside: the author had to work it out).
    ['day', '25.11.2021', 'expected a date YYYY-MM-DD, got "25.11.2021": write it 2021-11-25'],
    ['day', '2021/11/25', 'expected a date YYYY-MM-DD, got "2021/11/25": write it 2021-11-25'],
    ['day', '2021-3-1', 'expected a date YYYY-MM-DD, got "2021-3-1": write it 2021-03-01'],
    ['day', '25/11/2021', 'expected a date YYYY-MM-DD, got "25/11/2021": write it 2021-11-25'],
    ['day', '11/25/2021', 'expected a date YYYY-MM-DD, got "11/25/2021": write it 2021-11-25'],
    [
      'day',
      '03/01/2021',
      'expected a date YYYY-MM-DD, got "03/01/2021": write it 2021-03-01 if 03 is the month, 2021-01-03 if it is the day',
    ],
    [
      'day',
      '2021-11-25T10:00:00Z',
      'expected a date YYYY-MM-DD, got "2021-11-25T10:00:00Z": a date field takes the day alone (2021-11-25); declare the field a datetime to keep the time',
    ],
    ['day', '31.02.2021', 'expected a date YYYY-MM-DD, got "31.02.2021"'],
    ['day', '1 March 2021', 'expected a date YYYY-MM-DD, got "1 March 2021"'],
    [
      'at',
      '25.11.2021 09:30',
      'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "25.11.2021 09:30": write it 2021-11-25T09:30:00Z (Z: UTC; or an offset such as +01:00)',
    ],
    ['at', '2021/11/25', 'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "2021/11/25": write it 2021-11-25'],
    [
      'published_at',
      '15.01.2025 09:00',
      'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "15.01.2025 09:00": write it 2025-01-15T09:00:00Z (Z: UTC; or an offset such as +01:00)',
    ],
    ['at', 'tomorrow', 'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "tomorrow"'],
    [
      'at',
      '2021-11-25T25:00:00Z',
      'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "2021-11-25T25:00:00Z": the time does not exist (hours go up to 23, minutes and seconds up to 59)',
    ],
    [
      'at',
      '2021-11-25T10:00:00+24:00',
      'expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "2021-11-25T10:00:00+24:00": the offset does not exist (at most ±23:59)',
    ],
    // The stored form itself (read without being rebuilt) is checked as strictly.
    ...[
      '2021-02-29T10:00:00.000Z',
      '1900-02-29T10:00:00.000Z',
      '2021-04-31T10:00:00.000Z',
      '2021-13-01T10:00:00.000Z',
      '2021-11-25T10:60:00.000Z',
    ].map((at, i) => [
      'at',
      at,
      `expected an ISO 8601 date-time like 2021-11-25T10:00:00Z, got "${at}": ${
        [
          'February 2021 has days 01 to 28',
          'February 1900 has days 01 to 28',
          'April 2021 has days 01 to 30',
          'month 13 does not exist (months go from 01 to 12)',
          'the time does not exist (hours go up to 23, minutes and seconds up to 59)',
        ][i]
      }`,
    ]),
    ['opens', '"9:30"', 'expected a time HH:MM or HH:MM:SS, got "9:30"'],
    ['opens', '"24:00"', 'expected a time HH:MM or HH:MM:SS, got "24:00"'],
    ['kind', 'c', 'expected one of a, b, got "c"'],
    ['tags', '[news, sport]', 'item 2: expected one of news, tech, life, got "sport"'],
    ['summary', '[a, b]', "expected text, got a list (declare the field with 'multiple: true' to allow several values)"],
    ['summary', '{ a: 1 }', 'expected text, got a mapping'],
  ])('%s: %s → %s', async (field, value, message) => {
    const r = await load({ 'p/things/_collection.yaml': SCHEMA, 'p/things/bad.yaml': `title: ok\n${field}: ${value}\n` });
    expect(r.issues).toEqual([{ file: 'p/things/bad.yaml', line: 2, field, message }]);
  });

  // .inf is found where the YAML is read, and said with advice for the field (yaml-errors.test.ts has the others).
  it('price: .inf → Infinity is no value JSON can hold', async () => {
    const r = await load({ 'p/things/_collection.yaml': SCHEMA, 'p/things/bad.yaml': 'title: ok\nprice: .inf\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/things/bad.yaml',
        line: 2,
        field: 'price',
        message:
          'reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: write a number below 1.8e308 (about the largest a number field holds)',
      },
    ]);
  });
});

describe('an escape that makes half a character', () => {
  // Served as `\ud800`, which strict JSON readers refuse (found from outside); a NUL escape is JSON's own.
  it('refuses a lone surrogate in YAML and JSON, naming file, line, field and where; a pair and \\u0000 pass', async () => {
    const HALF = 'which is no character and which strict JSON readers refuse: write the character itself, or both halves (\\uD83D\\uDE00)';
    const r = await load({
      'p/things/_collection.yaml': SCHEMA,
      'p/things/a.yaml': 'title: "nul \\u0000 then \\uD800"\n',
      'p/things/b.json': '{\n  "title": "ok",\n  "tags": ["news", "\\udc00"]\n}\n',
      'p/things/c.yaml': 'title: "pair \\uD83D\\uDE00, nul \\u0000"\n',
    });
    expect(r.issues).toEqual([
      { file: 'p/things/a.yaml', line: 1, field: 'title', message: `holds half of a surrogate pair (\\uD800) at character 12, ${HALF}` },
      {
        file: 'p/things/b.json',
        line: 3,
        field: 'tags',
        message: `item 2: holds half of a surrogate pair (\\uDC00) at character 1, ${HALF}`,
      },
    ]);
    expect(entry(r, 'things', 'c').values.title).toBe('pair \u{1F600}, nul \u0000');
  });
});

describe('a value a comment cuts short', () => {
  // Found from outside: `title: Episode #3 of the saga` is the title "Episode" to YAML, silently.
  it('warns with the line as it was meant, for a # glued to what follows', async () => {
    const r = await load({
      'p/shows/a.md': '---\ntitle: Episode #3 of the saga\ncode: C # a comment\n---\nBody\n',
      'p/shows/b.yaml': 'title: Plain\r\nnote: call me #maybe\r\ncount: 3 #approx\r\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      {
        file: 'p/shows/a.md',
        line: 2,
        field: 'title',
        message: `'#3 of the saga' after 'title: Episode' is a YAML comment, so the value is 'Episode'; quote the value (title: "Episode #3 of the saga") or put a space after '#' if it is a comment`,
      },
      {
        file: 'p/shows/b.yaml',
        line: 2,
        field: 'note',
        message: `'#maybe' after 'note: call me' is a YAML comment, so the value is 'call me'; quote the value (note: "call me #maybe") or put a space after '#' if it is a comment`,
      },
    ]);
    expect(entry(r, 'shows', 'a').values.title).toBe('Episode');
  });
});

describe('an unquoted colour', () => {
  // `accent: #ff8800` is the key `accent` and a comment: YAML gives null, which an optional field
  // would take silently.
  const SCHEMA = 'fields:\n  accent: color\n  title: text\n';
  const hint = (key: string, comment: string) =>
    `no value: '${comment}' after '${key}:' is a YAML comment; quote the value (${key}: ${JSON.stringify(comment)}) or remove the comment`;

  it('warns with file, line and field, in front matter and in a YAML entry', async () => {
    const r = await load({
      'p/themes/_collection.yaml': SCHEMA,
      'p/themes/dark.md': '---\ntitle: Dark\naccent: #ff8800\n---\nBody\n',
      'p/themes/light.yaml': 'title: Light\r\naccent:   #fff  \r\n',
      'p/themes/brand.yaml': 'title: Brand\naccent: #ff8800 # brand\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      // A comment after the colour stays a comment in the suggestion (a quoted "#ff8800 # brand" is no colour).
      {
        file: 'p/themes/brand.yaml',
        line: 2,
        field: 'accent',
        message: `no value: '#ff8800 # brand' after 'accent:' is a YAML comment; quote the value (accent: "#ff8800"  # brand) or remove the comment`,
      },
      { file: 'p/themes/dark.md', line: 3, field: 'accent', message: hint('accent', '#ff8800') },
      { file: 'p/themes/light.yaml', line: 2, field: 'accent', message: hint('accent', '#fff') },
    ]);
    expect(entry(r, 'themes', 'dark').values.accent).toBeNull();
  });

  it('quotes the whole value a # starts, up to a comment of its own: the hint is YAML that parses (found from outside: `title: "#3"  things to know`)', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: { type: text, required: true }\n  summary: text\n',
      'p/posts/a.md': '---\ntitle: #3 things to know\nsummary: #1 reason # why\n---\n',
    });
    expect(r.issues.map((i) => i.message)).toEqual([
      `required field is empty: '#3 things to know' after 'title:' is a YAML comment; quote the value (title: "#3 things to know") or remove the comment`,
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      `no value: '#1 reason # why' after 'summary:' is a YAML comment; quote the value (summary: "#1 reason"  # why) or remove the comment`,
    ]);
    // Each suggested line, pasted in, gives the value meant.
    const fixed = await load({
      'p/posts/_collection.yaml': 'fields:\n  title: { type: text, required: true }\n  summary: text\n',
      'p/posts/a.md': '---\ntitle: "#3 things to know"\nsummary: "#1 reason"  # why\n---\n',
    });
    expect(fixed.issues).toEqual([]);
    expect(entry(fixed, 'posts', 'a').values).toMatchObject({ title: '#3 things to know', summary: '#1 reason' });
  });

  it('says nothing for a quoted colour or a comment on its own line', async () => {
    const r = await load({
      'p/themes/_collection.yaml': SCHEMA,
      'p/themes/a.yaml': 'accent: "#ff8800"\n',
      'p/themes/b.yaml': "accent: '#ff8800' # orange\n",
      'p/themes/c.yaml': 'accent:\n# nothing yet\ntitle: C\n',
      'p/themes/d.json': '{"accent": null}',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(entry(r, 'themes', 'a').values.accent).toBe('#ff8800');
  });

  // Found from outside: without a schema, `color: #fff` became null in silence, though that is
  // where an author has no other feedback. A comment of words (`# to do`) stays a comment there.
  it('warns the same in a collection without a schema, for a comment that reads as a value', async () => {
    const r = await load({
      'p/authors/bo.yaml': 'name: Bo\ncolor: #fff\ntag: #news\nnote: # to do\n',
      'p/authors/al.md': '---\nname: Al\ncolor:\n  #000\n---\nBio\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([
      { file: 'p/authors/al.md', line: 3, field: 'color', message: hint('color', '#000') },
      { file: 'p/authors/bo.yaml', line: 2, field: 'color', message: hint('color', '#fff') },
      { file: 'p/authors/bo.yaml', line: 3, field: 'tag', message: hint('tag', '#news') },
    ]);
    expect(entry(r, 'authors', 'bo').values.color).toBeNull();
  });

  it('a colour on the line below the key: the same hint, as a warning or in the required error', async () => {
    const schema = 'fields:\n  accent: { type: color, required: true }\n  shade: color\n  title: text\n';
    const r = await load({
      'p/themes/_collection.yaml': schema,
      'p/themes/dark.md': '---\ntitle: Dark\naccent:\n  #ff8800\n---\nBody\n',
      'p/themes/light.yaml': 'title: Light\r\naccent: "#fff"\r\nshade:\r\n    #eee  # grey\r\n',
      'p/themes/same-line.yaml': 'title: S\naccent: #000\n',
    });
    expect(r.issues).toEqual([
      {
        file: 'p/themes/dark.md',
        line: 3,
        field: 'accent',
        message: `required field is empty: ${hint('accent', '#ff8800').replace('no value: ', '')}`,
      },
      {
        file: 'p/themes/same-line.yaml',
        line: 2,
        field: 'accent',
        message: `required field is empty: ${hint('accent', '#000').replace('no value: ', '')}`,
      },
    ]);
    expect(r.warnings).toEqual([
      {
        file: 'p/themes/light.yaml',
        line: 3,
        field: 'shade',
        message: `no value: '#eee  # grey' after 'shade:' is a YAML comment; quote the value (shade: "#eee"  # grey) or remove the comment`,
      },
    ]);
  });

  it('a colour in a flow list or mapping: the parse error says to quote it, on its line', async () => {
    const schema = 'fields:\n  colors: { type: color, multiple: true }\n  meta: json\n  title: text\n';
    const quote = (word: string, where: string, line: string) =>
      `broken YAML: '${word}' in a ${where} starts a YAML comment, which takes the rest of the line; quote the value (${line})`;
    const r = await load({
      'p/themes/_collection.yaml': schema,
      'p/themes/a.md': '---\ntitle: A\ncolors: [#fff, #000]\n---\nBody\n',
      'p/themes/b.yaml': 'title: B\ncolors: [ "#fff", #000 ]\nmeta: { a: 1 }\n',
      'p/themes/c.yaml': 'title: C\nmeta: {a: #fff}\n',
    });
    expect(r.warnings).toEqual([]);
    expect(r.issues).toEqual([
      { file: 'p/themes/a.md', line: 3, message: quote('#fff', 'list [ ]', 'colors: ["#fff", "#000"]') },
      { file: 'p/themes/b.yaml', line: 2, message: quote('#000', 'list [ ]', 'colors: [ "#fff", "#000" ]') },
      { file: 'p/themes/c.yaml', line: 2, message: quote('#fff', 'mapping { }', 'meta: {a: "#fff"}') },
    ]);
  });

  it('no hint for a comment of words below a key, quoted colours, comments in a flow list, or a comment of words without a schema', async () => {
    const schema = 'fields:\n  accent: color\n  colors: { type: color, multiple: true }\n  title: text\n';
    const r = await load({
      'p/themes/_collection.yaml': schema,
      'p/themes/a.yaml': 'accent:\n  # to be decided\ntitle: A\n',
      'p/themes/b.yaml': 'accent:\n  "#ff8800"\ncolors: ["#fff", \'#000\']\n',
      'p/themes/c.yaml': 'colors: [\n  "#fff", # white\n  "#000"\n]\n',
      'p/themes/d.md': '---\naccent:\n#ff8800\n---\n',
      'p/notes/e.yaml': 'accent:\n  # to be decided\nother: # later\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(entry(r, 'themes', 'b').values).toMatchObject({ accent: '#ff8800', colors: ['#fff', '#000'] });
    expect(entry(r, 'themes', 'c').values.colors).toEqual(['#fff', '#000']);
  });

  it('comes through a parse thread, which keeps the line map and not the text', () => {
    const root = writeTree({ 'p/themes/dark.md': '---\naccent: #ff8800\n---\n' });
    const job = { abs: join(root, 'p/themes/dark.md'), rel: 'p/themes/dark.md', kind: 'entry' } as const;
    const outcome = fromOutcome(structuredClone(runJob(job, true)));
    expect('entry' in outcome && outcome.entry.comments).toEqual(new Map([['accent', '#ff8800']]));
  });
});
