// What differs between dialects on the client's side (docs/dialects.md): where an answer keeps
// what a method returns (`{"data": …}` / `{"count": n}` in `cqa`, bare in `elmapi`), and the query
// rules `elmapi` adds (every sort item names its direction, `offset` needs `limit`). The client
// returns what the server sends; only the envelope a method unwraps depends on the dialect.
// No Node imports.
import type { QueryObject } from './query-string.js';
import type { DialectName } from './types.js';

export interface ClientDialect {
  /** The project document, the entry or media item, out of its answer. */
  item(json: unknown): unknown;
  /** A list answer, as it is (checked to be of this dialect). */
  list(json: unknown): unknown;
  /** The entries of a list answer. */
  listItems(json: unknown): readonly unknown[];
  count(json: unknown): number;
  /** The query object as this dialect's server accepts it (throws a TypeError saying what to change). */
  query(q: QueryObject | undefined): QueryObject | undefined;
}

/** What a static host does with a query (found from outside: wrong answers, silently). */
export const IGNORED = "the server ignored the query, as a static host does; for a static tree (cqa build) use mode: 'static'";
const listNotCount = () => new TypeError(`the answer to count is a list: ${IGNORED}`);

/** A `cqa` client reading an `elmapi` answer would return undefined everywhere: say what to change. */
function wrapped<K extends string>(json: unknown, key: K): Record<K, unknown> {
  if (typeof json === 'object' && json !== null && !Array.isArray(json) && key in json) return json as Record<K, unknown>;
  throw new TypeError(`the answer has no "${key}": the project answers in another dialect; pass dialect: 'elmapi' to createClient`);
}

const cqa: ClientDialect = {
  item: (json) => wrapped(json, 'data').data,
  list: (json) => {
    wrapped(json, 'data');
    return json;
  },
  listItems: (json) => wrapped(json, 'data').data as unknown[],
  count: (json) => {
    // A list where a count was asked for: the server ignored `?count`, as a static host does.
    if (typeof json === 'object' && json !== null && 'data' in json && !('count' in json)) throw listNotCount();
    return wrapped(json, 'count').count as number;
  },
  query: (q) => q,
};

/** `price` → `price:asc` (what `sort: 'price'` means in a query object). */
function withDirection(item: string): string {
  return /:(asc|desc)$/i.test(item) ? item : `${item}:asc`;
}

const elmapi: ClientDialect = {
  item: (json) => json,
  list: (json) => json,
  listItems: (json) => json as unknown[],
  count: (json) => {
    if (typeof json === 'number') return json;
    throw listNotCount();
  },
  query(q) {
    if (q === undefined) return q;
    if (q.offset !== undefined && q.limit === undefined) {
      throw new TypeError('offset: the elmapi dialect needs a limit with an offset; add limit (e.g. { limit: 20, offset: 40 })');
    }
    if (q.sort === undefined) return q;
    const items = typeof q.sort === 'string' ? q.sort.split(',') : q.sort;
    return { ...q, sort: items.map((s) => withDirection(s.trim())) };
  },
};

/** Where conditions as ElmapiCMS v3 reads them: `null` → `[null]`, `'not_null'` → `[not_null]`, in groups and `or` too. */
function v3Conditions(group: unknown): unknown {
  if (!group || typeof group !== 'object' || Array.isArray(group)) return group;
  const out: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(group))
    out[k] = k === 'or' && Array.isArray(c) ? c.map(v3Conditions) : c === null ? { null: 1 } : c === 'not_null' ? { not_null: 1 } : c;
  return out;
}

/**
 * Today's ElmapiCMS: bare arrays and entries, `{"count": n}`; a singleton's list route answers its
 * one entry. Its query has no `fields=` and no both-states mode; relation filters go in `where`.
 */
const elmapi3: ClientDialect = {
  item: (json) => json,
  list: (json) => json,
  listItems: (json) => (Array.isArray(json) ? json : [json]),
  count: (json) => {
    const n = (json as { count?: unknown }).count;
    if (typeof n === 'number') return n;
    throw Array.isArray(json) ? listNotCount() : new TypeError('count: a singleton answers its one entry; use first()');
  },
  query(q) {
    if (q === undefined) return q;
    if (q.fields !== undefined) throw new TypeError('fields: elmapi3 has no fields=; use exclude');
    if (q.page !== undefined && q.paginate === undefined)
      throw new TypeError('page: give paginate too (the page size); v3 ignores page without it');
    let state = q.state;
    if (state === 'with_draft') throw new TypeError("state: elmapi3 has no with_draft; use 'only_draft'");
    if (state === 'only_draft') state = 'draft';
    else if (state === 'published') state = undefined;
    let where = Array.isArray(q.where) ? q.where.map(v3Conditions) : v3Conditions(q.where);
    if (q.whereRelation !== undefined) {
      // v3 filters relations inside where: where[rel][field]=v.
      const rel = q.whereRelation as Record<string, unknown>;
      where = Array.isArray(where) ? [...where, rel] : where === undefined ? rel : [where, rel];
    }
    const { whereRelation: _r, state: _s, where: _w, ...rest } = q;
    return { ...rest, ...(where !== undefined ? { where } : {}), ...(state !== undefined ? { state } : {}) };
  },
};

export const CLIENT_DIALECTS: Readonly<Record<DialectName, ClientDialect>> = { cqa, elmapi, elmapi3 };
