// Field names that are also names of Object.prototype (toString, valueOf, hasOwnProperty, …): every
// one of them loads like any other name, with a schema or without, as a plain, relation, media or
// enumeration field; only __proto__ and constructor are refused, with a message saying why.
import { describe, expect, it } from 'vitest';
import { collection, entry, load, png } from './helpers.js';

const ALL = Object.getOwnPropertyNames(Object.prototype);
const REFUSED = ['__proto__', 'constructor'];
const NAMES = ALL.filter((n) => !REFUSED.includes(n));

// Every name is a key of each entry that has it, and absent from the one that has not.
const schema = (type: string) => `fields:\n${NAMES.map((n) => `  ${n}: ${type}`).join('\n')}\n`;
const withAll = (value: string) => `${NAMES.map((n) => `${n}: ${value}`).join('\n')}\n`;

describe('field names of Object.prototype', () => {
  it('enumerates them all (the list this file tests)', () => {
    expect(ALL).toEqual(
      expect.arrayContaining([
        ...REFUSED,
        'toString',
        'valueOf',
        'hasOwnProperty',
        'isPrototypeOf',
        '__defineGetter__',
        '__lookupSetter__',
      ]),
    );
    expect(NAMES.length).toBe(ALL.length - 2);
  });

  it.each([
    ['text', "'v'", 'v'],
    ['number', '3', 3],
    ['{ type: enumeration, values: [x, y] }', 'y', 'y'],
    ['{ type: relation, collection: authors }', 'ann', 'ann'],
    ['{ type: relation, collection: authors, multiple: true }', '[ann]', ['ann']],
    ['media', 'a.png', 'a.png'],
    ['{ type: media, multiple: true }', '[a.png]', ['a.png']],
  ])('as declared %s fields: loads, and an entry without them has none of them', async (type, written, stored) => {
    const r = await load({
      'p/authors/ann.yaml': 'name: Ann\n',
      'p/media/a.png': png(1, 1),
      'p/posts/_collection.yaml': schema(type),
      'p/posts/full.yaml': withAll(written),
      'p/posts/none.yaml': 'id: none\n',
    });
    expect(r.issues).toEqual([]);
    expect(collection(r, 'posts').fields.map((f) => f.name)).toEqual(NAMES);
    const full = entry(r, 'posts', 'full').values;
    const none = entry(r, 'posts', 'none').values;
    for (const n of NAMES) {
      expect(full[n], n).toEqual(stored);
      expect(Object.hasOwn(none, n), n).toBe(false);
    }
  });

  it('without a schema: inferred like any other key', async () => {
    const r = await load({ 'p/notes/a.yaml': withAll('1'), 'p/notes/b.yaml': 'toString: 2\n' });
    expect(r.issues).toEqual([]);
    expect(collection(r, 'notes').fields.map((f) => [f.name, f.type])).toEqual(NAMES.map((n) => [n, 'number']));
    expect(entry(r, 'notes', 'b').values).toEqual({ toString: 2 });
  });

  it('without a schema, text in one file and absent from another: no warning of "a function here"', async () => {
    // Inference compared each file's value of the name, read through Object.prototype where the file lacked it (found from outside).
    const r = await load({ 'p/notes/a.yaml': withAll("'v'"), 'p/notes/b.yaml': 'title: b\n' });
    expect(r.issues).toEqual([]);
    expect(r.warnings.map((w) => w.message).filter((m) => m.includes('function'))).toEqual([]);
    expect(collection(r, 'notes').fields.find((f) => f.name === 'toString')?.type).toBe('text');
  });

  it('a required one that an entry lacks is reported as missing', async () => {
    const r = await load({
      'p/posts/_collection.yaml': `fields:\n${NAMES.map((n) => `  ${n}: { type: text, required: true }`).join('\n')}\n`,
      'p/posts/a.yaml': 'toString: x\n',
    });
    expect(r.issues).toEqual(
      NAMES.filter((n) => n !== 'toString').map((n) => ({
        file: 'p/posts/a.yaml',
        line: 1,
        field: n,
        message: 'required field is missing',
      })),
    );
  });

  it('can be the body field', async () => {
    const r = await load({
      'p/posts/_collection.yaml': 'body_field: valueOf\n',
      'p/posts/a.md': '---\ntitle: A\n---\nHello\n',
      'p/posts/b.yaml': 'title: B\n',
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'posts', 'a').values).toEqual({ title: 'A', valueOf: 'Hello' });
    expect(Object.hasOwn(entry(r, 'posts', 'b').values, 'valueOf')).toBe(false);
  });

  it.each(REFUSED)('%s is refused with a message naming the file, line and field, schema or not', async (name) => {
    const declared = await load({
      'p/posts/_collection.yaml': `fields:\n  title: text\n  ${name}: text\n`,
      'p/posts/a.yaml': 'title: A\n',
    });
    expect(declared.issues).toEqual([
      {
        file: 'p/posts/_collection.yaml',
        line: 3,
        field: name,
        message: expect.stringMatching(new RegExp(`^'${name}' cannot be a field name: .*rename the field$`)),
      },
    ]);
    const inferred = await load({ 'p/posts/a.yaml': `title: A\n${name}: { a: 1 }\n` });
    expect(inferred.issues).toEqual([
      {
        file: 'p/posts/a.yaml',
        line: 2,
        field: name,
        message: expect.stringMatching(new RegExp(`^'${name}' cannot be a field name: .*rename the field$`)),
      },
    ]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual([...ALL].sort());
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });
});
