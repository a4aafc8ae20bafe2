import { describe, expect, it } from 'vitest';
import { queryEntries, queryEntry, queryMediaList } from '../../src/core/query/index.js';
import type { QueryContext, QueryProblem } from '../../src/core/query/types.js';
import { drafter, productsCol, project, reader } from './fixture.js';

function problemOf(q: string, ctx: QueryContext = drafter): QueryProblem {
  const r = queryEntries(project, productsCol, q, ctx);
  if (r.ok) throw new Error(`${q}: expected a problem, got ${r.body.slice(0, 200)}`);
  return r.problem;
}

const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}=${i}`).join('&');

// query → [status, code]
const errors: [string, number, string][] = [
  ['foo=1', 400, 'unknown_parameter'],
  ['where=1', 400, 'invalid_value'],
  ['Sort=id', 400, 'unknown_parameter'],
  ['=1', 400, 'unknown_parameter'],
  ['where[prise]=1', 400, 'unknown_field'],
  ['where[secret]=s1', 400, 'unknown_field'],
  ['where[or][][secret]=s1', 400, 'unknown_field'],
  ['where[price][gtx]=1', 400, 'unknown_operator'],
  ['where[price][GT]=1', 400, 'unknown_operator'],
  ['where[price][like]=1', 400, 'unknown_operator'],
  ['where[meta]=x', 400, 'unknown_operator'],
  ['where[meta][eq]=null', 400, 'unknown_operator'],
  ['where[active][gt]=true', 400, 'unknown_operator'],
  ['where[author][lt]=b', 400, 'unknown_operator'],
  ['where[tags][gt]=new', 400, 'unknown_operator'],
  ['where[price]=abc', 400, 'invalid_value'],
  ['where[price]=', 400, 'invalid_value'],
  ['where[price]=Infinity', 400, 'invalid_value'],
  ['where[price]=1e999', 400, 'invalid_value'],
  ['where[price]=0x10', 400, 'invalid_value'],
  ['where[price]=NaN', 400, 'invalid_value'],
  ['where[price][in]=1,x', 400, 'invalid_value'],
  ['where[price][eq][]=1', 400, 'invalid_value'],
  ['where[active]=yes', 400, 'invalid_value'],
  ['where[released]=2021-02-30', 400, 'invalid_value'],
  ['where[released]=21-02-01', 400, 'invalid_value'],
  ['where[starts]=yesterday', 400, 'invalid_value'],
  ['where[starts]=2021-01-01T25:00:00Z', 400, 'invalid_value'],
  ['where[opens]=9am', 400, 'invalid_value'],
  ['where[id][gt]=x&where[id][gt]=y', 400, 'duplicate_parameter'],
  ['where[price][between]=1', 400, 'invalid_value'],
  ['where[price][between]=1,2,3', 400, 'invalid_value'],
  ['where[price][not_between][]=1', 400, 'invalid_value'],
  ['where[tags]=bogus', 400, 'invalid_value'],
  ['where[price][null]=maybe', 400, 'invalid_value'],
  ['where[or]=1', 400, 'invalid_value'],
  ['where[0]=1', 400, 'invalid_value'],
  ['whereRelation[title][x]=1', 400, 'unknown_field'],
  ['whereRelation[author]=ann', 400, 'invalid_value'],
  ['whereRelation[author][nope]=1', 400, 'unknown_field'],
  ['sort=prise', 400, 'invalid_sort'],
  ['sort=price:up', 400, 'invalid_sort'],
  ['sort=', 400, 'invalid_sort'],
  ['sort=price,', 400, 'invalid_sort'],
  ['sort=secret', 400, 'invalid_sort'],
  ['sort[]=price', 400, 'invalid_value'],
  ['limit=-1', 400, 'invalid_limit'],
  ['limit=1.5', 400, 'invalid_limit'],
  ['limit=abc', 400, 'invalid_limit'],
  ['limit=', 400, 'invalid_limit'],
  ['limit=1001', 400, 'invalid_limit'],
  ['offset=-1', 400, 'invalid_offset'],
  ['offset=1e3', 400, 'invalid_offset'],
  ['first&count', 400, 'conflicting_parameters'],
  ['first=true&count=1', 400, 'conflicting_parameters'],
  ['first=maybe', 400, 'invalid_value'],
  ['timestamps=yes', 400, 'invalid_value'],
  ['fields=title&exclude=price', 400, 'conflicting_parameters'],
  ['fields=nope', 400, 'unknown_field'],
  ['fields=secret', 400, 'unknown_field'],
  ['exclude=created_at', 400, 'unknown_field'],
  ['fields=', 400, 'invalid_value'],
  ['state=bogus', 400, 'invalid_state'],
  ['state=', 400, 'invalid_state'],
  ['locale=fr', 400, 'invalid_locale'],
  ['__proto__=1', 400, 'forbidden_key'],
  ['__proto__[polluted]=1', 400, 'forbidden_key'],
  ['where[__proto__][polluted]=1', 400, 'forbidden_key'],
  ['where[constructor][prototype][polluted]=1', 400, 'forbidden_key'],
  ['where[price][__proto__]=1', 400, 'forbidden_key'],
  ['where[or][][prototype]=1', 400, 'forbidden_key'],
  ['constructor=1', 400, 'forbidden_key'],
  ['%5F%5Fproto%5F%5F[x]=1', 400, 'forbidden_key'],
  ['where%5B__proto__%5D=1', 400, 'forbidden_key'],
  ['where[or][0][price][gt][x]=1', 400, 'too_deep'],
  ['where[a][b][c][d][e][f]=1', 400, 'too_deep'],
  ['where[or][0][price][in][0][1]=1', 400, 'too_deep'],
  ['where[price][in][x]=1', 400, 'too_deep'],
  ['where[0][or][price]=1', 400, 'too_deep'],
  ['where[price]=%E0%A4%A', 400, 'malformed_query'],
  ['where[price]=%ZZ', 400, 'malformed_query'],
  ['where%5Bprice=1', 400, 'malformed_query'],
  ['where[price]x=1', 400, 'malformed_query'],
  ['limit=%', 400, 'malformed_query'],
  ['where[price]=%ED%A0%80', 400, 'malformed_query'],
  ['where[price]=1&where[price]=2', 400, 'duplicate_parameter'],
  ['limit=1&limit=2', 400, 'duplicate_parameter'],
  ['first&first', 400, 'duplicate_parameter'],
  ['where[price]=1&where[price][gt]=2', 400, 'duplicate_parameter'],
  ['where[price][in][]=1&where[price][in]=2', 400, 'duplicate_parameter'],
  [`where[id][in]=${Array.from({ length: 1001 }, (_, i) => i).join(',')}`, 400, 'too_many_values'],
  [many('where[id][in][]', 1001), 400, 'too_many_values'],
  [many('where[][id]', 1001), 400, 'too_many_values'],
];

describe('bad input: 4xx with a stable code', () => {
  it.each(errors)('%s → %i %s', (q, status, code) => {
    const p = problemOf(q);
    expect(p).toMatchObject({ status, code });
    expect(p.detail.length).toBeGreaterThan(10);
  });

  it('1,000 values in one list are fine', () => {
    const r = queryEntries(project, productsCol, many('where[id][in][]', 1000), reader);
    expect(r.ok).toBe(true);
  });

  it('limit over max-limit, and no cap with 0', () => {
    expect(problemOf('limit=11', { ...drafter, maxLimit: 10 })).toMatchObject({ status: 400, code: 'invalid_limit' });
    expect(problemOf('limit=11', { ...drafter, maxLimit: 10 }).detail).toContain('10');
    expect(queryEntries(project, productsCol, 'limit=5000000', { ...drafter, maxLimit: 0 }).ok).toBe(true);
  });

  it('a limit past 2^53 names the cap that holds, not 2^53 (found by fuzzing)', () => {
    const over = problemOf('limit=9007199254740993', { ...drafter, maxLimit: 1000 });
    expect(over).toMatchObject({ status: 400, code: 'invalid_limit', param: 'limit' });
    expect(over.detail).toBe('limit: 9007199254740993 is too large: the maximum is 1000; ask for at most 1000 and page with offset');
    // Without a cap, the largest limit there is.
    expect(problemOf('limit=9007199254740993', { ...drafter, maxLimit: 0 }).detail).toBe(
      'limit: 9007199254740993 is too large (max 9007199254740991)',
    );
  });

  it('drafts need the drafts scope', () => {
    for (const q of ['state=with_draft', 'state=only_draft', 'count&state=with_draft']) {
      expect(problemOf(q, reader)).toMatchObject({ status: 403, code: 'drafts_scope_required', param: 'state' });
    }
    expect(queryEntries(project, productsCol, 'state=published', reader).ok).toBe(true);
  });

  it('messages tell what to change', () => {
    const unknown = problemOf('where[prise]=1');
    expect(unknown.param).toBe('where[prise]');
    const fields =
      'id, locale, title, price, tags, released, starts, opens, active, author, related, cover, gallery, meta, scores, created_at, updated_at, published_at';
    expect(unknown.detail).toBe(`where[prise]: unknown field 'prise'; did you mean 'price'? (filterable fields: ${fields})`);
    expect(problemOf('where[zzz]=1').detail).toBe(`where[zzz]: unknown field 'zzz'; filterable fields: ${fields}`);
    // The same did-you-mean in sort, fields and exclude (found from outside: sort=published_on:desc named none).
    expect(problemOf('sort=published_on:desc').detail).toBe(
      `sort: unknown field 'published_on'; did you mean 'published_at'? (sortable fields: ${fields})`,
    );
    expect(problemOf('fields=titel').detail).toMatch(
      /^fields: unknown field 'titel'; did you mean 'title'\? \(fields: id, locale, title, /,
    );
    expect(problemOf('exclude=prise').detail).toMatch(/^exclude: unknown field 'prise'; did you mean 'price'\? \(fields: /);
    // A timestamp in fields: timestamps adds all three whatever fields lists (the hint said "use timestamps" to a request that had it).
    for (const q of ['timestamps&fields=title,published_at', 'fields=title,created_at', 'timestamps&exclude=updated_at']) {
      const p = problemOf(q);
      expect(p).toMatchObject({ status: 400, code: 'unknown_field' });
      expect(p.detail).toMatch(/ \(a timestamp: the parameter timestamps adds all three, whatever (fields|exclude) lists\)$/);
    }
    expect(problemOf('where[secret]=1').detail).not.toContain('secret,');
    const param = problemOf('foo=1');
    expect(param.detail).toContain('where, whereRelation, sort, limit, offset, first, count, state, locale, timestamps, fields, exclude');
    const op = problemOf('where[price][gtx]=1');
    expect(op.detail).toContain('eq, not, like, in, not_in, lt, lte, gt, gte, between, not_between, null, not_null');
    expect(op.param).toBe('where[price][gtx]');
    // A field of the related entry, asked through the relation (found from outside: no hint).
    expect(problemOf('where[author][name]=Ann').detail).toContain(
      "where[author][name]: unknown operator 'name'; to filter on a field of the related entry, write whereRelation[author][name]=…",
    );
    expect(problemOf('where[author][eqq]=x').detail).not.toContain('whereRelation'); // a typo, no field of the authors (round two)
    expect(problemOf('where[price]=abc').detail).toContain('finite number');
    expect(problemOf('where[tags]=bogus').detail).toContain('new, sale, eco');
    expect(problemOf('locale=fr').detail).toContain('en, de');
    expect(problemOf('sort=prise').detail).toContain('sortable fields');
    expect(problemOf('where[][prise]=1').param).toBe('where[0][prise]');
  });

  it('single entry: only state, timestamps, fields, exclude', () => {
    for (const q of ['where[price]=1', 'limit=1', 'locale=en', 'x=1']) {
      const r = queryEntry(project, productsCol, 'p1', q, reader);
      expect(r.ok ? 200 : r.problem).toMatchObject({ status: 400, code: 'unknown_parameter' });
    }
    const r = queryEntry(project, productsCol, 'p1', '__proto__=1', reader);
    expect(r.ok ? 200 : r.problem).toMatchObject({ status: 400, code: 'forbidden_key' });
  });

  it('prototype pollution attempts leave Object.prototype untouched', () => {
    const attempts = [
      '__proto__[polluted]=yes',
      'where[__proto__][polluted]=yes',
      'where[constructor][prototype][polluted]=yes',
      'where[or][__proto__][polluted]=yes',
      'whereRelation[__proto__][polluted]=yes',
      'where[price][in][__proto__]=yes',
      '__proto__.polluted=yes',
      'constructor[prototype][polluted]=yes',
    ];
    for (const q of attempts) {
      const r = queryEntries(project, productsCol, q, drafter);
      expect(r.ok ? 200 : r.problem.status).toBe(400);
      const m = queryMediaList(project, q, drafter);
      expect(m.ok ? 200 : m.problem.status).toBe(400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
