// Query-string parser with PHP bracket rules (§4.3), written for this engine instead of `qs`:
//
// - `a[b][c]=v` nests; each `[]` appends a new element (`where[][a]=1&where[][b]=2` is two
//   groups); numeric segments (`where[0]`, `where[1]`) address elements explicitly;
// - `+` is a space, percent-encoding is decoded in keys and values (malformed → 400);
// - the same scalar key twice, or a key used both as a value and with brackets, is ambiguous → 400;
// - `__proto__`, `constructor` and `prototype` as a key anywhere → 400 (never dropped);
// - too deep a nesting, or more than MAX_VALUES elements in one list/group → 400.
//
// The tree is built from Maps only, so no key can reach an object prototype. No Node imports.
import { bad } from './problems.js';

export interface PLeaf {
  readonly kind: 'leaf';
  readonly value: string;
  /** The parameter as written (decoded), e.g. `where[price][gt]`, for messages. */
  readonly param: string;
}

export interface PMap {
  readonly kind: 'map';
  readonly entries: Map<string, PNode>;
  /** Canonical path of this node, e.g. `where[or][0]`. */
  readonly param: string;
  /** Next index for `[]` (one more than the largest numeric key so far). */
  next: number;
}

export type PNode = PLeaf | PMap;

/** Largest number of elements in one list or map (§4.4: more than 1,000 values in one list → 400). */
export const MAX_VALUES = 1000;

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** Operators of other query languages, and ours they stand for (for messages that say the fix). */
export const OPERATOR_ALIASES: Readonly<Record<string, string>> = {
  '=': 'eq',
  '==': 'eq',
  '!=': 'not',
  '<>': 'not',
  ne: 'not',
  neq: 'not',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
  nin: 'not_in',
  contains: 'like',
  isnull: 'null',
};

/**
 * `where[price][!=]=9` reaches us as the key `where[price][!` and the value `]=9`: an operator with
 * '=' in it. Answer with the operator meant, instead of "'[' without a closing ']'".
 */
function operatorWithEquals(rawKey: string, rawValue: string): void {
  const open = rawKey.lastIndexOf('[');
  if (open === -1 || rawKey.indexOf(']', open) !== -1 || !rawValue.startsWith(']')) return;
  let key: string;
  try {
    key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
  } catch {
    return;
  }
  const op = `${key.slice(key.lastIndexOf('[') + 1)}=`;
  const base = key.slice(0, key.lastIndexOf('['));
  const alias = Object.hasOwn(OPERATOR_ALIASES, op) ? OPERATOR_ALIASES[op] : undefined;
  bad(
    'unknown_operator',
    `${base}[${op}]: unknown operator '${op}'${alias ? `; write ${base}[${alias}]=${rawValue.slice(2)}` : ''} (operators are words: eq, not, lt, lte, gt, gte, …)`,
    `${base}[${op}]`,
  );
}

/**
 * How many bracket segments a parameter may have: `where[or][n][f][op]` is 4, plus one more when
 * the last one is a list element (`…[in][]` or `…[in][3]`). `whereRelation[rel]` adds one level.
 */
const MAX_DEPTH = new Map([
  ['where', 4],
  ['whereRelation', 5],
]);

const NUMERIC_KEY = /^(?:0|[1-9][0-9]{0,8})$/;

export function isIndexKey(key: string): boolean {
  return NUMERIC_KEY.test(key);
}

function decode(text: string, param: string): string {
  const plus = text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  if (plus.indexOf('%') === -1) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return bad('malformed_query', `${param}: malformed percent-encoding; encode '%' as %25 and use valid UTF-8 sequences`, param);
  }
}

/** Splits `where[a][][b]` into the base name and its segments ('' for `[]`). */
function splitKey(key: string): { base: string; segments: string[] } {
  const open = key.indexOf('[');
  if (open === -1) {
    if (key.indexOf(']') !== -1) bad('malformed_query', `${key}: unbalanced ']' in the parameter name`, key);
    return { base: key, segments: [] };
  }
  const base = key.slice(0, open);
  const segments: string[] = [];
  let i = open;
  while (i < key.length) {
    if (key[i] !== '[') {
      bad('malformed_query', `${key}: unexpected text after ']' — write parameters as name[key][key]=value`, key);
    }
    const close = key.indexOf(']', i + 1);
    if (close === -1) bad('malformed_query', `${key}: '[' without a closing ']'`, key);
    segments.push(key.slice(i + 1, close));
    i = close + 1;
  }
  return { base, segments };
}

function forbidden(name: string, param: string): void {
  if (FORBIDDEN.has(name)) {
    bad('forbidden_key', `${param}: '${name}' is not allowed as a key (prototype pollution guard); rename or remove it`, param);
  }
}

function newMap(param: string): PMap {
  return { kind: 'map', entries: new Map(), param, next: 0 };
}

function duplicate(param: string): never {
  return bad(
    'duplicate_parameter',
    `${param}: given more than once or both as a value and with brackets; give each key once (use [] to list several values)`,
    param,
  );
}

/** Parses the raw query string (after `?`, still percent-encoded) into a tree of Maps. */
export function parseQuery(raw: string): PMap {
  const root = newMap('');
  if (raw === '') return root;
  for (const piece of raw.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const rawKey = eq === -1 ? piece : piece.slice(0, eq);
    const rawValue = eq === -1 ? '' : piece.slice(eq + 1);
    operatorWithEquals(rawKey, rawValue);
    const key = decode(rawKey, rawKey);
    const value = decode(rawValue, key);
    const { base, segments } = splitKey(key);
    forbidden(base, key);
    for (const s of segments) forbidden(s, key);
    const maxDepth = MAX_DEPTH.get(base);
    if (maxDepth !== undefined && segments.length > maxDepth) {
      const last = segments[segments.length - 1] as string;
      const listElement = last === '' || isIndexKey(last);
      if (segments.length > maxDepth + 1 || !listElement) {
        bad(
          'too_deep',
          `${key}: nested too deeply; the deepest form is ${base === 'where' ? 'where[or][n][field][op]' : 'whereRelation[relation][or][n][field][op]'} (plus [] for list values)`,
          key,
        );
      }
    }
    insert(root, base, segments, value, key);
  }
  return root;
}

function insert(root: PMap, base: string, segments: readonly string[], value: string, key: string): void {
  let node = root;
  const names = [base, ...segments];
  let path = '';
  for (let i = 0; i < names.length; i++) {
    let name = names[i] as string;
    if (i > 0 && name === '') {
      name = String(node.next);
    }
    if (node.entries.size >= MAX_VALUES && !node.entries.has(name)) {
      bad('too_many_values', `${path || key}: more than ${MAX_VALUES} values or groups in one list`, path || key);
    }
    if (isIndexKey(name)) {
      const n = Number(name);
      if (n >= node.next) node.next = n + 1;
    }
    path = i === 0 ? name : `${path}[${name}]`;
    const existing = node.entries.get(name);
    if (i === names.length - 1) {
      if (existing) duplicate(existing.kind === 'leaf' ? existing.param : key);
      node.entries.set(name, { kind: 'leaf', value, param: key });
    } else {
      if (existing && existing.kind === 'leaf') duplicate(key);
      let child = existing as PMap | undefined;
      if (!child) {
        child = newMap(path);
        node.entries.set(name, child);
      }
      node = child;
    }
  }
}
