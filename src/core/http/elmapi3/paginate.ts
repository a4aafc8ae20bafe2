// Laravel's LengthAwarePaginator through PaginatedResourceResponse (sheet §2.5): `{data, links,
// meta}`, page URLs carrying every query parameter (http_build_query, RFC 3986). No Node imports.
import type { PhpArray, PhpValue } from './php-query.js';
import type { Json } from './render.js';

/** PHP's rawurlencode. */
const raw = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** http_build_query($query, '', '&', PHP_QUERY_RFC3986): nulls are left out, arrays nest. */
export function buildQuery(params: PhpArray): string {
  const out: string[] = [];
  const walk = (value: PhpValue, key: string) => {
    if (value === null) return;
    if (value instanceof Map) for (const [k, v] of value) walk(v, `${key}[${k}]`);
    else out.push(`${raw(key)}=${raw(value)}`);
  };
  for (const [k, v] of params) walk(v, k);
  return out.join('&');
}

function pageUrl(path: string, params: PhpArray, page: number): string {
  const q = new Map(params);
  q.set('page', String(page));
  return `${path}?${buildQuery(q)}`;
}

export function paginated(data: Json[], total: number, perPage: number, page: number, path: string, params: PhpArray): Json {
  const last = Math.max(1, Math.ceil(total / perPage));
  const url = (p: number) => pageUrl(path, params, p);
  const from = data.length === 0 ? null : (page - 1) * perPage + 1;
  const to = from === null ? null : from + data.length - 1;
  const links: Json[] = [
    { url: page > 1 ? url(page - 1) : null, label: '&laquo; Previous', page: page > 1 ? page - 1 : null, active: false },
  ];
  const window = (p: number) => ({ url: url(p), label: String(p), page: p, active: p === page });
  // Laravel 8+'s UrlWindow (onEachSide 3, window = onEachSide + 4): every page below 14 pages;
  // else near the start pages 1–10, near the end the last 10, otherwise the first two, three
  // each side of the current page and the last two, with '...' between the parts.
  const side = 3;
  const span = side + 4;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const parts =
    last < side * 2 + 8
      ? [range(1, last)]
      : page <= span
        ? [range(1, span + side), range(last - 1, last)]
        : page > last - span
          ? [range(1, 2), range(last - (span + side - 1), last)]
          : [range(1, 2), range(page - side, page + side), range(last - 1, last)];
  parts.forEach((part, i) => {
    if (i > 0) links.push({ url: null, label: '...', active: false });
    for (const p of part) links.push(window(p));
  });
  links.push({ url: page < last ? url(page + 1) : null, label: 'Next &raquo;', page: page < last ? page + 1 : null, active: false });
  return {
    data,
    links: { first: url(1), last: url(last), prev: page > 1 ? url(page - 1) : null, next: page < last ? url(page + 1) : null },
    meta: { current_page: page, from, last_page: last, links, path, per_page: perPage, to, total },
  };
}

/** PHP's (int) cast of a query value: leading integer part, else 0. */
export function phpInt(v: PhpValue | undefined): number {
  if (typeof v !== 'string') return 0;
  const m = /^\s*([+-]?\d+)/.exec(v);
  return m ? Math.max(-(2 ** 53), Math.min(2 ** 53, Number(m[1]))) : 0;
}
