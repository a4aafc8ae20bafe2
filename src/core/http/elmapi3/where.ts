// `where` as ElmapiCMS v3 applies it (sheet §3): nothing is validated, conditions on different
// fields AND, numeric groups AND, `where[or]` ORs its conditions, relation filters inside `where`.
// Per value-row semantics copied from ContentController: numbers ignore `in`/`not`, dates match
// nothing, `like` is an ASCII case-blind substring with SQL wildcards. What the real API silently
// ignores is reported through `warn`. No Node imports.
import type { FieldDef, FieldValue } from '../../model/model.js';
import type { EntrySnapshot } from '../../model/types.js';
import { Budget, LIKE_CALL_COST, SEGMENT_COST } from '../../query/cost.js';
import { ProblemError, problem } from '../../query/problems.js';
import { type LikeRules, likeMatcher } from '../../query/like.js';
import { likeWholeMatcher } from '../../query/like-whole.js';
import { fieldValue } from '../../query/table.js';
import { flatten, list, type PhpArray, type PhpValue } from './php-query.js';
import type { CollectionIndex, ProjectIndex } from './project-index.js';
import type { Warnings } from './warnings.js';
import { closestName } from '../../suggest.js';

export type Test = (e: EntrySnapshot) => boolean;

export const V3_OPERATORS = ['eq', 'lt', 'lte', 'gt', 'gte', 'not', 'like', 'in', 'not_in', 'null', 'not_null', 'between', 'not_between'];
const CORE = ['id', 'uuid', 'locale', 'state', 'created_at', 'updated_at', 'published_at'];
/** Operators that take several values (`a,b` or `[]=a&[]=b`); the others compare one. */
const V3_LIST_OPS = new Set(['in', 'not_in', 'between', 'not_between', 'null', 'not_null']);
/** The ones whose values are compared (null / not_null ignore theirs). */
const SPLIT_OPS = new Set(['in', 'not_in', 'between', 'not_between']);
const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const BOOLISH = /^(true|false|1|0)$/i;
/** PHP 8's is_numeric: a where key such as `0` (or `1.5`, ` 2`) makes a group. */
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/**
 * The values of a list operator as ContentController takes them: an array's items (each trimmed by
 * Laravel's TrimStrings, an empty one null by ConvertEmptyStringsToNull), or `explode(',', v)` with
 * no trim and no empties dropped — for `in` and `between` on every column and `not_in` on a core
 * column (`not_in` on a field trims and drops empties itself: that one is `list()`). A space after
 * a comma stays part of the value; said.
 */
function exploded(raw: PhpValue | undefined, op: string, param: string, c: Ctx): (string | null)[] {
  if (raw === undefined || raw === null) return [];
  if (raw instanceof Map) return [...raw.values()].filter((v): v is string | null => !(v instanceof Map));
  const items = raw.split(',');
  const spaced = items.filter((x) => x !== x.trim());
  const numericRange = (op === 'between' || op === 'not_between') && items.slice(0, 2).every((x) => NUMERIC.test(x));
  if (spaced.length > 0 && !numericRange)
    c.warn.add(
      param,
      `ElmapiCMS splits ${param} at commas without trimming: ${spaced.map((x) => `'${x}'`).join(', ')} keeps its spaces and matches as written; send ${items.map((x) => x.trim()).join(',')}`,
    );
  return items;
}

interface Ctx {
  readonly col: CollectionIndex;
  readonly index: ProjectIndex;
  readonly warn: Warnings;
  /** Draft mode: related drafts count (else, as cqa promises, a filter never tells a draft is there). */
  readonly drafts: boolean;
  /** The request's work so far: a query over it is refused (cost.ts). */
  readonly budget: Budget;
}

/** SQLite's LIKE: `%` any run, `_` one character, ASCII letters case-blind, no escape character. */
const SQLITE_LIKE: LikeRules = { fold: (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase()), escapes: false };

/**
 * `pattern` compiled once (the linear matcher of src/core/query/like.ts); each test spends its
 * cost from the request's budget, so no pattern holds the server (docs/security.md#query-cost).
 */
function likeTest(pattern: string, budget: Budget, whole = false): (text: string) => boolean {
  const match = whole ? likeWholeMatcher(pattern, SQLITE_LIKE) : likeMatcher(pattern, SQLITE_LIKE);
  const { shape } = match;
  const call = LIKE_CALL_COST + SEGMENT_COST * shape.segments;
  return (text) => {
    budget.spend(call + text.length * shape.perChar);
    return match(SQLITE_LIKE.fold(text));
  };
}

function cmp(op: string, a: string | number, b: string | number): boolean {
  switch (op) {
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    default:
      return a === b;
  }
}

/**
 * `t [NOT] BETWEEN lo AND hi` on text, as SQL answers it with a NULL bound: BETWEEN is then never
 * true, and NOT BETWEEN (t < lo OR t > hi) is true only by the side whose bound is there.
 */
function textBetween(op: string, t: string, lo: string | null, hi: string | null): boolean {
  if (op === 'between') return lo !== null && hi !== null && t >= lo && t <= hi;
  return (lo !== null && t < lo) || (hi !== null && t > hi);
}

/**
 * `between=10,` / `between=,10` / `between[]=10&between[]=`: v3 has no open-ended range; an empty
 * bound is '' (or NULL) and is compared as such. Said with which bound is missing, what v3 then
 * answers, and the operator that says an open range.
 */
function warnOpenBound(
  op: string,
  values: readonly (string | null)[],
  param: string,
  c: Ctx,
  on: { name: string; number?: boolean },
): void {
  const [lo, hi] = values as [string | null, string | null];
  const loMissing = lo === null || lo === '';
  const hiMissing = hi === null || hi === '';
  if (!loMissing && !hiMissing) return;
  const base = param.replace(/\[[a-z_]+\]$/i, '');
  const q = (x: string | null) => (x === null ? 'NULL' : `'${x}'`);
  const which = loMissing && hiMissing ? 'no bounds' : loMissing ? 'no lower bound' : 'no upper bound';
  const item = loMissing && hiMissing ? 'both items are empty' : `its ${loMissing ? 'first' : 'second'} item is empty`;
  const sql = `${op === 'between' ? 'BETWEEN' : 'NOT BETWEEN'} ${q(lo)} AND ${q(hi)}`;
  const open =
    loMissing && hiMissing
      ? undefined
      : `${base}[${op === 'between' ? (loMissing ? 'lte' : 'gte') : loMissing ? 'gt' : 'lt'}]=${loMissing ? hi : lo}`;
  let effect: string;
  if (on.number)
    effect = `it compares text_value ${sql} on number field '${on.name}' (number_value only when both bounds are numbers), which no number has: no entry matches`;
  else {
    // What the text comparison comes to: every text is > '' and none is < ''.
    let reads: string | undefined;
    let all = false;
    if (op === 'between') reads = !hiMissing && lo === '' ? `${base}[lte]=${hi}` : undefined;
    else if (hi === '') all = true;
    else reads = !loMissing ? `${base}[lt]=${lo}` : !hiMissing ? `${base}[gt]=${hi}` : undefined;
    effect = `it compares ${on.name} ${sql}, ${all ? 'which every entry with a value passes' : reads ? `which comes to ${reads}` : 'which no entry matches'}`;
  }
  c.warn.add(
    param,
    `${param} has ${which} (${item}), and ElmapiCMS has no open-ended range: ${effect}; ${open ? `for an open range send ${open}` : 'send both bounds (min,max) or leave the condition out'}`,
  );
}

/** A stored value's rows: each has at most one of text / number / boolean / json (a date has none usable). */
interface Row {
  readonly text?: string;
  readonly number?: number;
  readonly bool?: boolean;
  readonly json?: readonly FieldValue[];
  readonly date?: true;
}

function rowsOf(f: FieldDef, v: FieldValue | undefined): Row[] {
  if (v === undefined || v === null || v === '') return [];
  if (f.type === 'enumeration') return [{ json: Array.isArray(v) ? v : [v] }];
  if (f.type === 'json') return [{ json: Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v) : [v] }];
  if (f.type === 'date' || f.type === 'datetime') return [{ date: true }];
  if (f.type === 'group') return [{ json: [] }];
  const items = Array.isArray(v) ? v : [v];
  return items.map((x) => (typeof x === 'number' ? { number: x } : typeof x === 'boolean' ? { bool: x } : { text: String(x) }));
}

const jsonHas = (row: Row, w: string) => row.json?.some((x) => (typeof x === 'string' ? x === w : false)) ?? false;

/** `like` on a value: as a substring of text (`%v%`), or a number's digits as SQL LIKE reads `v` without added wildcards. */
interface LikeTests {
  readonly contains: (text: string) => boolean;
  readonly whole: (text: string) => boolean;
}

/** The condition `op v` on one value row (sheet §3.3). */
function rowMatches(row: Row, op: string, v: string | null, values: readonly (string | null)[], like?: LikeTests): boolean {
  const value = v ?? '';
  switch (op) {
    case 'like':
      return (
        (row.text !== undefined && like?.contains(row.text) === true) ||
        jsonHas(row, value) ||
        (NUMERIC.test(value) && row.number !== undefined && like?.whole(String(row.number)) === true) ||
        (BOOLISH.test(value) && row.bool !== undefined && row.bool === /^(true|1)$/i.test(value))
      );
    case 'in':
      // An empty array item (null) is where('text_value', '=', null): whereNull, true of a row without text.
      return values.some((w) => (w === null ? row.text === undefined : row.text === w || jsonHas(row, w)));
    case 'between':
    case 'not_between': {
      // A bound may be '' (between=10,) or null (between[]=10&between[]=): number_value is compared
      // only when both are numeric, and SQL's BETWEEN with a NULL bound is never true.
      const [lo, hi] = values as [string | null, string | null];
      if (lo !== null && hi !== null && NUMERIC.test(lo) && NUMERIC.test(hi) && row.number !== undefined)
        return op === 'between' ? row.number >= Number(lo) && row.number <= Number(hi) : row.number < Number(lo) || row.number > Number(hi);
      return row.text !== undefined && textBetween(op, row.text, lo, hi);
    }
    default:
      return (
        (row.text !== undefined && cmp(op, row.text, value)) ||
        (op === 'eq' && jsonHas(row, value)) ||
        (NUMERIC.test(value) && row.number !== undefined && cmp(op, row.number, Number(value))) ||
        (BOOLISH.test(value) && row.bool !== undefined && cmp(op, Number(row.bool), /^(true|1)$/i.test(value) ? 1 : 0))
      );
  }
}

/**
 * Where a `where` name finds its values on an entry. v3 matches value rows by field name
 * (`whereHas('field', name = …)` over the entry's `fieldValues`), and a group's children keep their
 * rows on the entry too (ContentFieldValue with a group_instance_id): `where[sku]` reads the
 * top-level field `sku` and every group child named `sku`, in every instance.
 */
interface Source {
  readonly def: FieldDef;
  readonly values: (e: EntrySnapshot) => FieldValue[];
}

function topLevel(f: FieldDef): Source {
  return {
    def: f,
    values: (e) => {
      const v = fieldValue(e, f.name);
      return v === undefined ? [] : [v];
    },
  };
}

function groupChild(group: FieldDef, child: FieldDef): Source {
  return {
    def: child,
    values: (e) => {
      const v = fieldValue(e, group.name);
      const out: FieldValue[] = [];
      for (const instance of Array.isArray(v) ? v : [v])
        if (instance !== null && typeof instance === 'object' && !Array.isArray(instance) && Object.hasOwn(instance, child.name))
          out.push(instance[child.name] as FieldValue);
      return out;
    },
  };
}

const rowsIn = (sources: readonly Source[], e: EntrySnapshot): Row[] =>
  sources.flatMap((s) => s.values(e).flatMap((v) => rowsOf(s.def, v)));

/** One operator on a custom (non-relation) field: the first source's type decides the warnings. */
function fieldTest(sources: readonly Source[], op: string, raw: PhpValue | undefined, param: string, c: Ctx): Test {
  const f = (sources[0] as Source).def;
  const v = raw instanceof Map ? null : (raw ?? null);
  const values = op === 'not_in' ? list(raw) : SPLIT_OPS.has(op) ? exploded(raw, op, param, c) : [];
  const nullItem = op === 'in' && values.includes(null);
  // not_in with no item left (not_in=, not_in=',', not_in[]=): whereDoesntHave(the field's rows).
  const noneLeft = op === 'not_in' && values.length === 0;
  if (op === 'in' || op === 'not_in') warnEmptyItems(raw, op, param, c, f);
  if (f.type === 'date' || f.type === 'datetime') {
    if (op !== 'null' && op !== 'not_null' && !nullItem && !noneLeft)
      c.warn.add(
        param,
        `ElmapiCMS cannot filter date field '${f.name}' (its values live in a date column no operator reads): ${op === 'not' || op === 'not_in' ? 'every entry passes' : 'no entry matches'}; filter on created_at/published_at or a text field instead`,
      );
  }
  if (f.type === 'number' && ((op === 'in' && !nullItem) || op === 'not' || (op === 'not_in' && !noneLeft))) {
    c.warn.add(
      param,
      `ElmapiCMS compares '${op}' on text only: on number field '${f.name}' ${op === 'in' ? 'no entry matches' : 'no entry is excluded'}; use where[${f.name}][between]=min,max or one where[or][N][${f.name}]=value per value`,
    );
  }
  if (f.type === 'number' && op === 'like')
    c.warn.add(
      param,
      `ElmapiCMS compares 'like' on number field '${f.name}' as number_value LIKE '${v ?? ''}' without wildcards: the whole number matches, not a part of it (9 matches 9, not 19); there is no substring match on numbers`,
    );
  if (f.type === 'enumeration' && op === 'like')
    c.warn.add(
      param,
      `ElmapiCMS stores enumeration field '${f.name}' as a JSON list, which 'like' matches by whole values only: '${v ?? ''}' matches an entry holding exactly that value, not a part of one; use where[${f.name}]=value, or [in] for several`,
    );
  if (f.type === 'boolean' && op === 'not')
    c.warn.add(
      param,
      `ElmapiCMS compares 'not' on text only: on boolean field '${f.name}' no entry is excluded; use where[${f.name}]=${'true|false'}`,
    );
  if ((op === 'between' || op === 'not_between') && values.length < 2) {
    c.warn.add(
      param,
      `${param} needs two values ('min,max'); with ${values.length === 0 ? 'none' : `only '${values[0]}'`} ElmapiCMS only checks that '${f.name}' has a value: send ${param}=min,max`,
    );
    return (e) => rowsIn(sources, e).length > 0;
  }
  if ((op === 'between' || op === 'not_between') && f.type !== 'date' && f.type !== 'datetime')
    warnOpenBound(op, values, param, c, { name: f.name, number: f.type === 'number' });
  if (op === 'not') return (e) => !rowsIn(sources, e).some((r) => r.text === (v ?? '') || jsonHas(r, v ?? ''));
  if (noneLeft) return (e) => rowsIn(sources, e).length === 0;
  if (op === 'not_in') return (e) => !rowsIn(sources, e).some((r) => values.some((w) => w !== null && (r.text === w || jsonHas(r, w))));
  if (op === 'null')
    return (e) =>
      rowsIn(sources, e).some(
        (r) => r.date === undefined && r.text === undefined && r.number === undefined && r.bool === undefined && r.json === undefined,
      );
  if (op === 'not_null') return (e) => rowsIn(sources, e).length > 0;
  const like = op === 'like' ? { contains: likeTest(`%${v ?? ''}%`, c.budget), whole: likeTest(v ?? '', c.budget, true) } : undefined;
  return (e) => rowsIn(sources, e).some((r) => (r.date === undefined || nullItem) && rowMatches(r, op, v, values, like));
}

/** Field types whose value rows are text (text_value IS NULL is never true of them). */
const TEXT_TYPES = new Set(['text', 'longtext', 'markdown', 'richtext', 'slug', 'email', 'color', 'time']);

/**
 * An empty item in an in / not_in list, said: `a,,b` (or a trailing comma, or no value at all:
 * explode(',', null) is ['']) is the value '', which ElmapiCMS never stores; `[]=` is null, which
 * where('text_value', '=', null) reads as IS NULL on a field, and which SQL's IN / NOT IN never
 * match (NOT IN (…, NULL) is never true); not_in on a field trims and drops both
 * (ContentController: array_filter(array_map('trim', …))), and with none left excludes every
 * entry that has a value.
 */
function warnEmptyItems(raw: PhpValue | undefined, op: string, param: string, c: Ctx, f?: FieldDef, core?: string): void {
  if (raw === undefined) return;
  const items = raw === null ? [''] : raw instanceof Map ? [...raw.values()].filter((v) => !(v instanceof Map)) : raw.split(',');
  const blank = items.includes('');
  const nul = items.includes(null);
  if (!blank && !nul) return;
  const rest = items.filter((x): x is string => typeof x === 'string' && x !== '');
  const what = items.length === 1 ? (raw === null ? 'has no value' : 'has only an empty item') : 'has an empty item';
  const base = param.replace(/\[[a-z_]+\]$/i, '');
  const send = rest.length > 0 ? `send ${param}=${rest.join(',')}` : 'send the values, or leave the condition out';
  if (f && op === 'not_in') {
    c.warn.add(
      param,
      rest.length > 0
        ? `${param} ${what}: ElmapiCMS drops the empty items of not_in on a field (trim, then array_filter); ${send}`
        : `${param} ${what}: ElmapiCMS drops the empty items of not_in on a field (trim, then array_filter), and with none left excludes every entry that has a value for '${f.name}': only the entries without one pass; ${send}`,
    );
    return;
  }
  if (blank)
    c.warn.add(
      param,
      core
        ? `${param} ${what}: ElmapiCMS compares ${core} with '', which no entry has, so it ${op === 'in' ? (rest.length > 0 ? 'adds nothing' : 'matches no entry') : 'excludes nothing'}; ${send}`
        : `${param} ${what}: ElmapiCMS compares it as the value '' (text_value = '' or a JSON list holding ''), which it never stores, so it ${rest.length > 0 ? 'adds nothing' : 'matches no entry'}; ${send}`,
    );
  if (!nul) return;
  if (core)
    c.warn.add(
      param,
      op === 'in'
        ? `${param} ${what} (${param}[]= with no value: NULL), and ${core} IN (…, NULL) never matches the NULL: it ${rest.length > 0 ? 'adds nothing' : 'matches no entry'}; ${send}`
        : `${param} ${what} (${param}[]= with no value: NULL), and ${core} NOT IN (…, NULL) is never true in SQL: ElmapiCMS matches no entry; ${send}`,
    );
  else if (f)
    c.warn.add(
      param,
      `${param} ${what} (${param}[]= with no value: NULL), which Laravel compares as text_value IS NULL: ${
        TEXT_TYPES.has(f.type)
          ? `never true of text field '${f.name}', so it ${rest.length > 0 ? 'adds nothing' : 'matches no entry'}; ${send}`
          : `true of every value of ${f.type} field '${f.name}', so every entry with one matches${rest.length > 0 ? `, whatever the other items; ${send}` : `; for entries with a value send ${base}[not_null]`}`
      }`,
    );
}

/** A core column (sheet §3.2): compared as stored, timestamps as `Y-m-d H:i:s` text. */
function coreTest(name: string, op: string, raw: PhpValue | undefined, param: string, c: Ctx): Test {
  const v = raw instanceof Map ? null : (raw ?? null);
  const values = SPLIT_OPS.has(op) ? exploded(raw, op, param, c) : [];
  if (op === 'in' || op === 'not_in') warnEmptyItems(raw, op, param, c, undefined, name);
  const col = (e: EntrySnapshot): string | null => {
    const r = e.record;
    switch (name) {
      case 'uuid':
        return r.id;
      case 'locale':
        return r.locale;
      case 'state':
        return r.draft ? 'draft' : 'published';
      case 'created_at':
      case 'updated_at':
      case 'published_at': {
        const t = r[name];
        return t === null ? null : `${t.slice(0, 10)} ${t.slice(11, 19)}`;
      }
      default:
        return null;
    }
  };
  if (name === 'id') c.warn.add(param, `'id' is ElmapiCMS's internal integer id, which no answer shows: filter on uuid instead`);
  if (name === 'state' && op === 'eq' && (v === 'draft' || v === 'published') && v !== (c.drafts ? 'draft' : 'published'))
    c.warn.add(
      param,
      `${param}=${v} is ANDed with the state parameter (${c.drafts ? 'state=draft: drafts only' : 'absent: published only'}), so ElmapiCMS matches no entry; ${v === 'draft' ? 'send state=draft to list drafts' : 'leave state=draft out to list published entries'}`,
    );
  if (name.endsWith('_at')) warnTimeValues(name, op, V3_LIST_OPS.has(op) ? values : v === null ? [] : [v], param, c);
  if ((op === 'between' || op === 'not_between') && values.length < 2) {
    c.warn.add(
      param,
      `${param} needs two values ('min,max'): with one, ElmapiCMS on SQLite matches nothing (on MySQL it is a 500); send ${param}=min,max`,
    );
    return () => false;
  }
  if (op === 'between' || op === 'not_between') warnOpenBound(op, values, param, c, { name });
  if (raw === null && op !== 'eq' && op !== 'not' && COMPARE_OPS.has(op))
    crash(
      param,
      `${param} has no value: Laravel refuses '${op}' with null (Illegal operator and value combination), a 500 in ElmapiCMS; send a value`,
    );
  if (raw === null && op === 'eq')
    c.warn.add(
      param,
      `${param} has no value, which ElmapiCMS reads as whereNull('${name}'): only entries without a ${name} match; send ${param.replace(/\[eq\]$/i, '')}[null] to say so`,
    );
  const like = op === 'like' ? likeTest(`%${v ?? ''}%`, c.budget) : undefined;
  return (e) => {
    const x = col(e);
    switch (op) {
      case 'null':
        return x === null;
      case 'not_null':
        return x !== null;
      case 'not':
        return x !== null && x !== v;
      case 'like':
        return x !== null && (like as (text: string) => boolean)(x);
      case 'in':
        return x !== null && values.includes(x);
      case 'not_in':
        // NOT IN (…, NULL) is never true in SQL.
        return x !== null && !values.includes(x) && !values.includes(null);
      case 'between':
      case 'not_between':
        return x !== null && textBetween(op, x, values[0] ?? null, values[1] ?? null);
      default:
        // where(col, '=', null) is whereNull (the other operators with null are refused above).
        return v === null ? x === null : x !== null && cmp(op, x, v);
    }
  };
}

/**
 * Timestamps are stored as `YYYY-MM-DD HH:MM:SS` (UTC) and compared as text on SQLite (sheet
 * §3.2): an ISO value (how the SDK sends a Date), a day alone under `eq`/`in`, and a day as an
 * upper bound silently match otherwise than meant.
 */
function warnTimeValues(name: string, op: string, values: readonly (string | null)[], param: string, c: Ctx): void {
  const base = param.replace(/\[[a-z_]+\]$/i, (m) => (m.toLowerCase() === `[${op}]` ? '' : m));
  values.forEach((t, i) => {
    if (t === null) return;
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(t)) {
      const ms = Date.parse(t);
      const utc = Number.isNaN(ms) ? `${t.slice(0, 10)} ${t.slice(11, 19)}` : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
      c.warn.add(
        param,
        `'${t}' is ISO 8601 (how a JavaScript Date is sent), but ElmapiCMS stores ${name} as 'YYYY-MM-DD HH:MM:SS' (UTC) and compares it as text, where '${t.slice(0, 10)} 23:59:59' sorts before '${t.slice(0, 10)}T00:00:00': send '${utc}' (the same time in UTC)`,
      );
      return;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(t)) return;
    const ms = Date.parse(`${t}T00:00:00Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== t) {
      c.warn.add(param, `'${t}' is no date: ElmapiCMS compares it as text all the same`);
      return;
    }
    const next = new Date(ms + 86_400_000).toISOString().slice(0, 10);
    if (op === 'eq' || op === 'in')
      c.warn.add(
        param,
        `${op} compares the whole 'YYYY-MM-DD HH:MM:SS' of ${name}: the day '${t}' alone matches no entry; for that day send ${base}[gte]=${t}&${base}[lt]=${next}`,
      );
    else if (op === 'not' || op === 'not_in')
      c.warn.add(
        param,
        `${op} compares the whole 'YYYY-MM-DD HH:MM:SS' of ${name}: the day '${t}' alone excludes no entry; to leave that day out, ${dayLeftOut(base, t, next)}`,
      );
    else if (op === 'lte' || ((op === 'between' || op === 'not_between') && i === 1))
      c.warn.add(
        param,
        `the day '${t}' as the upper bound is compared as text, below every time of that day ('${t} 09:00:00' > '${t}'): ${op === 'lte' ? `send ${base}[lt]=${next}` : `send ${t} 23:59:59 as the upper bound`}`,
      );
  });
}

/**
 * "Before the day or from the next one", as v3 can say it: two members of a where[or] block. Inside
 * one already, the pair joins it (v3 nests no where[or]); elsewhere it is a block of its own, which
 * a request holds only one of.
 */
function dayLeftOut(base: string, day: string, next: string): string {
  // where[or][…], with or without a member index (v3 reads no where[or] inside a numeric group).
  const inOr = /^(where\[or\])(\[\d+\])?/.exec(base);
  if (inOr) {
    const or = inOr[1] as string;
    const rest = base.slice(inOr[0].length);
    return `replace it in this where[or] with ${or}[<an index>]${rest}[lt]=${day}&${or}[<another index>]${rest}[gte]=${next}`;
  }
  const rest = base.replace(/^where(\[\d+\])?/, ''); // a numeric group: the block takes the field itself
  return `send where[or][0]${rest}[lt]=${day}&where[or][1]${rest}[gte]=${next} (one where[or] per request)`;
}

const isOperator = (k: string) => V3_OPERATORS.includes(k.toLowerCase());

/** The tests of `where[name]…` (one field, an operator map, or a relation filter). */
function conditions(name: string, value: PhpValue, prefix: string, c: Ctx, relationOf?: { target: CollectionIndex }): Test[] {
  const fields = (relationOf?.target ?? c.col).snap.fields;
  const param = `${prefix}[${name}]`;
  const f = fields.get(name);
  const isCore = CORE.includes(name);
  const shown = (x: FieldDef) => !x.hidden && x.type !== 'password';
  // Group children of that name: their value rows are the entry's too (v3 matches rows by name).
  const children = isCore
    ? []
    : [...fields.values()].flatMap((g) =>
        g.type === 'group' && !g.hidden ? (g.fields ?? []).filter((x) => x.name === name).map((x) => ({ group: g, child: x })) : [],
      );
  if (!f && !isCore && children.length === 0) {
    const known = [...fields.values()].filter((x) => !x.hidden).map((x) => x.name);
    const near = closestName(name, [...known, ...CORE]);
    c.warn.add(
      param,
      `no field '${name}' in collection '${(relationOf?.target ?? c.col).snap.record.slug}' (fields: ${known.join(', ') || 'none'}; core: uuid, locale, state, created_at, updated_at, published_at): ElmapiCMS matches no entry${near ? `; did you mean '${near}'?` : ''}`,
    );
  }
  if ((f && !shown(f)) || children.some((x) => !shown(x.child)))
    c.warn.add(param, `field '${name}' is not shown by the API (hidden or password); the mock does not filter on it: no entry matches`);
  const sources: Source[] = [
    ...(f && shown(f) ? [topLevel(f)] : []),
    ...children.filter((x) => shown(x.child)).map((x) => groupChild(x.group, x.child)),
  ];
  // A name that several fields share (a top-level field and a child, or children of two groups).
  if (sources.length > 1)
    c.warn.add(
      param,
      `ElmapiCMS matches value rows by field name, so ${param} reads ${[...(f && shown(f) ? [`field '${name}'`] : []), ...children.filter((x) => shown(x.child)).map((x) => `the child '${name}' of group '${x.group.name}'`)].join(' and ')} (every instance)`,
    );
  const usable = sources[0]?.def;
  // Sources of the first one's kind: a relation filter follows relations, a field test compares values.
  const isLink = (x: FieldDef) => x.type === 'relation' || x.type === 'media';
  const alike = sources.filter((x) => usable !== undefined && isLink(x.def) === isLink(usable));
  const ops: [string, PhpValue | undefined][] = value instanceof Map ? [...value] : [['eq', value]];
  if (value instanceof Map && value.size > 0 && !isOperator([...value.keys()][0] as string) && !relationOf) {
    // where[rel][g]…: a relation filter (the first key is not an operator).
    const key = [...value.keys()][0] as string;
    if (usable?.type !== 'relation') {
      const child = usable?.type === 'group' ? usable.fields?.find((x) => x.name === key) : undefined;
      c.warn.add(
        param,
        `'${key}' is not an operator (${V3_OPERATORS.join(', ')}) and '${name}' is not a relation field: ElmapiCMS reads it as a relation filter that matches nothing${child ? `; a group's child is filtered by its own name: ${prefix}[${key}]=value` : ''}`,
      );
      return [() => false];
    }
    const target = c.index.collections.get(usable.collection ?? '');
    if (!target) return [() => false];
    const links = alike.filter((x) => x.def.type === 'relation' && x.def.collection === usable.collection);
    const inner: Test[] = [];
    for (const [g, gv] of value) inner.push(...conditions(g, gv ?? null, param, c, { target }));
    return inner.map((t) => (e: EntrySnapshot) => related(e, links, target, c.drafts).some(t));
  }
  return ops.map(([rawOp, sent]) => {
    let op = rawOp.toLowerCase();
    if (!V3_OPERATORS.includes(op)) {
      c.warn.add(`${param}[${rawOp}]`, `unknown operator '${rawOp}': ElmapiCMS applies it as eq; operators are ${V3_OPERATORS.join(', ')}`);
      op = 'eq';
    }
    const p = value instanceof Map ? `${param}[${rawOp}]` : param;
    let v = sent;
    if (v instanceof Map && !V3_LIST_OPS.has(op)) {
      const one = oneValueList(name, op, v, p, isCore && !f, c);
      if (typeof one === 'function') return one;
      v = one.value;
    }
    if (isCore && !f) return coreTest(name, op, v, p, c);
    if (!usable) return op === 'not' || op === 'not_in' ? () => true : () => false;
    if (v === null && COMPARE_OPS.has(op)) return nullValueTest(usable, alike, op, p, c);
    if (isLink(usable)) return relationOpTest(usable, alike, op, v, p, param, c);
    return fieldTest(alike, op, v, p, c);
  });
}

/**
 * A list where one value is compared (`where[f][eq][]=x`, `where[f][lt][0]=x`, qs's default arrays).
 * On a core column Laravel's where() binds the list's first item (flattenValue), but `like` puts
 * the list in '%…%' (Array to string conversion, a 500). On a field it reaches applyBasic, whose
 * "%$v%" and isset($booleanMap[$v]) (a TypeError for an array) are a 500 — except `not`, whose
 * where('text_value', $val) binds the first item and whose json contains binds every item: one
 * item is `not` that item, more are more bindings than placeholders, a 500. A 500 is a 422 here.
 */
function oneValueList(name: string, op: string, value: PhpArray, param: string, core: boolean, c: Ctx): Test | { value: string } {
  const items = flatten(value);
  const first = items[0] ?? null;
  const list = `${param} is a list (${param}[…]=…) where ElmapiCMS compares one value`;
  if (core && op !== 'like') {
    if (first === null) {
      c.warn.add(
        param,
        `${list}: Laravel binds its first item, empty here (NULL), and ${name} compared with NULL is never true: no entry matches; send ${param}=value`,
      );
      return () => false;
    }
    c.warn.add(param, `${list}: Laravel takes its first item ('${first}') and ignores the rest; send ${param}=${first}`);
    return { value: first };
  }
  if (!core && op === 'not' && items.length === 1) {
    c.warn.add(
      param,
      first === null
        ? `${list}: its one item is empty (NULL), and ElmapiCMS compares text_value = NULL, never true: no entry is excluded (with more items it is a 500); send ${param}=value`
        : `${list}: with its one item ElmapiCMS reads it as ${param}=${first} (with more items it is a 500); send ${param}=${first}`,
    );
    return first === null ? () => true : { value: first };
  }
  return crash(
    param,
    `${list}: ${
      op === 'like'
        ? "ElmapiCMS puts it in '%…%' (Array to string conversion)"
        : op === 'not'
          ? 'ElmapiCMS binds each of its items where one value goes (more bindings than placeholders)'
          : 'on a field ElmapiCMS looks it up in its boolean map (isset with an array key, a TypeError)'
    }, a 500 in ElmapiCMS; send ${param}=value`,
  );
}

/** Operators that compare one value with `where('text_value', op, v)`: Laravel reads a null v its own way. */
const COMPARE_OPS = new Set(['eq', 'not', 'lt', 'lte', 'gt', 'gte']);

const crash = (param: string, text: string): never => {
  throw new ProblemError(problem(422, 'v3_server_error', text, param));
};

/**
 * `where[f]=` or `where[f]` alone (how the SDK sends `null`): '' is null after Laravel's
 * ConvertEmptyStringsToNull, and `where('text_value', '=', null)` is `text_value IS NULL`, true of
 * every value row that is not text (numbers, booleans, lists, dates, relations, media): eq keeps the
 * entries that have such a value, not drops them; `not` drops them. `<`, `>`… with null are
 * Laravel's InvalidArgumentException, a 500.
 */
function nullValueTest(f: FieldDef, sources: readonly Source[], op: string, param: string, c: Ctx): Test {
  if (op !== 'eq' && op !== 'not')
    return crash(
      param,
      `${param} has no value: Laravel refuses '${op}' with null (Illegal operator and value combination), a 500 in ElmapiCMS; send a value`,
    );
  const link = f.type === 'relation' || f.type === 'media';
  const nonText = (e: EntrySnapshot) =>
    link ? sources.some((s) => s.values(e).some((x) => x !== null)) : rowsIn(sources, e).some((r) => r.text === undefined);
  const text = !link && ['text', 'longtext', 'markdown', 'richtext', 'slug', 'email', 'color', 'time'].includes(f.type);
  c.warn.add(
    param,
    `${param} has no value (where[…]= or where[…] alone, how the SDK sends null), which ElmapiCMS compares as text_value IS NULL: ${
      text
        ? `never true of text field '${f.name}', so ${op === 'eq' ? 'no entry matches' : 'no entry is left out'}`
        : `true of every value of ${f.type} field '${f.name}', so ${op === 'eq' ? 'the entries that have one match' : 'the entries that have one are left out'}`
    }; for entries with a value send ${param.replace(/\[(eq|not)\]$/i, '')}[not_null]`,
  );
  return op === 'eq' ? nonText : (e) => !nonText(e);
}

function related(e: EntrySnapshot, sources: readonly Source[], target: CollectionIndex, drafts: boolean): EntrySnapshot[] {
  const out: EntrySnapshot[] = [];
  for (const s of sources)
    for (const v of s.values(e)) {
      if (v === null) continue;
      for (const ref of Array.isArray(v) ? v : [v]) {
        const x = target.byRef.get(String(ref));
        if (x !== undefined && (drafts || !x.record.draft)) out.push(x);
      }
    }
  return out;
}

/** Operators on a relation or media field itself (sheet §3.4). */
function relationOpTest(
  f: FieldDef,
  sources: readonly Source[],
  op: string,
  raw: PhpValue | undefined,
  param: string,
  fieldParam: string,
  c: Ctx,
): Test {
  if (f.type === 'media' && (op === 'null' || op === 'not_null')) {
    c.warn.add(
      param,
      `ElmapiCMS checks relation links, not media, for ${op} on media field '${f.name}': ${op === 'null' ? 'every entry matches' : 'no entry matches'}`,
    );
    return () => op === 'null';
  }
  const target = c.index.collections.get(f.collection ?? '');
  // null: no value row of that name, or one that links to no entry (a group's instances each have theirs).
  if (op === 'null')
    return (e) => {
      if (!target) return true;
      const rows = sources.flatMap((s) => s.values(e).map((v) => ({ ...s, values: () => [v] })));
      return rows.length === 0 || rows.some((row) => related(e, [row], target, c.drafts).length === 0);
    };
  if (op === 'not_null') return (e) => !!target && related(e, sources, target, c.drafts).length > 0;
  if (op === 'in' || op === 'not_in') warnEmptyItems(raw, op, param, c, f);
  // in[]= (an empty item, null): text_value IS NULL, true of the value row a link field keeps.
  if (op === 'in' && raw instanceof Map && [...raw.values()].includes(null))
    return (e) => sources.some((s) => s.values(e).some((x) => x !== null));
  if (op === 'not_in' && list(raw).length === 0) return (e) => !sources.some((s) => s.values(e).some((x) => x !== null));
  c.warn.add(
    param,
    `ElmapiCMS compares '${op}' on relation field '${f.name}' against stored integer ids, never a uuid: ${op === 'not' || op === 'not_in' ? 'every entry passes' : 'no entry matches'}; filter on the related entry instead: ${fieldParam}[uuid]${op === 'eq' ? '' : `[${op}]`}=<uuid>`,
  );
  return () => op === 'not' || op === 'not_in';
}

/** All tests of a `where` array: ANDed, except inside `or` (ORed, the block ANDed with the rest). */
export function whereTest(where: PhpValue | undefined, col: CollectionIndex, index: ProjectIndex, warn: Warnings, drafts: boolean): Test {
  if (where === undefined || where === null) return () => true;
  if (!(where instanceof Map)) {
    warn.add('where', `where must be an array like where[title]=…; ElmapiCMS ignores where='${where}'`);
    return () => true;
  }
  const c: Ctx = { col, index, warn, drafts, budget: new Budget() };
  // ContentController@index: `where[or]` (exactly that key) is one OR block, numeric keys are groups
  // of conditions, one level each; inside them `or` and numbers are field names like any other.
  const member = (name: string, value: PhpValue, prefix: string): Test[] => {
    if (name.toLowerCase() === 'or' || PHP_NUMERIC.test(name))
      warn.add(
        `${prefix}[${name}]`,
        `ElmapiCMS reads where[or] and numeric groups only at the top of where (where[or][…], where[N][…], where[or][N][…]): here '${name}' is a field name, which matches no entry${name === 'or' ? '' : " (the key is 'or', in lower case)"}`,
      );
    return conditions(name, value, prefix, c);
  };
  const group = (name: string, value: PhpValue, prefix: string): Test[] => {
    // foreach over a string is a PHP warning, which Laravel turns into a 500.
    if (!(value instanceof Map))
      return crash(
        `${prefix}[${name}]`,
        `${prefix}[${name}] must be a group like ${prefix}[${name}][title]=…; a value there is a 500 in ElmapiCMS`,
      );
    return [...value].flatMap(([k, v]) => member(k, v ?? null, `${prefix}[${name}]`));
  };
  const all: Test[] = [];
  for (const [k, v] of where) {
    if (k === 'or') continue;
    all.push(...(PHP_NUMERIC.test(k) ? group(k, v ?? null, 'where') : member(k, v ?? null, 'where')));
  }
  const or = where.get('or');
  if (or !== undefined && or !== null) {
    if (!(or instanceof Map))
      crash('where[or]', 'where[or] must be a block like where[or][0][title]=…; a value there is a 500 in ElmapiCMS');
    const any = [...(or as PhpArray)].flatMap(([k, v]) =>
      PHP_NUMERIC.test(k) ? group(k, v ?? null, 'where[or]') : member(k, v ?? null, 'where[or]'),
    );
    if (any.length > 0) all.push((e) => any.some((t) => t(e)));
  }
  return (e) => all.every((t) => t(e));
}
