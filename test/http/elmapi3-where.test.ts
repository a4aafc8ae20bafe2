// How ElmapiCMS v3 reads `where` (ContentController@index, read in lyove/ElmapiCMS
// elmapicms/app/Http/Controllers/Api/ContentController.php), on a small elmapi3 tree through the
// edge handler: the cases an outside tester found answered otherwise than the upstream code does.
import { beforeAll, describe, expect, it } from 'vitest';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { loadContent } from '../../src/node/content/index.js';
import { writeTree, type Tree } from '../content/helpers.js';

const ID = '55555555-6666-4777-8888-999999999999';

const TREE: Tree = {
  'p/project.yaml': `id: ${ID}\ndialect: elmapi3\npublic: true\nlocales: [en, fr]\n`,
  'p/authors/_collection.yaml': 'fields:\n  name: text\n',
  'p/authors/ann.yaml': 'name: Ann\n',
  'p/authors/bob.yaml': 'name: Bob\n',
  'p/books/_collection.yaml': [
    'fields:',
    '  title: text',
    '  seo: { type: group, fields: { title: text, keywords: text } }',
    '  credits:',
    '    type: group',
    '    repeatable: true',
    '    fields: { role: text, person: { type: relation, collection: authors } }',
    '',
  ].join('\n'),
  'p/books/a.yaml':
    'title: A\nseo: { title: Alpha, keywords: k1 }\ncredits: [{ role: writer, person: ann }]\ncreated_at: 2026-01-01T00:00:00Z\n',
  'p/books/b.yaml':
    'title: B\nseo: { keywords: k2 }\ncredits: [{ role: editor, person: ann }, { role: writer, person: bob }]\ncreated_at: 2026-01-02T00:00:00Z\n',
  'p/books/c.yaml': 'title: Alpha\ncreated_at: 2026-01-03T00:00:00Z\n',
  'p/books/d.yaml': 'title: D\ncredits: [{ role: cover }]\ncreated_at: 2026-01-04T00:00:00Z\n',
};

let get: (query: string) => Promise<{ status: number; body: any; warning: string }>;

beforeAll(async () => {
  const { model, issues } = await loadContent(writeTree(TREE));
  expect(issues).toEqual([]);
  const handle = createHandler(createSnapshot(model), { elmapi3: elmapi3Routes });
  get = async (query) => {
    const res = await handle(new Request(`http://x/api/books?${query}`, { headers: { 'project-id': ID, accept: 'application/json' } }));
    return { status: res.status, body: await res.json(), warning: res.headers.get('x-cqa-warning') ?? '' };
  };
});

const titles = (body: any) => body.map((e: any) => e.fields.title);

describe("elmapi3 where: a group's children are filtered by their own names", () => {
  // v3: whereHas('fieldValues', whereHas('field', name = …)); a child's value rows belong to the entry
  // (ContentFieldValue with group_instance_id), so where[role] reads every instance of `credits`.
  it('a text child, in every instance of a repeatable group', async () => {
    expect(titles((await get('where[role]=writer')).body)).toEqual(['B', 'A']);
    expect(titles((await get('where[role]=editor')).body)).toEqual(['B']);
    expect(titles((await get('where[role][not]=editor')).body)).toEqual(['D', 'Alpha', 'A']);
    expect(titles((await get('where[keywords][like]=K')).body)).toEqual(['B', 'A']);
    expect((await get('where[role]=writer')).warning).toBe('');
  });

  it('a relation child: relation filters and null / not_null', async () => {
    expect(titles((await get('where[person][name]=Bob')).body)).toEqual(['B']);
    expect(titles((await get('where[person][name]=Ann')).body)).toEqual(['B', 'A']);
    expect(titles((await get('where[person][not_null]')).body)).toEqual(['B', 'A']);
    // null: no row of that name, or a row that links to nothing (D's instance has no person).
    expect(titles((await get('where[person][null]')).body)).toEqual(['D', 'Alpha']);
  });

  it('a name both a field and a child have reads both, and says so', async () => {
    const r = await get('where[title]=Alpha');
    expect(titles(r.body)).toEqual(['Alpha', 'A']);
    expect(r.warning).toContain("reads field 'title' and the child 'title' of group 'seo' (every instance)");
  });
});

describe('elmapi3 where: the or block and numeric groups, one level, as ContentController@index reads them', () => {
  it('where[or] and where[N] at the top; where[or][N] groups ORed member by member', async () => {
    expect(titles((await get('where[or][0][title]=A&where[or][1][title]=D')).body)).toEqual(['D', 'A']);
    expect(titles((await get('where[0][title][like]=a&where[1][title][not]=A')).body)).toEqual(['Alpha']);
  });

  it('an or block or a group inside a group is a field name: it matches nothing, and says so (found from outside: cqa ORed it)', async () => {
    for (const query of ['where[0][or][0][title]=A', 'where[0][or][title]=A', 'where[or][0][or][title]=A', 'where[0][1][title]=A']) {
      const r = await get(query);
      expect(r.body, query).toEqual([]);
      expect(r.warning, query).toContain('ElmapiCMS reads where[or] and numeric groups only at the top of where');
    }
    // The key is `or` exactly: where[OR][…] is a field named OR.
    const upper = await get('where[OR][0][title]=A');
    expect(upper.body).toEqual([]);
    expect(upper.warning).toContain("the key is 'or', in lower case");
  });

  it('a value where v3 runs foreach over a group is its 500: a 422 naming the form', async () => {
    for (const [query, param] of [
      ['where[0]=A', 'where[0]'],
      ['where[or]=A', 'where[or]'],
      ['where[or][0]=A', 'where[or][0]'],
    ]) {
      const r = await get(query as string);
      expect(r.status, query).toBe(422);
      expect(r.body.errors[param as string]?.[0], query).toContain('a value there is a 500 in ElmapiCMS');
    }
  });
});

describe('elmapi3 where: list values are split at commas without trimming, as ContentController does', () => {
  // explode(',', $val) for in / between (fields and core columns) and not_in on a core column;
  // only not_in on a field trims (array_map('trim')). Found from outside: cqa trimmed every list.
  it('a space after a comma stays part of the value, and the warning says to leave it out', async () => {
    const spaced = await get('where[role][in]=editor, writer');
    expect(titles(spaced.body)).toEqual(['B']);
    expect(spaced.warning).toContain("ElmapiCMS splits where[role][in] at commas without trimming: ' writer' keeps its spaces");
    expect(spaced.warning).toContain('send editor,writer');
    expect(titles((await get('where[role][in]=editor,writer')).body)).toEqual(['B', 'A']);
    expect(titles((await get('where[title][in]=A,%20B')).body)).toEqual(['A']);
    expect(titles((await get('where[uuid][not_in]=x,%20y')).body)).toEqual(['D', 'Alpha', 'B', 'A']);
    expect(titles((await get('where[title][between]=A,%20C')).body)).toEqual([]);
    // not_in on a field trims: both values leave their entries out, and nothing is said.
    const notIn = await get('where[title][not_in]=A,%20B');
    expect(titles(notIn.body)).toEqual(['D', 'Alpha']);
    expect(notIn.warning).not.toContain('without trimming');
    // PHP arrays: each item is trimmed by TrimStrings.
    expect(titles((await get('where[title][in][]=A&where[title][in][]=%20B')).body)).toEqual(['B', 'A']);
  });
});

describe('elmapi3 where: a condition without a value (how the SDK sends null) is read as Laravel reads null', () => {
  // '' → null (ConvertEmptyStringsToNull); where('text_value', '=', null) is whereNull: true of every
  // value row that is not text. Found from outside: cqa matched no entry for every type.
  it("eq keeps the entries with a value that is not text, not drops them; 'not' drops them; text fields match nothing", async () => {
    const person = await get('where[person]');
    expect(titles(person.body)).toEqual(['B', 'A']);
    expect(person.warning).toContain('which ElmapiCMS compares as text_value IS NULL: true of every value of relation field');
    expect(person.warning).toContain('for entries with a value send where[person][not_null]');
    expect(titles((await get('where[person][not]=')).body)).toEqual(['D', 'Alpha']);
    const title = await get('where[title]=');
    expect(title.body).toEqual([]);
    expect(title.warning).toContain("never true of text field 'title'");
  });

  it('a core column: eq null is whereNull; lt/gt with null is a 500 in v3, a 422 here', async () => {
    const r = await get('where[published_at]');
    expect(r.body).toEqual([]);
    expect(r.warning).toContain("reads as whereNull('published_at')");
    expect(titles((await get('where[published_at][not]')).body)).toEqual(['D', 'Alpha', 'B', 'A']);
    for (const query of ['where[published_at][lt]=', 'where[title][gt]=']) {
      const bad = await get(query);
      expect(bad.status, query).toBe(422);
      expect(JSON.stringify(bad.body), query).toContain('Illegal operator and value combination');
    }
  });
});
