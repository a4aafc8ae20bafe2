// A query object → the bracket query string of SPEC §4.3:
//   { where: { price: { gt: 10 }, or: [{ tags: 'sale' }] }, sort: 'price:desc', limit: 3 }
//   → where[price][gt]=10&where[or][0][tags]=sale&sort=price:desc&limit=3
// List values always use repeated `[]` (`where[id][in][]=a&where[id][in][]=b`), so a value with a
// comma stays one value. No Node imports.

/** The untyped shape of the query objects of types.ts. */
export interface QueryObject {
  readonly where?: unknown;
  readonly whereRelation?: unknown;
  readonly sort?: string | readonly string[];
  readonly limit?: number;
  readonly offset?: number;
  readonly locale?: string;
  /** elmapi3's entry route: that entry's translation in this locale. */
  readonly translation_locale?: string;
  readonly state?: string;
  readonly timestamps?: boolean;
  readonly fields?: readonly string[];
  readonly exclude?: readonly string[];
  /** elmapi3's Laravel pages: their size and which one. */
  readonly paginate?: number;
  readonly page?: number;
}

const enc = encodeURIComponent;
/** A comma-separated list (sort, fields, exclude): `,` and `:` need no escaping in a query. */
const encList = (v: string | readonly string[], param: string) => {
  // From JavaScript: `sort: { published_at: 'desc' }` threw `v.join is not a function`.
  if (typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
    throw new TypeError(
      param === 'sort'
        ? `sort: expected 'field' or 'field:desc', or a list of them, got ${JSON.stringify(v)}${isPlainObject(v) ? `; write sort: '${Object.entries(v).map(([f, d]) => (d === 'desc' ? `${f}:desc` : f))}'` : ''}`
        : `${param}: expected a list of field names, e.g. ['title', 'slug'], got ${JSON.stringify(v)}`,
    );
  return enc(typeof v === 'string' ? v : v.join(','))
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':');
};

function scalar(v: unknown, param: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // The two a front end reaches for (found from outside): a Date, and a list for "any of".
  const listed = Array.isArray(v) && !/\]\[[a-z_]+\]$/.test(param); // `where[f]=[…]`, not `where[f][in]=[[…]]`
  const hint = v instanceof Date ? ': pass date.toISOString()' : listed ? ': for any of them, use { in: [...] }' : '';
  throw new TypeError(`${param}: expected a string, number or boolean, got ${v === null ? 'null' : typeof v}${hint}`);
}

/**
 * An object literal: a Date or another class's object is a value, not a map of operators (found
 * by round two: a Date has no keys of its own, so its filter was dropped).
 */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** `where[f]=v`, `where[f]=null` or `where[f][op]=…` for every operator of the condition. */
function condition(param: string, cond: unknown, out: string[]): void {
  if (cond === undefined) return;
  if (cond === null) return void out.push(`${param}=null`);
  if (!isPlainObject(cond)) return void out.push(`${param}=${enc(scalar(cond, param))}`);
  for (const [op, v] of Object.entries(cond)) {
    if (v === undefined) continue;
    const p = `${param}[${enc(op)}]`;
    if (Array.isArray(v)) {
      if (v.length === 0) throw new TypeError(`${p}: give at least one value`);
      for (const x of v) out.push(`${p}[]=${enc(scalar(x, p))}`);
    } else {
      out.push(`${p}=${enc(scalar(v, p))}`);
    }
  }
}

function fields(prefix: string, group: unknown, out: string[]): void {
  if (!isPlainObject(group)) throw new TypeError(`${prefix}: expected an object of field conditions`);
  for (const [name, cond] of Object.entries(group)) {
    if (name === 'or') {
      if (!Array.isArray(cond)) throw new TypeError(`${prefix}[or]: expected a list of groups`);
      cond.forEach((g, k) => {
        fields(`${prefix}[or][${k}]`, g, out);
      });
    } else {
      condition(`${prefix}[${enc(name)}]`, cond, out);
    }
  }
}

export function queryString(q: QueryObject | undefined): string {
  if (!q) return '';
  const out: string[] = [];
  if (Array.isArray(q.where))
    q.where.forEach((g, k) => {
      fields(`where[${k}]`, g, out);
    });
  else if (q.where !== undefined) fields('where', q.where, out);
  if (q.whereRelation !== undefined) {
    if (!isPlainObject(q.whereRelation)) throw new TypeError('whereRelation: expected { relation: { field: condition } }');
    for (const [rel, w] of Object.entries(q.whereRelation)) if (w !== undefined) fields(`whereRelation[${enc(rel)}]`, w, out);
  }
  if (q.sort !== undefined) out.push(`sort=${encList(q.sort, 'sort')}`);
  if (q.limit !== undefined) out.push(`limit=${enc(String(q.limit))}`);
  if (q.offset !== undefined) out.push(`offset=${enc(String(q.offset))}`);
  if (q.state !== undefined) out.push(`state=${enc(q.state)}`);
  if (q.locale !== undefined) out.push(`locale=${enc(q.locale)}`);
  if (q.translation_locale !== undefined) out.push(`translation_locale=${enc(q.translation_locale)}`);
  if (q.timestamps) out.push('timestamps');
  if (q.fields !== undefined) out.push(`fields=${encList(q.fields, 'fields')}`);
  if (q.exclude !== undefined) out.push(`exclude=${encList(q.exclude, 'exclude')}`);
  if (q.paginate !== undefined) out.push(`paginate=${enc(String(q.paginate))}`);
  if (q.page !== undefined) out.push(`page=${enc(String(q.page))}`);
  return out.join('&');
}
