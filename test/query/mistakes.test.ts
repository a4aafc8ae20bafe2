// Consumer mistakes that used to be silent or misleading answer a 400 whose message holds the fix
// (issue 9), in the cqa dialect (the elmapi dialect answers the same as 422s: test/http/elmapi.test.ts).
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../src/core/http/fetch.js';
import { queryEntries } from '../../src/core/query/index.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { sha } from '../http/fixture.js';
import { drafter, model, productsCol, project } from './fixture.js';

function problemOf(q: string) {
  const r = queryEntries(project, productsCol, q, drafter);
  if (r.ok) throw new Error(`${q}: expected a problem, got ${r.body.slice(0, 200)}`);
  return r.problem;
}

describe('consumer mistakes, with the fix in the message', () => {
  it.each([
    ['where[id][in]=', 'invalid_value', 'in needs at least one value'],
    ['where[tags][not_in][]=', 'invalid_value', 'not_in needs at least one value'],
    ['where[locale]=fr', 'invalid_locale', "'fr' is not a locale of this project"],
    ['where[locale][in]=en,xx', 'invalid_locale', "'xx' is not a locale"],
    ['where[title][]=x', 'unknown_operator', 'where[title][in][]='],
    ['where[price][!=]=9', 'unknown_operator', 'write where[price][not]=9'],
    ['where[price][%3E%3D]=9', 'unknown_operator', 'write where[price][gte]=…'],
    ['where[price][<]=9', 'unknown_operator', 'write where[price][lt]=…'],
    ['where[author.name]=x', 'unknown_field', 'whereRelation[author][name]='],
    ['sort=-price', 'invalid_sort', 'write sort=price:desc'],
    ['sort=price%20desc', 'invalid_sort', 'write sort=price:desc'],
    ['sort=price+DESC', 'invalid_sort', 'write sort=price:desc'],
    ['offset=99999999999999999999', 'invalid_offset', 'too large (max 9007199254740991)'],
    ['limit=99999999999999999999', 'invalid_limit', 'too large'],
  ])('%s', (q, code, fix) => {
    const p = problemOf(q);
    expect(p).toMatchObject({ status: 400, code });
    expect(p.detail).toContain(fix);
  });

  // Issue 24: a sign or a direction word from another API's syntax gets the fix.
  it.each([
    ['sort=%2Bprice', "sort: '+price' is not a sort item here; write sort=price:asc"],
    ['sort=price%2B', "sort: 'price+' is not a sort item here; write sort=price:asc"],
    ['sort=price-', "sort: 'price-' is not a sort item here; write sort=price:desc"],
    ['sort=title,%2Bprice', "sort: '+price' is not a sort item here; write sort=price:asc"],
    ['sort=price:descending', "sort: direction 'descending' in 'price:descending' must be asc or desc; write sort=price:desc"],
    ['sort=price:up', "sort: direction 'up' in 'price:up' must be asc or desc; write sort=price:asc"],
    ['sort=price%20constructor', "sort: unknown field 'price constructor'; sortable fields:"],
  ])('%s: the 400 says what to write', (q, start) => {
    const p = problemOf(q);
    expect(p).toMatchObject({ status: 400 });
    expect(p.detail.startsWith(start)).toBe(true);
  });

  it('a colon and no direction (sort=price:) gets both directions to choose from', () => {
    const both = 'must be asc or desc; write sort=price:asc or sort=price:desc';
    expect(problemOf('sort=price:').detail).toBe(`sort: direction '' in 'price:' ${both}`);
    expect(problemOf('sort=title,price:%20').detail).toBe(`sort: direction '' in 'price:' ${both}`);
    // No fix for a field that is not there: the direction is not what to change.
    expect(problemOf('sort=nope:').detail).toBe("sort: direction '' in 'nope:' must be asc or desc");
  });

  it('a word of Object.prototype is no direction word', () => {
    expect(problemOf('sort=price:constructor').detail).toBe("sort: direction 'constructor' in 'price:constructor' must be asc or desc");
    expect(problemOf('sort=price%20toString').detail).toMatch(/^sort: unknown field 'price toString'; sortable fields: /);
  });

  it('a valid locale in where[locale] still filters', () => {
    const r = queryEntries(project, productsCol, 'where[locale]=en&count', drafter);
    expect(r.ok).toBe(true);
  });

  it("on a public project, another project's token is a 401 that says no token is needed", async () => {
    const shop = model.projects[0]!;
    const other = { ...shop, id: 'other', public: false, tokens: [{ name: 'x', sha256: sha('foo'), scopes: ['read' as const] }] };
    const open = createSnapshot({ projects: [{ ...shop, public: true }, other] });
    const handler = createHandler(open);
    const headers = { accept: 'application/json' };
    const id = project.record.id;
    expect((await handler(new Request(`http://x/api/${id}/products`, { headers }))).status).toBe(200);
    const r = await handler(new Request(`http://x/api/${id}/products`, { headers: { ...headers, authorization: 'Bearer foo' } }));
    expect(r.status).toBe(401);
    const body = (await r.json()) as { code: string; detail: string };
    expect(body.code).toBe('invalid_token');
    expect(body.detail).toMatch(/public and needs no token.*another project/);
  });
});
