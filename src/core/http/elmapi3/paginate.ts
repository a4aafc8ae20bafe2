// Laravel's LengthAwarePaginator through PaginatedResourceResponse (sheet §2.5): `{data, links,
// meta}`, page URLs carrying every query parameter (http_build_query, RFC 3986). No Node imports.
import type { PhpArray, PhpValue } from './php-query.js';
import type { Json } from './render.js';
import type { Warnings } from './warnings.js';

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

/**
 * `bareFirst`: page 1 is linked as the bare path — a static tree's one page, whose host refuses
 * any query (found from outside: its `first` and `last` links answered 400).
 */
export function paginated(
  data: Json[],
  total: number,
  perPage: number,
  page: number,
  path: string,
  params: PhpArray,
  bareFirst = false,
): Json {
  const last = Math.max(1, Math.ceil(total / perPage));
  const url = (p: number) => (bareFirst && p === 1 ? path : pageUrl(path, params, p));
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

/**
 * PHP 8's `(int)` cast of a query value: the leading numeric part after whitespace, an exponent
 * included (`"1e1"` is 10, `" 12"` and `"12abc"` are 12, `"1.9"` is 1), 0 when there is none
 * (`"abc"`) or it overflows to infinity; a larger value saturates (PHP: at PHP_INT_MAX; cqa counts
 * in doubles, so at ±2^53).
 */
export function phpInt(v: PhpValue | undefined): number {
  if (typeof v !== 'string') return 0;
  const m = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/.exec(v);
  const n = m ? Number(m[1]) : 0;
  if (!Number.isFinite(n)) return 0;
  return Math.max(-(2 ** 53), Math.min(2 ** 53, Math.trunc(n))) + 0;
}

const PHP_INT_MAX = 2n ** 63n - 1n;

/**
 * The page Laravel's paginator reads (PaginationState: `filter_var($page, FILTER_VALIDATE_INT)`
 * and `>= 1`, else 1): an optional sign, no leading zero, no exponent, within PHP's 64-bit
 * integers (`+2` is 2; `02`, `2.0`, `1e1` and 99999999999999999999 are page 1). A page past 2^53
 * - 1 is answered as that page (cqa counts in doubles): `clamped` says so.
 */
export function phpPage(v: PhpValue | undefined): { page: number; valid: boolean; clamped: boolean; belowOne?: true } {
  if (typeof v !== 'string' || !/^[+-]?(0|[1-9]\d*)$/.test(v) || v.replace(/^[+-]/, '').length > 19 || BigInt(v) > PHP_INT_MAX)
    // An array (`page[]=`) is said where the query is read (a list where v3 reads one value).
    return { page: 1, valid: typeof v !== 'string', clamped: false };
  const n = Number(v);
  if (n < 1) return { page: 1, valid: true, clamped: false, belowOne: true };
  return n > Number.MAX_SAFE_INTEGER
    ? { page: Number.MAX_SAFE_INTEGER, valid: true, clamped: true }
    : { page: n, valid: true, clamped: false };
}

/** The page of a list (entries or files), with a warning when Laravel reads it otherwise than it reads. */
export function readPage(v: PhpValue | undefined, warn: Warnings): number {
  const { page, valid, clamped, belowOne } = phpPage(v);
  if (belowOne) warn.add('page', `page=${String(v)} is below 1: ElmapiCMS answers page 1`);
  if (!valid)
    warn.add(
      'page',
      `page=${String(v).slice(0, 40)} is not an integer Laravel reads (filter_var: digits, an optional sign, no leading zero, at most PHP_INT_MAX): ElmapiCMS answers page 1`,
    );
  if (clamped)
    warn.add('page', `page=${String(v)} is past what cqa counts exactly: answered as page ${page}, an empty page as ElmapiCMS's`);
  return page;
}
