// The request the form describes, as data: composed into the path the page sends (and shows,
// and keeps in its own URL after `#`), and read back from such a path, so a shared link or a
// click on an entry opens the same view. No DOM here: test/http/explorer-query.test.ts runs it
// against the engine. Values are trimmed (each element of a list too); nothing else is changed,
// so a bad value reaches the API and its 400 shows.
import { LIST_OPS, OPERATORS, type Op } from '../../../query/operators.js';

export interface Condition {
  /** whereRelation: the relation field the condition looks through; absent: a where-condition. */
  relation?: string;
  field: string;
  op: Op;
  value: string;
  /**
   * in/not_in: the elements when they came as a list (several picked values, or `[op][]=` in a
   * link): one of them may hold a comma, which `value` (joined by commas) cannot carry.
   */
  values?: string[];
}

export type AnswerKind = 'list' | 'first' | 'count';
export type State = 'published' | 'with_draft' | 'only_draft';
export type Pick = 'all' | 'fields' | 'exclude';

export interface QueryState {
  project: string;
  /**
   * An elmapi3 project: named by the `project-id` header, not in the path (`/api/<collection>`);
   * where-conditions in v3's own grammar (where[rel][field][op] for a related one, where[f][null]).
   */
  v3: boolean;
  collection: string;
  /** One entry (`/api/<p>/<c>/<id>`); empty: the list. */
  entry: string;
  conditions: Condition[];
  /** where[or]: any one condition holds instead of all. */
  any: boolean;
  sort: string;
  desc: boolean;
  limit: string;
  offset: string;
  answer: AnswerKind;
  state: State;
  locale: string;
  timestamps: boolean;
  pick: Pick;
  pickFields: string[];
}

export function emptyQuery(project = '', collection = '', v3 = false): QueryState {
  return {
    project,
    v3,
    collection,
    entry: '',
    conditions: [],
    any: false,
    sort: '',
    desc: false,
    limit: '',
    offset: '',
    answer: 'list',
    state: 'published',
    locale: '',
    timestamps: false,
    pick: 'all',
    pickFields: [],
  };
}

export const FLAG_OPS: ReadonlySet<Op> = new Set(['null', 'not_null']);

/** A value as sent: trimmed, and for a list operator each element trimmed. */
export function trimValue(op: Op, value: string): string {
  return LIST_OPS.has(op)
    ? value
        .split(',')
        .map((v) => v.trim())
        .join(',')
    : value.trim();
}

// Brackets, commas and colons stay readable in the URL; the server reads them either way.
export const enc = (s: string): string =>
  encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%2C/gi, ',').replace(/%3A/gi, ':');

/** The headers the request `q` describes needs besides Accept and the token: an elmapi3 project's `project-id`. */
export const headersOf = (q: QueryState): Record<string, string> => (q.v3 ? { 'project-id': q.project } : {});

/** What the page keeps after `#` for `q`: its path, after `project-id:<uuid>` for an elmapi3 project. */
export const hashOf = (q: QueryState): string => (q.v3 ? `${PROJECT_ID}${q.project}${compose(q)}` : compose(q));
const PROJECT_ID = 'project-id:';

/** The path and query string of the request `q` describes. */
export function compose(q: QueryState): string {
  const out: string[] = [];
  const base = q.v3
    ? `/api/${encodeURIComponent(q.collection)}`
    : `/api/${encodeURIComponent(q.project)}/${encodeURIComponent(q.collection)}`;
  const entry = q.entry.trim();
  if (!entry) {
    let alt = 0;
    const keys = new Set<string>();
    for (const c of q.conditions) {
      let key: string;
      if (c.relation !== undefined)
        key = q.v3 ? `where[${enc(c.relation)}][${enc(c.field)}]` : `whereRelation[${enc(c.relation)}][${enc(c.field)}]`;
      else key = `${q.any ? `where[or][${alt++}]` : 'where'}[${enc(c.field)}]`;
      // One element at a time when one holds a comma — unless another condition has the key: the
      // server would join both lists into one, so it is sent as written and the server says why not.
      const apart = (c.op === 'in' || c.op === 'not_in') && c.values?.some((v) => v.includes(',')) && !keys.has(`${key}[${c.op}]`);
      keys.add(`${key}[${c.op}]`);
      // v3 reads null/not_null as operators whatever their value; cqa as the value of the field.
      if (FLAG_OPS.has(c.op)) out.push(q.v3 ? `${key}[${c.op}]=1` : `${key}=${c.op}`);
      else if (apart) for (const v of c.values ?? []) out.push(`${key}[${c.op}][]=${encodeURIComponent(v.trim())}`);
      else if (c.op === 'eq') out.push(`${key}=${enc(trimValue(c.op, c.value))}`);
      else out.push(`${key}[${c.op}]=${enc(trimValue(c.op, c.value))}`);
    }
    if (q.sort) out.push(`sort=${enc(q.sort)}:${q.desc ? 'desc' : 'asc'}`);
    if (q.limit.trim() !== '') out.push(`limit=${enc(q.limit.trim())}`);
    if (q.offset.trim() !== '') out.push(`offset=${enc(q.offset.trim())}`);
    if (q.answer !== 'list') out.push(q.answer);
  }
  // v3 has one other mode, drafts alone: state=draft.
  if (q.state !== 'published') out.push(`state=${q.v3 && q.state === 'only_draft' ? 'draft' : q.state}`);
  if (!entry && q.locale) out.push(`locale=${enc(q.locale)}`);
  if (q.timestamps) out.push('timestamps');
  if (q.pick !== 'all' && q.pickFields.length) out.push(`${q.pick}=${q.pickFields.map(enc).join(',')}`);
  return (entry ? `${base}/${encodeURIComponent(entry)}` : base) + (out.length ? `?${out.join('&')}` : '');
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

const isOp = (s: string): s is Op => (OPERATORS as readonly string[]).includes(s);

/** `a[b][c]` → ['a', 'b', 'c']; undefined when the key is not of that shape. */
function keyParts(key: string): string[] | undefined {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) return undefined;
  return [m[1] as string, ...[...(m[2] as string).matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1] as string)];
}

/**
 * The form's state for a path the page composed (or one like it), and the parameters it could not
 * put in the form (shown to the person, never dropped silently). Undefined: not an API path.
 */
export function parsePath(hash: string): { query: QueryState; ignored: string[] } | undefined {
  // An elmapi3 project's view: `project-id:<uuid>/api/<collection>…` (hashOf).
  const v3 = hash.startsWith(PROJECT_ID) ? /^project-id:([^/]+)(\/.*)$/s.exec(hash) : undefined;
  if (v3 === null) return undefined;
  const path = v3 ? (v3[2] as string) : hash;
  const [pathname = '', search = ''] = path.split(/\?(.*)/s);
  const m = v3 ? /^\/api\/()([^/]+)(?:\/([^/]+))?$/.exec(pathname) : /^\/api\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/.exec(pathname);
  if (!m) return undefined;
  const q = emptyQuery(v3 ? decode(v3[1] as string) : decode(m[1] as string), decode(m[2] as string), v3 !== undefined);
  q.entry = m[3] === undefined ? '' : decode(m[3]);
  const ignored: string[] = [];
  // in/not_in given one element at a time (`…[in][]=a&…[in][]=b`): one condition, as the server reads it.
  const lists = new Map<string, Condition & { values: string[] }>();
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const listKey = /\[(not_)?in\]\[\]$/.test(key) ? key.slice(0, -2) : undefined;
    const listed = listKey === undefined ? undefined : lists.get(listKey);
    if (listed) {
      listed.values.push(value);
      listed.value = listed.values.join(',');
      continue;
    }
    const [name, ...rest] = keyParts(listKey ?? key) ?? [''];
    const flag = (v: string): Op | undefined => (v === 'null' || v === 'not_null' ? v : undefined);
    let cond: Condition | undefined;
    if (name === 'where' && q.v3) cond = v3Condition(rest, value, q);
    else if (name === 'where' && rest.length >= 1) {
      let field: string | undefined;
      let op: string | undefined;
      if (rest[0] === 'or' && rest.length >= 3 && /^\d*$/.test(rest[1] as string)) {
        q.any = true;
        [field, op] = [rest[2], rest[3]];
        if (rest.length > 4) field = undefined;
      } else if (rest.length <= 2 && rest[0] !== 'or' && rest[0] !== '') {
        [field, op] = [rest[0], rest[1]];
      }
      const o = op === undefined ? (flag(value) ?? 'eq') : op;
      if (field && isOp(o)) cond = { field, op: o, value: FLAG_OPS.has(o) ? '' : value };
    } else if (name === 'whereRelation' && (rest.length === 2 || rest.length === 3)) {
      const o = rest[2] === undefined ? (flag(value) ?? 'eq') : (rest[2] as string);
      if (isOp(o) && rest[0] && rest[1]) cond = { relation: rest[0], field: rest[1], op: o, value: FLAG_OPS.has(o) ? '' : value };
    }
    if (cond) {
      if (listKey !== undefined) {
        const first = { ...cond, values: [value] };
        lists.set(listKey, first);
        cond = first;
      }
      q.conditions.push(cond);
      continue;
    }
    if (rest.length === 0) {
      switch (name) {
        case 'sort': {
          const [first = ''] = value.split(',');
          const [field = '', dir = 'asc'] = first.split(':');
          q.sort = field;
          q.desc = dir.toLowerCase() === 'desc';
          if (value.includes(',')) ignored.push(`sort: only '${first}' is in the form`);
          continue;
        }
        case 'limit':
        case 'offset':
          // The form's number field holds digits only: anything else is named with the rest.
          if (!/^\d*$/.test(value)) break;
          q[name] = value;
          continue;
        case 'first':
        case 'count':
          q.answer = name;
          continue;
        case 'state':
          if (q.v3 && value === 'draft') {
            q.state = 'only_draft';
            continue;
          }
          if (value === 'published' || value === 'with_draft' || value === 'only_draft') {
            q.state = value;
            continue;
          }
          break;
        case 'locale':
          q.locale = value;
          continue;
        case 'timestamps':
          q.timestamps = true;
          continue;
        case 'fields':
        case 'exclude':
          q.pick = name;
          q.pickFields = value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean);
          continue;
      }
    }
    ignored.push(decode(pair));
  }
  return { query: q, ignored };
}

/**
 * A where-condition in v3's grammar (`where[f]`, `where[f][op]`, `where[rel][g]`, `where[rel][g][op]`,
 * any of the first two under `where[or][N]`): the second key tells a field's operator from a
 * related entry's field by being an operator's name, as v3 does.
 */
function v3Condition(keys: readonly string[], value: string, q: QueryState): Condition | undefined {
  let parts = keys;
  const inOr = parts[0] === 'or';
  if (inOr) {
    if (parts.length < 3 || !/^\d*$/.test(parts[1] as string)) return undefined;
    q.any = true;
    parts = parts.slice(2);
  }
  const [a, b, c] = parts;
  const op = (s: string | undefined): Op | undefined => (s !== undefined && isOp(s.toLowerCase()) ? (s.toLowerCase() as Op) : undefined);
  const valued = (o: Op) => (FLAG_OPS.has(o) ? '' : value);
  if (!a || a === 'or' || parts.length > 3) return undefined;
  if (parts.length === 1) return { field: a, op: 'eq', value };
  const second = op(b);
  if (parts.length === 2 && second) return { field: a, op: second, value: valued(second) };
  // A related entry's field: not under where[or] (the form ANDs related conditions with the rest).
  if (inOr || !b) return undefined;
  const third = parts.length === 3 ? op(c) : 'eq';
  return third ? { relation: a, field: b, op: third, value: valued(third) } : undefined;
}
