// How ElmapiCMS v3 orders and pages a list (ContentController@index, Laravel's paginator), on a
// small elmapi3 tree through the edge handler: the cases an outside tester found.
import { beforeAll, describe, expect, it } from 'vitest';
import { elmapi3Routes } from '../../src/core/http/elmapi3/handler.js';
import { createHandler } from '../../src/core/http/fetch.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { loadContent } from '../../src/node/content/index.js';
import { png, writeTree, type Tree } from '../content/helpers.js';

const ID = '44444444-5555-4666-8777-888888888888';
/** The token `tok` (files need one, even on a public project). */
const TOK_SHA = '1a7674eb4ee78df7e1ac439a93c3fa8e3c945784d4dec9fd8e3011738b2f1d62';

/** Books A … G, created one day apart (F and G at the same time: their DB ids follow the file names). */
const BOOKS: Tree = {
  'p/project.yaml': `id: ${ID}\ndialect: elmapi3\npublic: true\ntokens:\n  - { name: t, sha256: ${TOK_SHA}, scopes: [read, drafts] }\n`,
  'p/media/a.png': png(1, 1),
  'p/media/b.png': png(1, 1),
  'p/media/c.png': png(1, 1),
  'p/books/_collection.yaml': 'fields:\n  title: text\n  rating: number\n  in_print: boolean\n  price: number\n',
  'p/books/a.yaml': 'title: A\nprice: 9\ncreated_at: 2026-01-01T00:00:00Z\n',
  'p/books/b.yaml': 'title: B\nrating: 5\nin_print: true\nprice: 19.5\ncreated_at: 2026-01-02T00:00:00Z\n',
  'p/books/c.yaml': 'title: C\nprice: 19\ncreated_at: 2026-01-03T00:00:00Z\n',
  'p/books/d.yaml': 'title: D\nrating: 3\nprice: 29\ncreated_at: 2026-01-04T00:00:00Z\n',
  'p/books/e.yaml': 'title: E\nprice: 90\ncreated_at: 2026-01-05T00:00:00Z\n',
  'p/books/f.yaml': 'title: F\nprice: 0.9\ncreated_at: 2026-01-06T00:00:00Z\n',
  'p/books/g.yaml': 'title: G\nprice: 7\ncreated_at: 2026-01-06T00:00:00Z\n',
  // Drafts X (no title), Y, Z, for the in-memory sort of state=draft.
  'p/books/x.yaml': 'draft: true\nprice: 3\ncreated_at: 2026-02-01T00:00:00Z\n',
  'p/books/y.yaml': 'draft: true\ntitle: Y\nprice: 1\ncreated_at: 2026-02-02T00:00:00Z\n',
  'p/books/z.yaml': 'draft: true\ntitle: Z\nprice: 2\ncreated_at: 2026-02-03T00:00:00Z\n',
  'p/notes/_collection.yaml': 'fields:\n  title: text\n',
  // 18 notes: 18 pages of one.
  ...Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`p/notes/n${String(i + 1).padStart(2, '0')}.yaml`, `title: N${i + 1}\n`])),
};

let get: (query: string, path?: string) => Promise<{ status: number; body: any; warning: string }>;

beforeAll(async () => {
  const { model, issues } = await loadContent(writeTree(BOOKS));
  expect(issues).toEqual([]);
  const handle = createHandler(createSnapshot(model), { elmapi3: elmapi3Routes });
  get = async (query, path = '/books') => {
    const res = await handle(
      new Request(`http://x/api${path}?${query}`, {
        headers: { 'project-id': ID, accept: 'application/json', authorization: 'Bearer tok' },
      }),
    );
    return { status: res.status, body: await res.json(), warning: res.headers.get('x-cqa-warning') ?? '' };
  };
});

const titles = (body: any) => (body.data ?? body).map((e: any) => e.fields.title ?? null);

describe('elmapi3: sort by a custom field (ORDER BY value IS NULL, value dir, id dir)', () => {
  it('entries without a value come last, by id in the sort direction', async () => {
    expect(titles((await get('sort=rating:desc&paginate=10')).body)).toEqual(['B', 'D', 'G', 'F', 'E', 'C', 'A']);
    expect(titles((await get('sort=rating:asc&paginate=10')).body)).toEqual(['D', 'B', 'A', 'C', 'E', 'F', 'G']);
    // Pages cut that one order.
    expect(titles((await get('sort=rating:desc&paginate=3&page=2')).body)).toEqual(['F', 'E', 'C']);
  });

  it('the id tie-break makes a later sort item take no effect', async () => {
    const later = await get('sort=in_print:asc,title:desc&paginate=10');
    expect(titles(later.body)).toEqual(['B', 'A', 'C', 'D', 'E', 'F', 'G']);
    expect(later.warning).toContain("'title' comes after custom field 'in_print' in sort: ElmapiCMS breaks ties on 'in_print' by id");
    expect(titles((await get('sort=in_print:desc,created_at:asc&paginate=10')).body)).toEqual(['B', 'G', 'F', 'E', 'D', 'C', 'A']);
  });

  it('sort=id is the DB id: entries created at the same time in file order', async () => {
    expect(titles((await get('sort=id:desc&paginate=10')).body)).toEqual(['G', 'F', 'E', 'D', 'C', 'B', 'A']);
    expect(titles((await get('sort=id')).body)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    // No sort: id DESC.
    expect(titles((await get('')).body)).toEqual(['G', 'F', 'E', 'D', 'C', 'B', 'A']);
  });
});

describe('elmapi3: meta.links, the window of Laravel 8+ (UrlWindow: onEachSide 3, window 7)', () => {
  const labels = async (page: number) =>
    (await get(`paginate=1&page=${page}`, '/notes')).body.meta.links.slice(1, -1).map((l: any) => l.label);
  const run = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

  it('near the start: pages 1-10, then the last two', async () => {
    for (const page of [1, 7]) expect(await labels(page), `page ${page}`).toEqual([...run(1, 10), '...', '17', '18']);
  });

  it('in the middle: the first two, three each side, the last two', async () => {
    expect(await labels(8)).toEqual(['1', '2', '...', ...run(5, 11), '...', '17', '18']);
    expect(await labels(11)).toEqual(['1', '2', '...', ...run(8, 14), '...', '17', '18']);
  });

  it('near the end: the first two, then the last ten', async () => {
    for (const page of [12, 18]) expect(await labels(page), `page ${page}`).toEqual(['1', '2', '...', ...run(9, 18)]);
    const sep = (await get('paginate=1&page=12', '/notes')).body.meta.links[3];
    expect(sep).toEqual({ url: null, label: '...', active: false });
  });

  it('below 14 pages: every page', async () => {
    expect((await get('paginate=2&page=4', '/notes')).body.meta.links.slice(1, -1).map((l: any) => l.label)).toEqual(run(1, 9));
  });
});

describe('elmapi3: like on a number field (number_value LIKE v, no wildcards added)', () => {
  it('matches the whole number, not its substrings', async () => {
    const nine = await get('where[price][like]=9');
    expect(titles(nine.body)).toEqual(['A']);
    expect(nine.warning).toContain("as number_value LIKE '9' without wildcards: the whole number matches");
    expect(titles((await get('where[price][like]=19')).body)).toEqual(['C']);
    expect(titles((await get('where[price][like]=19.5')).body)).toEqual(['B']);
    expect((await get('where[price][like]=1')).body).toEqual([]);
  });
});

describe('elmapi3: integers as PHP 8 reads them', () => {
  it('limit and paginate are (int) casts: an exponent counts, a trailing text does not', async () => {
    expect(titles((await get('limit=1e1')).body)).toHaveLength(7);
    expect(titles((await get('limit=2abc')).body)).toEqual(['G', 'F']);
    expect(titles((await get('limit=1.9')).body)).toEqual(['G']);
    expect((await get('paginate=1e1')).body.meta.per_page).toBe(10);
    expect((await get('paginate=1e1', '/files')).body.meta.per_page).toBe(10);
    // /files reads 1 to 100 a page, and says so when it moved the number (found from outside: silent).
    for (const [sent, per] of [
      ['1000', 100],
      ['0', 1],
      ['abc', 1],
    ] as const) {
      const r = await get(`paginate=${sent}`, '/files');
      expect(r.body.meta.per_page).toBe(per);
      expect(r.warning).toContain(`paginate=${sent} is read as ${per}: ElmapiCMS lists 1 to 100 files a page`);
    }
    expect((await get('paginate=100', '/files')).warning).toBe('');
    // 1e1000 is infinite: (int) gives 0, so no pagination (and no limit).
    expect(Array.isArray((await get('paginate=1e1000')).body)).toBe(true);
    expect(titles((await get('limit=1e1000')).body)).toHaveLength(7);
  });

  it('page as Laravel reads it (filter_var FILTER_VALIDATE_INT, >= 1), on entries and files alike', async () => {
    for (const path of ['/books', '/files']) {
      const plus = await get('paginate=1&page=%2B2', path);
      expect(plus.body.meta.current_page, path).toBe(2);
      expect(plus.warning, path).toBe('');
      for (const odd of ['02', '2.0', '1e1', '2abc', '99999999999999999999', '9223372036854775808']) {
        const r = await get(`paginate=1&page=${odd}`, path);
        expect(r.body.meta.current_page, `${path} page=${odd}`).toBe(1);
        expect(r.warning, `${path} page=${odd}`).toContain(`page=${odd} is not an integer Laravel reads`);
      }
      // Found from outside: below 1 was answered as page 1 without a word.
      for (const low of ['0', '-3']) {
        const r = await get(`paginate=1&page=${low}`, path);
        expect(r.body.meta.current_page, `${path} page=${low}`).toBe(1);
        expect(r.warning, `${path} page=${low}`).toContain(`page=${low} is below 1: ElmapiCMS answers page 1`);
      }
    }
    // Found from outside (round two): page without paginate was ignored without a word.
    const alone = await get('page=2');
    expect(Array.isArray(alone.body)).toBe(true);
    expect(alone.warning).toContain('page without paginate is ignored by ElmapiCMS');
    const far = await get('paginate=1&page=9007199254740991');
    expect(far.body.meta).toMatchObject({ current_page: 9007199254740991, from: null, to: null });
    expect(far.warning).toBe('');
    const past = await get('paginate=1&page=9223372036854775807');
    expect(past.body.meta.current_page).toBe(Number.MAX_SAFE_INTEGER);
    expect(past.body.data).toEqual([]);
    expect(past.warning).toContain('is past what cqa counts exactly');
  });
});

describe('elmapi3: sort items read as v3 reads them (explode, no trim; strtoupper($dir) === DESC)', () => {
  it('a space before the direction sorts ascending, with a warning', async () => {
    const r = await get('sort=created_at:%20desc&limit=3');
    expect(titles(r.body)).toEqual(['A', 'B', 'C']);
    expect(r.warning).toContain("sort item 'created_at: desc' has a space around the direction: ElmapiCMS compares ' desc' with DESC");
    expect(titles((await get('sort=created_at:DeSc&limit=3')).body)).toEqual(['F', 'G', 'E']);
  });

  it("a space after a comma makes another name, which v3 ignores: ' id' sorts nothing", async () => {
    const r = await get('sort=created_at:asc,%20id:desc&paginate=10');
    // F and G were created at the same time: left in DB order, not by id descending.
    expect(titles(r.body)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    expect(r.warning).toContain("sort item ' id' has a space around the name: ElmapiCMS looks up ' id'");
  });

  it('sort=0 is no sort for PHP (if ($sortParam)): newest first', async () => {
    expect(titles((await get('sort=0')).body)).toEqual(['G', 'F', 'E', 'D', 'C', 'B', 'A']);
  });

  it('state=draft without paginate sorts by the first item alone, also when it names no field', async () => {
    expect(titles((await get('state=draft&sort=price')).body)).toEqual(['Y', 'Z', null]);
    expect(titles((await get('state=draft&sort=title:desc')).body)).toEqual(['Z', 'Y', null]);
    const unknown = await get('state=draft&sort=nosuch,price');
    expect(titles(unknown.body)).toEqual([null, 'Y', 'Z']);
    expect(unknown.warning).toContain("sorts drafts by the first sort item only: 'price' is ignored");
  });

  it('state=draft sorting by an excluded field leaves the drafts unsorted: v3 loads none of its values (found from outside)', async () => {
    const r = await get('state=draft&sort=price:desc&exclude=price');
    // Oldest first (X, Y, Z), as with any sort v3 does not apply; by price they are X, Z, Y.
    expect(titles(r.body)).toEqual([null, 'Y', 'Z']);
    expect(titles((await get('state=draft&sort=price:desc')).body)).toEqual([null, 'Z', 'Y']);
    expect(r.warning).toContain('loads no value of an excluded field');
  });

  it('state=draft with first and a sort that is no column is a 500 in v3 (sortBy on the model first() returned): a 422 naming the fix (found from outside: cqa answered 200)', async () => {
    for (const sort of ['title', 'price:desc', 'nosuch']) {
      const r = await get(`state=draft&first&sort=${sort}`);
      expect(r.status, sort).toBe(422);
      expect(r.body.errors.sort[0], sort).toContain(
        'ElmapiCMS sorts the one entry first() returned as if it were a list: a 500; leave first out',
      );
    }
    // A column first, no first, or published mode: no in-memory sort of a model, as before.
    expect((await get('state=draft&first&sort=created_at:desc')).body.fields.title).toBe('Z');
    expect((await get('state=draft&sort=price')).status).toBe(200);
    expect((await get('first&sort=title')).status).toBe(200);
  });
});

describe('elmapi3: sort by a field whose value v3 keeps in no sorted column (ContentController@index, saveFieldValue)', () => {
  // v3 stores enumeration, json, relation and media values in json_value, a date with time in
  // datetime_value and a range's start in date_value; the paginated ORDER BY reads text_value
  // (number_value, boolean_value, date_value by type), the draft sort text ?? number ?? boolean ??
  // date ?? datetime. Found from outside: cqa sorted by the relation's id, the enumeration's text.
  const PID = '55555555-6666-4777-8888-999999999999';
  let list: (query: string) => Promise<string[]>;

  beforeAll(async () => {
    const { model, issues } = await loadContent(
      writeTree({
        'p/project.yaml': `id: ${PID}\ndialect: elmapi3\npublic: true\ntokens:\n  - { name: t, sha256: ${TOK_SHA}, scopes: [read, drafts] }\n`,
        'p/media/a.png': png(1, 1),
        'p/media/b.png': png(1, 1),
        'p/people/_collection.yaml': 'fields:\n  name: text\n',
        'p/people/ann.yaml': 'name: Ann\n',
        'p/people/bob.yaml': 'name: Bob\n',
        'p/items/_collection.yaml':
          'fields:\n  title: text\n  kind: { type: enumeration, values: [x, y] }\n  meta: json\n  who: { type: relation, collection: people }\n' +
          '  cover: media\n  at: datetime\n  period: { type: date, range: true }\n  day: date\n',
        // P is created first; Q has the "larger" value of each field, R none.
        'p/items/p.yaml':
          'title: P\nkind: x\nmeta: a\nwho: ann\ncover: a.png\nat: 2026-01-01T10:00:00Z\nperiod: { start: 2026-01-01 }\nday: 2026-01-01\ncreated_at: 2026-01-01T00:00:00Z\n',
        'p/items/q.yaml':
          'title: Q\nkind: y\nmeta: b\nwho: bob\ncover: b.png\nat: 2026-02-01T10:00:00Z\nperiod: { start: 2026-02-01 }\nday: 2026-02-01\ncreated_at: 2026-01-02T00:00:00Z\n',
        'p/items/r.yaml': 'title: R\ncreated_at: 2026-01-03T00:00:00Z\n',
        'p/items/s.yaml': 'draft: true\ntitle: S\nkind: y\nat: 2026-03-01T00:00:00Z\ncreated_at: 2026-01-04T00:00:00Z\n',
        'p/items/t.yaml': 'draft: true\ntitle: T\nkind: x\nat: 2026-02-01T00:00:00Z\ncreated_at: 2026-01-05T00:00:00Z\n',
      }),
    );
    expect(issues).toEqual([]);
    const handle = createHandler(createSnapshot(model), { elmapi3: elmapi3Routes });
    list = async (query) => {
      const res = await handle(
        new Request(`http://x/api/items?${query}`, {
          headers: { 'project-id': PID, accept: 'application/json', authorization: 'Bearer tok' },
        }),
      );
      return titles(await res.json());
    };
  });

  it('enumeration, json, relation, media and a date with time: no value to sort by, so by id in the direction', async () => {
    for (const name of ['kind', 'meta', 'who', 'cover', 'at']) {
      expect(await list(`sort=${name}:desc&paginate=10`), name).toEqual(['R', 'Q', 'P']);
      expect(await list(`sort=${name}:asc&paginate=10`), name).toEqual(['P', 'Q', 'R']);
    }
  });

  it('a date and a range (its start, in date_value) sort by value', async () => {
    for (const name of ['day', 'period']) expect(await list(`sort=${name}:desc&paginate=10`), name).toEqual(['Q', 'P', 'R']);
  });

  it('drafts in memory: a date with time sorts (datetime_value), an enumeration does not', async () => {
    expect(await list('state=draft&sort=at')).toEqual(['T', 'S']);
    // No value: sortBy keeps the query's order (DB order, sort being present).
    expect(await list('state=draft&sort=kind')).toEqual(['S', 'T']);
  });
});
