// A number written in a form that does not print back as written (found from outside: `title:
// 01234` was served as "1234", `id: 007` made the id '7'), said where the field keeps text.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContentLoader } from '../../src/node/content/load.js';
import { entry, load, writeTree } from './helpers.js';

const SCHEMA = `fields:
  title: text
  tags: { type: text, multiple: true }
  zip: text
  price: number
`;

describe('numbers written in another form', () => {
  it('warns where a text field gets one (scalar, flow list, block list, YAML and JSON), with the line and the quoted form', async () => {
    const r = await load({
      'p/posts/_collection.yaml': SCHEMA,
      'p/posts/a.md': '---\ntitle: 01234\ntags: [1.10, 0x1F, ok, 1e3]\nzip: 007 # the code\nprice: 1.10\n---\n',
      'p/posts/b.yaml': 'title: "01234"\ntags:\n  - 2.50\n  - +5\n  - x\nzip: 12345\nprice: 007\n',
      'p/posts/c.json': '{\n  "title": 1.10,\n  "zip": 42\n}\n',
    });
    expect(r.issues).toEqual([]);
    const warning = (file: string, line: number, field: string, written: string, read: string, quoted: string) => ({
      file,
      line,
      field,
      message: `'${written}' reads as the number ${read}, so the text served is '${read}': quote it to keep it as written (${quoted})`,
    });
    expect(r.warnings).toEqual([
      warning('p/posts/a.md', 2, 'title', '01234', '1234', 'title: "01234"'),
      warning('p/posts/a.md', 3, 'tags', '1.10', '1.1', '"1.10"'),
      warning('p/posts/a.md', 3, 'tags', '0x1F', '31', '"0x1F"'),
      warning('p/posts/a.md', 3, 'tags', '1e3', '1000', '"1e3"'),
      warning('p/posts/a.md', 4, 'zip', '007', '7', 'zip: "007"'),
      warning('p/posts/b.yaml', 3, 'tags', '2.50', '2.5', '"2.50"'),
      warning('p/posts/b.yaml', 4, 'tags', '+5', '5', '"+5"'),
      warning('p/posts/c.json', 2, 'title', '1.10', '1.1', 'title: "1.10"'),
    ]);
    // Served as read (a warning, not a change); quoted values and number fields are as written.
    expect(entry(r, 'posts', 'a').values).toMatchObject({ title: '1234', zip: '7', price: 1.1 });
    expect(entry(r, 'posts', 'b').values).toMatchObject({ title: '01234', zip: '12345', price: 7 });
  });

  // Found from outside: JSON written on one line, and JSON's long numbers, passed unsaid.
  it('finds them in JSON on any layout, and refuses a JSON number that loses digits or is beyond a double', async () => {
    const r = await load({
      'p/posts/_collection.yaml': `${SCHEMA}  count: number\n  data: json\n`,
      'p/posts/d.json': '{"title": "d", "zip": 1.10, "tags": [1e3, "x", -0], "price": 1.50, "data": {"v": 1.10}}',
      'p/posts/e.json': '{"title": "e", "count": 12345678901234567890, "data": [1, 12345678901234567890]}',
      'p/posts/f.json': '{\n  "title": "f",\n  "price": 1e400\n}\n',
      'p/posts/g.json': '{"title": "g", "price": 12345678901234567, "count": 1.5e300, "zip": "01067"}',
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.field}: ${i.message}`)).toEqual([
      'p/posts/e.json:1: count: a whole number beyond 9,007,199,254,740,991 loses its last digits as a number: write it with fewer digits (a number field keeps whole numbers up to 9,007,199,254,740,991 exactly), or make the field text and quote the value',
      'p/posts/e.json:1: data: item 2: a whole number beyond 9,007,199,254,740,991 loses its last digits as a number: quote it to keep it as text',
      'p/posts/f.json:3: price: reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold: write a number below 1.8e308 (about the largest a number field holds)',
      'p/posts/g.json:1: price: a whole number beyond 9,007,199,254,740,991 loses its last digits as a number: write it with fewer digits (a number field keeps whole numbers up to 9,007,199,254,740,991 exactly), or make the field text and quote the value',
    ]);
    expect(r.warnings.map((w) => `${w.file}:${w.line}: ${w.field}: ${w.message}`)).toEqual([
      `p/posts/d.json:1: zip: '1.10' reads as the number 1.1, so the text served is '1.1': quote it to keep it as written (zip: "1.10")`,
      `p/posts/d.json:1: tags: '1e3' reads as the number 1000, so the text served is '1000': quote it to keep it as written ("1e3")`,
      `p/posts/d.json:1: tags: '-0' reads as the number 0, so the text served is '0': quote it to keep it as written ("-0")`,
    ]);
  });

  // Found from outside: without _collection.yaml, `zip: 01067` was served as 1067 and `phone:
  // +4930123456` as 4930123456, and one file's `active: yes` made every other `true` the text "true".
  it('in a collection without a schema: warns where a guessed number was written as a code, and where a guessed text field gets other kinds', async () => {
    const r = await load({
      'p/stores/a.yaml': 'zip: 01067\nphone: +4930123456\nversion: 1.10\nsku: 0x1F\ncode: 1e3\nprice: 10.50\n',
      'p/stores/b.yaml': 'zip: 4109\nphone: 30123456\nversion: 2\nsku: 7\ncode: 2\nprice: 3\n',
      'p/flags/a.yaml': 'active: yes\nlabel: x\n',
      'p/flags/b.yaml': 'active: true\nlabel: [y, 2]\n',
      'p/flags/c.yaml': 'active: false\nlabel: z\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.warnings.map((w) => `${w.file}:${w.line}: ${w.field}: ${w.message}`)).toEqual([
      "p/flags/b.yaml:1: active: 'active' is guessed to be text (this collection has no p/flags/_collection.yaml), since its files give it values of different kinds: text in p/flags/a.yaml, a boolean here, which is served as text. Write every file's value the same way, or declare the field's type in p/flags/_collection.yaml",
      "p/flags/b.yaml:2: label: 'label' is guessed to be text (this collection has no p/flags/_collection.yaml), since its files give it values of different kinds: text in p/flags/a.yaml, a number here, which is served as text. Write every file's value the same way, or declare the field's type in p/flags/_collection.yaml",
      `p/stores/a.yaml:1: zip: '01067' reads as the number 1067, and 'zip' is guessed to be a number (this collection has no p/stores/_collection.yaml), so 1067 is served: quote it to keep it as written (zip: "01067"), or declare the field's type`,
      `p/stores/a.yaml:2: phone: '+4930123456' reads as the number 4930123456, and 'phone' is guessed to be a number (this collection has no p/stores/_collection.yaml), so 4930123456 is served: quote it to keep it as written (phone: "+4930123456"), or declare the field's type`,
      `p/stores/a.yaml:4: sku: '0x1F' reads as the number 31, and 'sku' is guessed to be a number (this collection has no p/stores/_collection.yaml), so 31 is served: quote it to keep it as written (sku: "0x1F"), or declare the field's type`,
    ]);
  });

  it('says a guessed text field of mixed kinds again on a reload that changed another collection', async () => {
    const root = writeTree({
      'p/project.yaml': 'name: P\npublic: true\n',
      'p/flags/a.yaml': 'active: yes\n',
      'p/flags/b.yaml': 'active: true\n',
      'p/notes/n.yaml': 'title: one\n',
    });
    const loader = createContentLoader(root);
    const said = (r: { warnings: readonly { file: string; field?: string | undefined }[] }) =>
      r.warnings.map((w) => `${w.file} ${w.field}`);
    expect(said(await loader.load())).toEqual(['p/flags/b.yaml active']);
    writeFileSync(join(root, 'p/notes/n.yaml'), 'title: two\n');
    expect(said(await loader.load([join(root, 'p/notes/n.yaml')]))).toEqual(['p/flags/b.yaml active']);
  });

  it("refuses an id that would change ('007' would be the id '7'); in an elmapi project, where ids are numbers, warns", async () => {
    const r = await load({
      'p/posts/a.md': '---\nid: 007\n---\n',
      'p/posts/b.md': '---\nid: 1.50\n---\n',
      'p/posts/c.md': '---\nid: 42\n---\n',
    });
    expect(r.issues).toEqual([
      { file: 'p/posts/a.md', line: 2, field: 'id', message: `'007' reads as the number 7, so the id would be '7': quote it (id: "007")` },
      {
        file: 'p/posts/b.md',
        line: 2,
        field: 'id',
        message: `'1.50' reads as the number 1.5, so the id would be '1.5': quote it (id: "1.50")`,
      },
    ]);
    const elmapi = await load({ 'p/project.yaml': 'dialect: elmapi\npublic: true\n', 'p/posts/a.md': '---\nid: 007\n---\n' });
    expect(elmapi.issues).toEqual([]);
    expect(elmapi.warnings).toEqual([{ file: 'p/posts/a.md', line: 2, field: 'id', message: "'007' is the id 7: write id: 7" }]);
  });
});
