// Empty and falsy values as ElmapiCMS v3 reads them (lyove/ElmapiCMS
// elmapicms/app/Http/Controllers/Api/ContentController.php; PHP's truthiness, Laravel's TrimStrings,
// ConvertEmptyStringsToNull, Request::filled and the query builder), on a small elmapi3 tree through
// the edge handler: translation_locale=0 / empty / a list, an empty item in a list operator, a
// between with a bound missing, and a list where one value is compared.
import { beforeAll, describe, expect, it } from 'vitest';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { loadContent } from '../../src/node/content/index.js';
import { writeTree, type Tree } from '../content/helpers.js';

const ID = '66666666-7777-4888-9999-aaaaaaaaaaaa';
/** The token `tok`, with the drafts scope. */
const TOK_SHA = '1a7674eb4ee78df7e1ac439a93c3fa8e3c945784d4dec9fd8e3011738b2f1d62';

const TREE: Tree = {
  'p/project.yaml': `id: ${ID}\ndialect: elmapi3\npublic: true\ndefault_locale: en\nlocales: [en, fr]\ntokens:\n  - { name: t, sha256: ${TOK_SHA}, scopes: [read, drafts] }\n`,
  'p/books/_collection.yaml': 'fields:\n  title: text\n  price: number\n  tags: { type: enumeration, values: [x, y], multiple: true }\n',
  'p/books/a.yaml': 'title: A\nprice: 9\ntags: [x]\ncreated_at: 2026-01-01T00:00:00Z\n',
  'p/books/b.yaml': 'title: B\nprice: 19\ntags: [y]\ncreated_at: 2026-01-02T00:00:00Z\n',
  'p/books/c.yaml': 'title: C\ncreated_at: 2026-01-03T00:00:00Z\n',
  'p/books/d.yaml': 'draft: true\ntitle: D\nprice: 5\ncreated_at: 2026-01-04T00:00:00Z\n',
  'p/pages/_collection.yaml': 'fields:\n  title: text\n  rank: number\n',
  'p/pages/about.yaml': 'title: About\nrank: 2\n',
  'p/pages/about.fr.yaml': 'title: À propos\nrank: 2\n',
  'p/pages/team.yaml': 'draft: true\ntitle: Team\n',
  'p/pages/team.fr.yaml': 'draft: true\ntitle: Équipe\n',
};

interface Got {
  status: number;
  body: any;
  warning: string;
}

let get: (path: string, query: string, token?: string) => Promise<Got>;

beforeAll(async () => {
  const { model, issues } = await loadContent(writeTree(TREE));
  expect(issues).toEqual([]);
  const handle = createHandler(createSnapshot(model), { elmapi3: elmapi3Routes });
  get = async (path, query, token) => {
    const headers: Record<string, string> = { 'project-id': ID, accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await handle(new Request(`http://x/api/${path}?${query}`, { headers }));
    return { status: res.status, body: await res.json(), warning: res.headers.get('x-cqa-warning') ?? '' };
  };
});

const titles = (body: any) => body.map((e: any) => e.fields.title);

describe('elmapi3 translation_locale: Request::filled, then PHP truthiness (ContentController@show)', () => {
  let about: string;
  let team: string;
  beforeAll(async () => {
    about = (await get('pages', 'locale=en')).body[0].uuid;
    team = (await get('pages', 'state=draft&locale=en', 'tok')).body[0].uuid;
  });

  it("translation_locale=0 is filled but false: the entry itself, not a translation for locale '0' (found in upstream's source)", async () => {
    const r = await get(`pages/${about}`, 'translation_locale=0');
    expect(r.status).toBe(200);
    expect(r.body.uuid).toBe(about);
    expect(r.body.fields.title).toBe('About');
    expect(r.warning).toContain('translation_locale=0 is false to PHP');
    expect(r.warning).toContain('send a locale code (translation_locale=fr) or leave it out');
    // filled() drops the state filter: with state=draft the published entry is answered, in its draft form.
    const asDraft = await get(`pages/${about}`, 'state=draft&translation_locale=0', 'tok');
    expect(asDraft.status).toBe(200);
    expect(asDraft.body.fields).toEqual({ title: 'About', rank: '2.000000' });
    expect((await get(`pages/${about}`, 'state=draft', 'tok')).status).toBe(404);
    // A draft is still not named to a published-mode reader (cqa's promise; v3 shows it with fields: []).
    expect((await get(`pages/${team}`, 'translation_locale=0')).body).toEqual({ message: 'Content not found.' });
  });

  it('translation_locale= (empty, null after ConvertEmptyStringsToNull) is not filled: the entry itself, said', async () => {
    for (const query of ['translation_locale=', 'translation_locale', 'translation_locale=%20']) {
      const r = await get(`pages/${about}`, query);
      expect(r.status, query).toBe(200);
      expect(r.body.fields.title, query).toBe('About');
      expect(r.warning, query).toContain('translation_locale has no value: ElmapiCMS reads it as absent');
    }
  });

  it("translation_locale[]=fr: a list is filled and true, and Laravel's where() takes its first item", async () => {
    const r = await get(`pages/${about}`, 'translation_locale[]=fr');
    expect(r.status).toBe(200);
    expect(r.body.fields.title).toBe('À propos');
    expect(r.warning).toContain("translation_locale is a list (translation_locale[...]=...): ElmapiCMS looks for its first item, 'fr'");
    // Not found, v3 puts the array in its message: "Array to string conversion", a 500 (a 422 here).
    const missing = await get(`pages/${about}`, 'translation_locale[]=de');
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain('Array to string conversion');
  });
});

describe('elmapi3 where: an empty item in an in / not_in list', () => {
  it("in=A,,B: the '' item is compared as a value ElmapiCMS never stores: it adds nothing, said", async () => {
    const r = await get('books', 'where[title][in]=A,,B');
    expect(titles(r.body)).toEqual(['B', 'A']);
    expect(r.warning).toContain("where[title][in] has an empty item: ElmapiCMS compares it as the value ''");
    expect(r.warning).toContain('send where[title][in]=A,B');
  });

  it('in[]= (an empty array item is NULL): text_value IS NULL, true of every number, never of a text', async () => {
    const price = await get('books', 'where[price][in][]=');
    expect(titles(price.body)).toEqual(['B', 'A']);
    expect(price.warning).toContain('which Laravel compares as text_value IS NULL: true of every value of number field');
    const title = await get('books', 'where[title][in][]=A&where[title][in][]=');
    expect(titles(title.body)).toEqual(['A']);
    expect(title.warning).toContain("never true of text field 'title'");
    // An enumeration is a JSON list (text_value NULL): every entry with tags matches.
    expect(titles((await get('books', 'where[tags][in][]=x&where[tags][in][]=')).body)).toEqual(['B', 'A']);
  });

  it('not_in[]= on a core column: NOT IN (…, NULL) is never true in SQL, so no entry matches', async () => {
    const r = await get('books', 'where[uuid][not_in][]=x&where[uuid][not_in][]=');
    expect(r.body).toEqual([]);
    expect(r.warning).toContain('NOT IN (..., NULL) is never true in SQL: ElmapiCMS matches no entry');
    const blank = await get('books', 'where[uuid][not_in]=x,');
    expect(titles(blank.body)).toEqual(['C', 'B', 'A']);
    expect(blank.warning).toContain('where[uuid][not_in] has an empty item');
  });

  it('not_in=A, on a field: ElmapiCMS drops the empty item (trim, array_filter), said', async () => {
    const r = await get('books', 'where[title][not_in]=A,');
    expect(titles(r.body)).toEqual(['C', 'B']);
    expect(r.warning).toContain('ElmapiCMS drops the empty items of not_in on a field');
    // With no item left, whereDoesntHave keeps only its field condition: the entries without a value pass.
    for (const [query, want] of [
      ['where[price][not_in][]=', ['C']],
      ['where[title][not_in]=', []],
      ['where[price][not_in]=,', ['C']],
    ] as const) {
      const none = await get('books', query);
      expect(titles(none.body), query).toEqual(want);
      expect(none.warning, query).toContain('and with none left excludes every entry that has a value');
    }
  });
});

describe('elmapi3 where: between with a bound missing', () => {
  it("between=10, compares BETWEEN '10' AND '' as text: no entry; the warning names the bound and the open range", async () => {
    const r = await get('books', 'where[price][between]=10,');
    expect(r.body).toEqual([]);
    expect(r.warning).toContain(
      'where[price][between] has no upper bound (its second item is empty), and ElmapiCMS has no open-ended range',
    );
    expect(r.warning).toContain("it compares text_value BETWEEN '10' AND '' on number field 'price'");
    expect(r.warning).toContain('for an open range send where[price][gte]=10');
    const lower = await get('books', 'where[price][between]=,10');
    expect(lower.body).toEqual([]);
    expect(lower.warning).toContain('where[price][between] has no lower bound');
    expect(lower.warning).toContain('for an open range send where[price][lte]=10');
    // On text every value is above '': ',B' reads as lte B.
    const text = await get('books', 'where[title][between]=,B');
    expect(titles(text.body)).toEqual(['B', 'A']);
    expect(text.warning).toContain("it compares title BETWEEN '' AND 'B', which comes to where[title][lte]=B");
  });

  it('between[]=10&between[]= is two bounds, the second NULL (found in upstream: count($vals) >= 2): no entry, not "has a value"', async () => {
    const r = await get('books', 'where[price][between][]=10&where[price][between][]=');
    expect(r.body).toEqual([]);
    expect(r.warning).toContain('where[price][between] has no upper bound');
    expect(r.warning).not.toContain('needs two values');
    // NOT BETWEEN 'B' AND NULL: only the values below 'B' are surely outside.
    expect(titles((await get('books', 'where[title][not_between][]=B&where[title][not_between][]=')).body)).toEqual(['A']);
    const core = await get('books', 'where[created_at][between][]=2026-01-02%2000:00:00&where[created_at][between][]=');
    expect(core.body).toEqual([]);
    expect(core.warning).toContain('where[created_at][between] has no upper bound');
  });
});

describe('elmapi3 where: a list where one value is compared', () => {
  it("a core column: Laravel's where() binds the list's first item", async () => {
    const r = await get('books', 'where[created_at][gte][]=2026-01-02%2000:00:00');
    expect(titles(r.body)).toEqual(['C', 'B']);
    expect(r.warning).toContain(
      'where[created_at][gte] is a list (where[created_at][gte][...]=...) where ElmapiCMS compares one value: Laravel takes its first item',
    );
    // Its first item empty (NULL): created_at >= NULL is never true, not whereNull.
    const empty = await get('books', 'where[created_at][gte][]=');
    expect(empty.body).toEqual([]);
    expect(empty.warning).toContain('created_at compared with NULL is never true: no entry matches');
  });

  it('a field: the list reaches isset($booleanMap[…]) (a TypeError) or "%…%" (Array to string conversion), a 500: a 422 here', async () => {
    for (const query of [
      'where[title][eq][]=A',
      'where[title][like][a]=x',
      'where[price][gt][]=1',
      'where[title][not][]=A&where[title][not][]=B',
    ]) {
      const r = await get('books', query);
      expect(r.status, query).toBe(422);
      expect(JSON.stringify(r.body), query).toContain('a 500 in ElmapiCMS');
    }
    // One item under not: where('text_value', [A]) binds A, and json_value contains [A]: as not=A.
    const not = await get('books', 'where[title][not][]=A');
    expect(titles(not.body)).toEqual(['C', 'B']);
  });
});
