// Messages that named the place but not the fix (found from outside, a new user's first tree): each
// now says what to write, with the did-you-mean of src/core/suggest.ts where one name is close.
import { describe, expect, it } from 'vitest';
import { load } from './helpers.js';

const V3 = '3F6C1A52-8B0E-4D7A-9C41-2E5F7B8A9D10';

/** Each issue as `field: message`, errors and warnings apart. */
async function said(tree: Record<string, string>) {
  const r = await load(tree);
  const line = (i: { field?: string | undefined; message: string }) => `${i.field ?? ''}: ${i.message}`;
  return { errors: r.issues.map(line), warnings: r.warnings.map(line) };
}

describe('content messages say the fix', () => {
  it('yes where true or false is taken, in every settings file and key: why it is text (found from outside: public: yes)', async () => {
    const { errors } = await said({
      'p/project.yaml': 'public: yes\n',
      'p/posts/_collection.yaml': 'translations: on\nfields:\n  title: { type: text, required: yes }\n',
      'p/posts/a.yaml': 'draft: no\ntitle: A\n',
    });
    expect(errors).toEqual([
      'translations: translations must be true or false (true: each entry names its locale variants, hello.de for hello), got "on" (YAML 1.2 reads yes/no/on/off as text)',
      'title: required must be true or false, got "yes" (YAML 1.2 reads yes/no/on/off as text)',
      'draft: expected true or false, got "no" (YAML 1.2 reads yes/no/on/off as text)',
      'public: expected true or false, got "yes" (YAML 1.2 reads yes/no/on/off as text)',
    ]);
  });

  it('fields: written as a list of named items (Decap CMS, Tina, Strapi): the mapping to write (found from outside)', async () => {
    const list = await said({
      'p/project.yaml': 'public: true\n',
      'p/authors/_collection.yaml':
        'fields:\n  - name: name\n    type: text\n    required: true\n  - { name: email, type: email }\n  - name: role\n    type: enumeration\n    values: [editor, guest]\n',
    });
    expect(list.errors).toEqual([
      'fields: expected a mapping of field names to types, got a list; write each field as a key of fields:, its name: becoming the key (name: { type: text, required: true }, then email: email, …)',
    ]);
    const bare = await said({ 'p/project.yaml': 'public: true\n', 'p/authors/_collection.yaml': 'fields: [name, email]\n' });
    expect(bare.errors).toEqual([
      'fields: expected a mapping of field names to types, got a list; write one key per field: fields: { title: text, tags: { type: text, multiple: true } }',
    ]);
  });

  it('an enumeration value one typo away from a value: did you mean it', async () => {
    const { errors } = await said({
      'p/posts/_collection.yaml':
        'fields:\n  tags: { type: enumeration, values: [news, travel, food], multiple: true }\n  kind: { type: enumeration, values: [news, food] }\n',
      'p/posts/a.yaml': 'tags: [travel, fod]\nkind: travle\n',
    });
    expect(errors).toEqual([
      `tags: item 2: expected one of news, travel, food, got "fod"; did you mean 'food'?`,
      'kind: expected one of news, food, got "travle"',
    ]);
  });

  it('a comma list written as one value of any multiple field: the list to write, in its error or as a warning', async () => {
    const { errors, warnings } = await said({
      'p/writers/ann.yaml': 'name: Ann\n',
      'p/writers/bob.yaml': 'name: Bob\n',
      'p/posts/_collection.yaml': [
        'fields:',
        '  tags: { type: enumeration, values: [news, travel, food], multiple: true }',
        '  scores: { type: number, multiple: true }',
        '  days: { type: date, multiple: true }',
        '  by: { type: relation, collection: writers, multiple: true }',
        '  notes: { type: longtext, multiple: true }',
        '',
      ].join('\n'),
      'p/posts/a.yaml': 'tags: news, travel\nscores: 1, 2\ndays: 2024-01-01, 2024-02-01\nby: ann, bob\nnotes: one, two\n',
    });
    const list = (items: string) => `; to list several, write [${items}] (or one '- item' per line)`;
    expect(errors).toEqual([
      `tags: expected one of news, travel, food, got "news, travel"${list('news, travel')}`,
      `scores: expected a number, got "1, 2"${list('1, 2')}`,
      `days: expected a date YYYY-MM-DD, got "2024-01-01, 2024-02-01"${list('2024-01-01, 2024-02-01')}`,
      "by: no entry 'ann, bob' in collection 'writers'",
    ]);
    expect(warnings).toEqual([
      `by: 'ann, bob' is one item, commas and all: ${list('ann, bob').slice(2)}; to keep one item, put it in a list: ["…"]`,
      `notes: 'one, two' is one item, commas and all: ${list('one, two').slice(2)}; to keep one item, put it in a list: ["…"]`,
    ]);
  });

  it('a number with a decimal comma: written with a point (not a thousands separator, which is no decimal)', async () => {
    const { errors } = await said({
      'p/posts/_collection.yaml': 'fields:\n  rating: number\n  price: number\n  pages: number\n',
      'p/posts/a.yaml': 'rating: 4,5\nprice: -0,25\npages: 1,463\n',
    });
    expect(errors).toEqual([
      'rating: expected a number, got "4,5": write decimals with a point: 4.5',
      'price: expected a number, got "-0,25": write decimals with a point: -0.25',
      'pages: expected a number, got "1,463"',
    ]);
  });

  it('a relation to a collection one typo away from one that exists: did you mean it', async () => {
    const { errors } = await said({
      'p/writers/ann.yaml': 'name: Ann\n',
      'p/posts/_collection.yaml': 'fields:\n  author: { type: relation, collection: writer }\n',
    });
    expect(errors).toEqual([
      "author: relation to collection 'writer', which does not exist; did you mean 'writers'? (collections: posts, writers)",
    ]);
  });

  it("a type named as other tools name it (string, int, bool, object, array): cqa's type, or multiple: true for a list", async () => {
    const { errors } = await said({
      'p/posts/_collection.yaml':
        'fields:\n  a: string\n  b: { type: Integer }\n  c: float\n  d: bool\n  e: object\n  f: image\n  g: array\n',
    });
    const types =
      ' (types are text, longtext, markdown, richtext, slug, email, color, number, boolean, date, datetime, time, enumeration, media, relation, json, password, group)';
    expect(errors).toEqual([
      `a: unknown type "string"; did you mean 'text'?${types}`,
      `b: unknown type "Integer"; did you mean 'number'?${types}`,
      `c: unknown type "float"; did you mean 'number'?${types}`,
      `d: unknown type "bool"; did you mean 'boolean'?${types}`,
      `e: unknown type "object"; did you mean 'group'?${types}`,
      `f: unknown type "image"; did you mean 'media'?${types}`,
      `g: unknown type "array"; a list is the type of its items with multiple: true, like { type: text, multiple: true }${types}`,
    ]);
  });

  it('an elmapi3 uuid written in capitals: the lower-case value to write', async () => {
    const { errors } = await said({
      'p/project.yaml': `id: ${V3}\nname: S\ndialect: elmapi3\nlocales: [en]\npublic: true\n`,
    });
    expect(errors).toEqual([expect.stringMatching(new RegExp(`got '${V3}'; write it in lower case: id: ${V3.toLowerCase()}$`))]);
    const inside = await said({
      'p/project.yaml': `id: ${V3.toLowerCase()}\nname: S\ndialect: elmapi3\nlocales: [en]\npublic: true\n`,
      'p/posts/a.yaml': `id: ${V3}\ntitle: A\n`,
      'p/media/a.txt': 'a',
      'p/media/_media.yaml': `a.txt: { uuid: ${V3} }\n`,
    });
    expect(inside.errors).toEqual([
      expect.stringMatching(new RegExp(`^a.txt: uuid: expected a uuid.*; write it in lower case: uuid: ${V3.toLowerCase()}$`)),
      expect.stringMatching(new RegExp(`^id: .*; write it in lower case: id: ${V3.toLowerCase()} \\(or leave 'id:' out`)),
    ]);
  });
});
