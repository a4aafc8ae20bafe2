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
  count: (json) => wrapped(json, 'count').count as number,
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
  count: (json) => json as number,
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

export const CLIENT_DIALECTS: Readonly<Record<DialectName, ClientDialect>> = { cqa, elmapi };
