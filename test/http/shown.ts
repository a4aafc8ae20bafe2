// A reference for filters and sorts built on what the API shows: the answer to a filtered query
// must be what a client would get by filtering and sorting the unfiltered answer itself (§4.3:
// relation and media fields compare by the ids of the embedded items). Deliberately naive.

export type Item = { readonly id: string } & Readonly<Record<string, unknown>>;

/** The compared values of a field as shown: ids of embedded entries/media items, else the values. */
export function shownValues(item: Item, field: string): unknown[] {
  const v = Object.hasOwn(item, field) ? item[field] : undefined;
  const list = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
  return list.map((x) => (typeof x === 'object' && x !== null ? (x as { id: unknown }).id : x));
}

export type RefOp = 'eq' | 'not' | 'in' | 'not_in' | 'lt' | 'null' | 'not_null';

const same = (shown: unknown, query: string) => (typeof shown === 'number' ? shown === Number(query) : shown === query);

/** Whether `item` matches `where[field][op]=values` (text, number and id comparisons only). */
export function matches(item: Item, field: string, op: RefOp, values: readonly string[] = []): boolean {
  const shown = shownValues(item, field);
  switch (op) {
    case 'null':
      return shown.length === 0;
    case 'not_null':
      return shown.length > 0;
    case 'eq':
    case 'in':
      return shown.some((s) => values.some((q) => same(s, q)));
    case 'not':
    case 'not_in':
      return !shown.some((s) => values.some((q) => same(s, q)));
    case 'lt':
      return shown.some((s) => typeof s === 'number' && s < Number(values[0]));
  }
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Ids of `items` sorted by `field` (first shown value; empty last either way; ties by id). */
export function sortedIds(items: readonly Item[], field: string, desc: boolean): string[] {
  return [...items]
    .sort((x, y) => {
      const a = shownValues(x, field)[0];
      const b = shownValues(y, field)[0];
      if (a === undefined || b === undefined) {
        if (a !== b) return a === undefined ? 1 : -1;
      } else {
        const c = compare(a, b);
        if (c !== 0) return desc ? -c : c;
      }
      return compare(x.id, y.id);
    })
    .map((i) => i.id);
}
