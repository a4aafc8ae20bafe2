// A query string read the way ElmapiCMS reads it: PHP's parse_str (brackets nest, `a[]=` appends,
// a repeated key without `[]` keeps only its last value), then Laravel's TrimStrings and
// ConvertEmptyStringsToNull (values trimmed, '' → null). Arrays are Maps: PHP arrays keep their
// keys in insertion order, numeric ones too (a JS object would move them first). What PHP drops
// silently is noted, so the mock can say so (X-Cqa-Warning). Bounded like PHP: at most
// MAX_VARS pairs and MAX_DEPTH levels. No Node imports.

export type PhpValue = string | null | PhpArray;
export type PhpArray = Map<string, PhpValue>;

/** PHP's max_input_vars and max_input_nesting_level defaults. */
export const MAX_VARS = 1000;
export const MAX_DEPTH = 64;

export interface PhpQuery {
  readonly params: PhpArray;
  /** Keys PHP collapsed: the name as written (decoded) → every value sent, in order. */
  readonly collapsed: ReadonlyMap<string, readonly string[]>;
  /** Other things PHP silently dropped or changed, worded for a warning. */
  readonly dropped: readonly string[];
}

function decode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // PHP decodes what it can and leaves a broken escape as it is.
    return plus.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** Laravel's TrimStrings (it trims Unicode spaces too) and ConvertEmptyStringsToNull. */
function normalise(value: string): string | null {
  const trimmed = value.replace(
    /^[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$/g,
    '',
  );
  return trimmed === '' ? null : trimmed;
}

/** `where[price][gt]` → ['where', 'price', 'gt']; `a[]` → ['a', '']; as PHP's php_register_variable_ex cuts it. */
export function splitKey(raw: string): string[] | undefined {
  let i = raw.indexOf('[');
  let top = i < 0 ? raw : raw.slice(0, i);
  // Leading spaces are dropped; `.` and ` ` in the top-level name become `_`.
  top = top.replace(/^ +/, '');
  if (top === '') return undefined;
  const parts: string[] = [];
  if (i >= 0 && raw.indexOf(']', i) < 0) {
    // An unmatched `[`: PHP makes it `_` and keeps the rest as part of the name.
    return [`${top}_${raw.slice(i + 1)}`.replace(/[. ]/g, '_')];
  }
  parts.push(top.replace(/[. []/g, '_'));
  while (i >= 0 && raw[i] === '[') {
    const close = raw.indexOf(']', i);
    if (close < 0) break;
    parts.push(raw.slice(i + 1, close));
    i = close + 1;
    if (raw[i] !== '[') break;
  }
  return parts;
}

function nextIndex(arr: PhpArray): string {
  let max = -1;
  for (const k of arr.keys()) if (/^(0|-?[1-9][0-9]*)$/.test(k) && Number(k) > max) max = Number(k);
  return String(max + 1);
}

export function parsePhpQuery(query: string): PhpQuery {
  const params: PhpArray = new Map();
  const seen = new Map<string, string[]>();
  const dropped: string[] = [];
  const pairs = query === '' ? [] : query.split('&');
  let count = 0;
  for (const pair of pairs) {
    if (pair === '') continue;
    if (++count > MAX_VARS) {
      dropped.push(`more than ${MAX_VARS} query parameters: PHP (max_input_vars) reads only the first ${MAX_VARS}`);
      break;
    }
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = normalise(decode(eq < 0 ? '' : pair.slice(eq + 1)));
    const parts = splitKey(name);
    if (!parts) continue;
    if (parts.length > MAX_DEPTH) {
      dropped.push(`'${name.slice(0, 60)}' nests deeper than ${MAX_DEPTH} levels: PHP drops it`);
      continue;
    }
    let arr = params;
    for (let k = 0; k < parts.length - 1; k++) {
      let key = parts[k] as string;
      if (key === '') key = nextIndex(arr);
      const cur = arr.get(key);
      if (cur instanceof Map) arr = cur;
      else {
        const fresh: PhpArray = new Map();
        arr.set(key, fresh);
        arr = fresh;
      }
    }
    const last = parts[parts.length - 1] as string;
    if (last === '') arr.set(nextIndex(arr), value);
    else {
      if (parts.every((p) => p !== '')) {
        const list = seen.get(name) ?? [];
        list.push(value ?? '');
        seen.set(name, list);
      }
      arr.set(last, value);
    }
  }
  const collapsed = new Map([...seen].filter(([, values]) => values.length > 1));
  return { params, collapsed, dropped };
}

/** The value at `key` as Laravel's `$request->input(key)` would give a string parameter. */
export function str(params: PhpArray, key: string): string | null | undefined {
  const v = params.get(key);
  return v instanceof Map ? undefined : v;
}

/** `explode(',', …)` of a string, or the values of an array (`a[]=x&a[]=y`); trimmed, empties dropped. */
export function list(value: PhpValue | undefined): string[] {
  if (value === undefined || value === null) return [];
  const items = value instanceof Map ? [...value.values()].filter((v): v is string => typeof v === 'string') : value.split(',');
  return items.map((s) => s.trim()).filter((s) => s !== '');
}

/** Laravel's Arr::flatten of a PHP array: its leaves in order (where() binds the first of them). */
export function flatten(value: PhpArray): (string | null)[] {
  return [...value.values()].flatMap((v) => (v instanceof Map ? flatten(v) : [v]));
}
