// Validation of a parsed query against the schema (§4.3, §4.4), producing a typed plan. Every
// refusal is a 400 with a stable code and a detail that says what to change. No Node imports.
import type { CollectionSnapshot, ProjectSnapshot } from '../model/types.js';
import { isIndexKey, MAX_VALUES, OPERATOR_ALIASES, type PMap, type PNode } from './parse.js';
import { bad, problem, ProblemError } from './problems.js';
import { directionOf, otherSortSyntax } from './sort-syntax.js';
import { collectionTable, MEDIA_ATTRIBUTES, type FieldInfo, type Table } from './table.js';
import type { QuerySemantics } from '../dialects/types.js';
import type { QueryContext } from './types.js';
import { likeMatcher, type LikeMatcher } from './like.js';
import { LIST_OPS, OPERATORS, validOps, type Op } from './operators.js';
import { parseBoolean, parseDateValue, parseNumber, parseTime, type NumValue } from './values.js';
import { closestName } from '../suggest.js';

export const LIST_PARAMS = [
  'where',
  'whereRelation',
  'sort',
  'limit',
  'offset',
  'first',
  'count',
  'state',
  'locale',
  'timestamps',
  'fields',
  'exclude',
] as const;
export const ITEM_PARAMS = ['state', 'timestamps', 'fields', 'exclude'] as const;

export type State = 'published' | 'with_draft' | 'only_draft';
const STATES: readonly State[] = ['published', 'with_draft', 'only_draft'];

/** A numeric range; lo/hi may be ±Infinity. */
export interface Interval {
  readonly lo: number;
  readonly loInc: boolean;
  readonly hi: number;
  readonly hiInc: boolean;
}

/** What one clause tests on one field. `negate` turns "matches" into "does not match". */
export type Cond =
  | { readonly t: 'empty'; readonly negate: boolean }
  | { readonly t: 'num'; readonly ivals: readonly Interval[]; readonly negate: boolean }
  | { readonly t: 'text'; readonly values: readonly string[]; readonly negate: boolean }
  | {
      readonly t: 'textrange';
      readonly lo: string | null;
      readonly loInc: boolean;
      readonly hi: string | null;
      readonly hiInc: boolean;
      readonly negate: boolean;
    }
  | { readonly t: 'like'; readonly match: LikeMatcher };

export interface Clause {
  readonly field: FieldInfo;
  readonly cond: Cond;
  readonly param: string;
}

export interface RelationClause {
  readonly field: FieldInfo;
  /** The target collection's table (undefined if the schema points nowhere: nothing matches). */
  readonly target: Table | undefined;
  readonly where: WhereExpr;
  readonly param: string;
  /** No related entry matching is a 404 (the `elmapi` dialect's "Record not found!"). */
  readonly missIs404?: boolean;
}

/**
 * `where`: an item matches when
 * - there are no `or` groups: every `and` clause holds;
 * - there are no `and` clauses: some `or` group holds in full;
 * - both: every `and` clause holds, or some `or` group holds in full (§4.3).
 * `whereRelation` clauses (`rel`) are ANDed with that whole expression.
 */
export interface WhereExpr {
  readonly and: readonly Clause[];
  readonly or: readonly (readonly Clause[])[];
  readonly rel: readonly RelationClause[];
}

export interface SortSpec {
  readonly field: string;
  readonly desc: boolean;
}

export interface ListPlan {
  readonly where: WhereExpr;
  /** null: the default order. */
  readonly sort: readonly SortSpec[] | null;
  readonly limit: number | null;
  readonly offset: number;
  readonly first: boolean;
  readonly count: boolean;
  readonly state: State;
  readonly locale: string | null;
  readonly timestamps: boolean;
  /** Names of the visible fields to keep (`fields=`/`exclude=` resolved); null keeps all. */
  readonly keep: readonly string[] | null;
}

export interface ItemPlan {
  readonly state: State;
  readonly timestamps: boolean;
  readonly keep: readonly string[] | null;
}

/** What the plan is about: the filterable table and the names `fields=` may select. */
export interface Subject {
  readonly table: Table;
  /** Visible output fields, in response order (without id/locale). */
  readonly selectable: readonly string[];
  /** Always-kept names that `fields=`/`exclude=` may mention without effect. */
  readonly alwaysKept: readonly string[];
  readonly project: ProjectSnapshot;
}

export function collectionSubject(project: ProjectSnapshot, col: CollectionSnapshot): Subject {
  return {
    table: collectionTable(project, col),
    selectable: col.visibleFields.map((f) => f.name),
    alwaysKept: ['id', 'locale'],
    project,
  };
}

export function mediaSubject(project: ProjectSnapshot, table: Table): Subject {
  return { table, selectable: MEDIA_ATTRIBUTES.map((a) => a.name), alwaysKept: ['id'], project };
}

// ---------------------------------------------------------------------------------------------

function describe(f: FieldInfo): string {
  return `${f.multiple ? 'multiple ' : ''}${f.type} field '${f.name}'`;
}

function leafValue(node: PNode, what: string): string {
  if (node.kind !== 'leaf') {
    bad('invalid_value', `${node.param}: ${what} takes a single value, not brackets`, node.param);
  }
  return node.value;
}

/** Values of a list operator: `a,b` or repeated `[]` / `[n]` elements. */
function listValues(node: PNode, op: string): string[] {
  if (node.kind === 'leaf') {
    const parts = node.value.split(',');
    if (parts.length > MAX_VALUES) {
      bad('too_many_values', `${node.param}: more than ${MAX_VALUES} values in one list`, node.param);
    }
    return parts;
  }
  const items: [number, string][] = [];
  for (const [k, child] of node.entries) {
    if (!isIndexKey(k) || child.kind !== 'leaf') {
      bad(
        'too_deep',
        `${node.param}: '${op}' takes a list of values: ${node.param}[]=a&${node.param}[]=b or ${node.param}=a,b`,
        node.param,
      );
    }
    items.push([Number(k), child.value]);
  }
  items.sort((a, b) => a[0] - b[0]);
  return items.map((x) => x[1]);
}

function flag(node: PNode, name: string, byPresence = false): boolean {
  const v = leafValue(node, name);
  if (byPresence) return true;
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return bad('invalid_value', `${name}: expected no value, true, 1, false or 0 (got '${v}')`, node.param);
}

const TIMESTAMP_FIELDS = ['created_at', 'updated_at', 'published_at'];
const DAY_MS = 86_400_000;

/** `; did you mean 'price'? (fields: …)` for `prise`, else `; fields: …` (where, sort, fields and exclude alike). */
const known = (name: string, names: readonly string[], what: string): string => {
  const near = closestName(name, names);
  const list = `${what}: ${names.join(', ')}`;
  return near === undefined ? `; ${list}` : `; did you mean '${near}'? (${list})`;
};

class Planner {
  readonly sem: QuerySemantics;

  constructor(
    private readonly subject: Subject,
    private readonly project: ProjectSnapshot,
  ) {
    this.sem = project.dialect.query;
  }

  /** `inRelation`: the field is looked up in a whereRelation's target collection. */
  private fieldOf(table: Table, name: string, param: string, inRelation = false): FieldInfo {
    const f = table.fields.get(name);
    if (!f) {
      // where[author.name]=x: a field of the related entries is reached through whereRelation.
      const dot = name.indexOf('.');
      const rel = dot > 0 ? table.fields.get(name.slice(0, dot)) : undefined;
      const hint =
        rel?.relation !== undefined && !inRelation
          ? `; to filter on a field of the related entries, write whereRelation[${rel.name}][${name.slice(dot + 1)}]=…`
          : '';
      bad(
        'unknown_field',
        `${param}: unknown field '${name}'${hint}${known(name, [...table.fields.keys()], 'filterable fields')}`,
        param,
        // With a fix to offer, our message beats the original's bare "Field not found".
        hint ? undefined : inRelation ? { kind: 'relation_target_field', name } : { kind: 'unknown_field', name },
      );
    }
    return f;
  }

  /** A value of the system `locale` field must be a project locale (like `locale=`). */
  private checkLocales(f: FieldInfo, texts: readonly string[], param: string, table: Table): void {
    if (f.name !== 'locale' || f.isId || f.type !== 'text' || table.noun !== 'entry') return;
    const locales = this.project.record.locales;
    const known = new Set(locales.map((l) => table.key(f, l)));
    for (const t of texts) {
      if (!known.has(table.key(f, t))) {
        bad('invalid_locale', `${param}: '${t}' is not a locale of this project; use one of ${locales.join(', ')}`, param);
      }
    }
  }

  /** Parses one query value for a comparison on a numeric column (`byDay`: as the whole UTC day it falls on). */
  private numValue(f: FieldInfo, text: string, param: string, byDay = false): NumValue {
    let v: NumValue | undefined;
    let expected: string;
    if (f.isId) {
      const n = parseNumber(text);
      v = n === undefined ? undefined : { lo: n, hi: n, point: true };
      expected = 'a number (ids here are integers)';
    } else {
      switch (f.kind) {
        case 'num': {
          const n = parseNumber(text);
          v = n === undefined ? undefined : { lo: n, hi: n, point: true };
          expected = 'a finite number, e.g. 10 or 9.5';
          break;
        }
        case 'bool': {
          const b = parseBoolean(text);
          v = b === undefined ? undefined : { lo: b ? 1 : 0, hi: b ? 1 : 0, point: true };
          expected = 'true, false, 1 or 0';
          break;
        }
        case 'time': {
          const s = parseTime(text);
          v = s === undefined ? undefined : { lo: s, hi: s, point: true };
          expected = 'a time HH:MM or HH:MM:SS';
          break;
        }
        default:
          v = parseDateValue(text);
          expected = 'an ISO 8601 date (2021-11-25) or datetime (2021-11-25T10:00:00Z)';
      }
    }
    if (v !== undefined && byDay) {
      const lo = Math.floor(v.lo / DAY_MS) * DAY_MS;
      v = { lo, hi: lo + DAY_MS, point: false };
    }
    if (v === undefined) {
      bad('invalid_value', `${param}: '${text}' is not valid for ${describe(f)}; expected ${expected}`, param);
    }
    return v;
  }

  private cond(table: Table, f: FieldInfo, op: Op, node: PNode, param: string): Cond {
    const ops = validOps(f);
    if (!ops.includes(op)) {
      bad(
        'unknown_operator',
        `${param}: operator '${op}' does not apply to ${describe(f)}; valid operators for it: ${ops.join(', ')}`,
        param,
      );
    }
    if (op === 'null' || op === 'not_null') {
      const on = flag(node, param);
      return { t: 'empty', negate: (op === 'not_null') === on };
    }
    const numeric = f.kind !== 'text' && f.kind !== 'ref';
    const isList = LIST_OPS.has(op);
    const texts = isList ? listValues(node, op) : [leafValue(node, `operator '${op}'`)];
    if ((op === 'in' || op === 'not_in') && texts.length === 1 && texts[0] === '') {
      bad('invalid_value', `${param}: ${op} needs at least one value: ${param}=a,b or ${param}[]=a&${param}[]=b`, param);
    }
    if ((op === 'between' || op === 'not_between') && texts.length !== 2) {
      bad('invalid_value', `${param}: '${op}' needs exactly two values (got ${texts.length}): ${param}=low,high`, param, {
        kind: 'between_count',
      });
    }
    if (op === 'eq' || op === 'not' || op === 'in' || op === 'not_in') this.checkLocales(f, texts, param, table);
    const negate = op === 'not' || op === 'not_in' || op === 'not_between';
    const range = op === 'lt' || op === 'lte' || op === 'gt' || op === 'gte' || op === 'between' || op === 'not_between';
    if (op === 'like') {
      return { t: 'like', match: likeMatcher(table.key(f, texts[0] as string)) };
    }
    if (numeric || (f.isId && range && table.numericIds)) {
      // The original compares these timestamps by day (whereDate) in the plain form and lt…gte.
      const byDay =
        this.sem.timestampsByDay && f.kind === 'date' && TIMESTAMP_FIELDS.includes(f.name) && ['eq', 'lt', 'lte', 'gt', 'gte'].includes(op);
      const vals = texts.map((t) => this.numValue(f, t, param, byDay));
      return { t: 'num', ivals: intervals(op, vals), negate };
    }
    if (!range) {
      if (f.type === 'enumeration') this.checkEnum(table, f, texts, param);
      return { t: 'text', values: texts, negate };
    }
    const v = texts[0] as string;
    switch (op) {
      case 'lt':
        return { t: 'textrange', lo: null, loInc: false, hi: v, hiInc: false, negate: false };
      case 'lte':
        return { t: 'textrange', lo: null, loInc: false, hi: v, hiInc: true, negate: false };
      case 'gt':
        return { t: 'textrange', lo: v, loInc: false, hi: null, hiInc: false, negate: false };
      case 'gte':
        return { t: 'textrange', lo: v, loInc: true, hi: null, hiInc: false, negate: false };
      default:
        return { t: 'textrange', lo: v, loInc: true, hi: texts[1] as string, hiInc: true, negate };
    }
  }

  private checkEnum(table: Table, f: FieldInfo, texts: readonly string[], param: string): void {
    const def = f.values;
    if (!def) return;
    const known = table.folds(f) ? new Set(def.map((d) => table.key(f, d))) : new Set(def);
    for (const t of texts) {
      if (!known.has(table.key(f, t))) {
        bad('invalid_value', `${param}: '${t}' is not a value of ${describe(f)}; its values: ${def.join(', ')}`, param);
      }
    }
  }

  /** `inRelation`: clauses on a whereRelation's target collection. */
  private fieldClauses(table: Table, name: string, node: PNode, param: string, inRelation = false): Clause[] {
    const f = this.fieldOf(table, name, param, inRelation);
    if (node.kind === 'leaf') {
      const v = node.value;
      if (v === 'null' || v === 'not_null') {
        const ops = validOps(f);
        if (!ops.includes(v)) bad('unknown_operator', `${param}: '${v}' does not apply to ${describe(f)}`, param);
        return [{ field: f, cond: { t: 'empty', negate: v === 'not_null' }, param }];
      }
      // whereRelation[rel][f]=v in the original: f LIKE %v%.
      const contains = inRelation && this.sem.relationContains && f.kind === 'text' && !f.isId;
      return [{ field: f, cond: this.cond(table, f, contains ? 'like' : 'eq', node, param), param }];
    }
    const out: Clause[] = [];
    for (const [op, child] of node.entries) {
      const p = `${param}[${op}]`;
      if (!(OPERATORS as readonly string[]).includes(op)) {
        const alias = Object.hasOwn(OPERATOR_ALIASES, op) ? (OPERATOR_ALIASES[op] as string) : undefined;
        const fix = isIndexKey(op)
          ? `; a list of values needs an operator: ${param}[in][]=… (or ${param}[not_in][]=…)`
          : alias
            ? `; write ${param}[${alias}]=… instead`
            : f.relation !== undefined && !inRelation && this.project.collections.get(f.relation)?.visibleFields.some((t) => t.name === op)
              ? `; to filter on a field of the related entry, write whereRelation[${name}][${op}]=…`
              : '';
        bad(
          'unknown_operator',
          `${p}: unknown operator '${op}'${fix}; valid operators: ${OPERATORS.join(', ')} (for ${describe(f)}: ${validOps(f).join(', ')})`,
          p,
        );
      }
      out.push({ field: f, cond: this.cond(table, f, op as Op, child, p), param: p });
    }
    return out;
  }

  private group(table: Table, node: PNode, param: string, inRelation: boolean): Clause[] {
    if (node.kind !== 'map') {
      bad('invalid_value', `${param}: expected ${param}[field]=value or ${param}[field][op]=value`, param, {
        kind: inRelation ? 'relation_shape' : 'where_shape',
      });
    }
    const out: Clause[] = [];
    for (const [name, child] of node.entries) {
      if (name === 'or' || isIndexKey(name)) {
        bad(
          'too_deep',
          `${param}[${name}]: groups cannot be nested here; the deepest form is where[or][n][field][op]`,
          `${param}[${name}]`,
        );
      }
      out.push(...this.fieldClauses(table, name, child, `${param}[${name}]`, inRelation));
    }
    return out;
  }

  where(table: Table, node: PNode, prefix: string, allowRelations: boolean, relNode?: PNode): WhereExpr {
    const and: Clause[] = [];
    const or: Clause[][] = [];
    // Clauses inside whereRelation[rel] (the only caller without allowRelations).
    const inRelation = !allowRelations;
    const shape = { kind: inRelation ? 'relation_shape' : 'where_shape' } as const;
    if (node.kind !== 'map') {
      bad('invalid_value', `${prefix}: expected ${prefix}[field]=value, ${prefix}[field][op]=value or ${prefix}[or][…]`, prefix, shape);
    }
    for (const [key, child] of node.entries) {
      const p = `${prefix}[${key}]`;
      if (key === 'or') {
        if (child.kind !== 'map') {
          bad('invalid_value', `${p}: expected ${p}[field]=value or ${p}[][field]=value`, p, shape);
        }
        for (const [k2, c2] of child.entries) {
          const p2 = `${p}[${k2}]`;
          if (isIndexKey(k2)) or.push(this.group(table, c2, p2, inRelation));
          else or.push(this.fieldClauses(table, k2, c2, p2, inRelation));
        }
      } else if (isIndexKey(key)) {
        and.push(...this.group(table, child, p, inRelation));
      } else {
        and.push(...this.fieldClauses(table, key, child, p, inRelation));
      }
    }
    const rel: RelationClause[] = [];
    if (allowRelations && relNode) rel.push(...this.relations(table, relNode));
    return { and, or, rel };
  }

  private relations(table: Table, node: PNode): RelationClause[] {
    const relFields = [...table.fields.values()].filter((f) => f.relation !== undefined).map((f) => f.name);
    if (node.kind !== 'map') {
      bad('invalid_value', `whereRelation: expected whereRelation[relation][field]=value`, 'whereRelation', { kind: 'relation_shape' });
    }
    const out: RelationClause[] = [];
    for (const [name, child] of node.entries) {
      const p = `whereRelation[${name}]`;
      const f = table.fields.get(name);
      if (!f || f.relation === undefined) {
        bad(
          'unknown_field',
          `${p}: '${name}' is not a relation field; relation fields: ${relFields.length ? relFields.join(', ') : '(none)'}`,
          p,
          f ? { kind: 'not_a_relation' } : { kind: 'unknown_field', name },
        );
      }
      const col = this.project.collections.get(f.relation);
      const target = col && collectionTable(this.project, col);
      const where = this.where(target ?? table, child, p, false);
      out.push(this.sem.relationContains ? { field: f, target, where, param: p, missIs404: true } : { field: f, target, where, param: p });
    }
    return out;
  }

  sort(node: PNode): SortSpec[] {
    const table = this.subject.table;
    const text = leafValue(node, 'sort');
    const sortable = [...table.fields.keys()];
    if (text.trim() === '')
      bad('invalid_sort', `sort: empty; write sort=field[:asc|:desc][,field…] with a field of: ${sortable.join(', ')}`, 'sort');
    const parts = text.split(',');
    if (parts.length > MAX_VALUES) bad('too_many_values', `sort: more than ${MAX_VALUES} keys`, 'sort');
    const specs = parts.map((raw) => {
      const part = raw.trim();
      const colon = part.indexOf(':');
      const name = colon === -1 ? part : part.slice(0, colon).trim();
      // sort=-price, sort=+price, sort=price-, sort=price desc: the syntax of other APIs, said
      // the way this one reads it.
      if (!table.fields.has(name)) {
        const fix = otherSortSyntax(name, (n) => table.fields.has(n));
        if (fix) bad('invalid_sort', `sort: '${part}' is not a sort item here; write sort=${fix}`, 'sort');
      }
      if (this.sem.sortNeedsDirection && (colon === -1 || part.indexOf(':', colon + 1) !== -1)) {
        bad('invalid_sort', `sort: '${part}' needs one direction: sort=${name}:asc or sort=${name}:desc`, 'sort', {
          kind: 'sort_direction',
        });
      }
      const dir =
        colon === -1
          ? 'asc'
          : part
              .slice(colon + 1)
              .trim()
              .toLowerCase();
      if (dir !== 'asc' && dir !== 'desc') {
        // `sort=slug:` (a colon and no direction) means either.
        const meant = dir === '' ? `asc or sort=${name}:desc` : directionOf(dir);
        const fix = meant && table.fields.has(name) ? `; write sort=${name}:${meant}` : '';
        bad('invalid_sort', `sort: direction '${part.slice(colon + 1)}' in '${part}' must be asc or desc${fix}`, 'sort');
      }
      if (!table.fields.has(name)) {
        bad('invalid_sort', `sort: unknown field '${name}'${known(name, sortable, 'sortable fields')}`, 'sort');
      }
      return { field: name, desc: dir === 'desc' };
    });
    // A field again decides nothing its first mention left tied; kept, each comparison of ties
    // would walk up to 1,000 keys (a cost the URL alone could set).
    return specs.filter((s, k) => specs.findIndex((t) => t.field === s.field) === k);
  }

  keep(node: PNode, name: 'fields' | 'exclude'): string[] {
    const text = leafValue(node, name);
    const { selectable, alwaysKept } = this.subject;
    const names = text.split(',').map((s) => s.trim());
    if (names.length > MAX_VALUES) bad('too_many_values', `${name}: more than ${MAX_VALUES} names`, name);
    if (text.trim() === '') {
      bad('invalid_value', `${name}: empty; list field names: ${name}=${selectable.slice(0, 2).join(',') || 'a,b'}`, name);
    }
    for (const n of names) {
      if (!selectable.includes(n) && !alwaysKept.includes(n)) {
        bad(
          'unknown_field',
          `${name}: unknown field '${n}'${known(n, [...alwaysKept, ...selectable], 'fields')}${TIMESTAMP_FIELDS.includes(n) ? ` (a timestamp: the parameter timestamps adds all three, whatever ${name} lists)` : ''}`,
          name,
        );
      }
    }
    return name === 'fields' ? selectable.filter((s) => names.includes(s)) : selectable.filter((s) => !names.includes(s));
  }

  state(node: PNode): State {
    const v = leafValue(node, 'state');
    if (!(STATES as readonly string[]).includes(v)) {
      bad('invalid_state', `state: '${v}' is not a state; use one of ${STATES.join(', ')}`, 'state');
    }
    return v as State;
  }

  locale(node: PNode): string {
    const v = leafValue(node, 'locale');
    const locales = this.project.record.locales;
    if (!locales.includes(v)) {
      bad('invalid_locale', `locale: '${v}' is not a locale of this project; use one of ${locales.join(', ')}`, 'locale');
    }
    return v;
  }
}

function intervals(op: Op, vals: readonly NumValue[]): Interval[] {
  const eqI = (v: NumValue): Interval =>
    v.point ? { lo: v.lo, loInc: true, hi: v.lo, hiInc: true } : { lo: v.lo, loInc: true, hi: v.hi, hiInc: false };
  const v = vals[0] as NumValue;
  switch (op) {
    case 'eq':
    case 'not':
    case 'in':
    case 'not_in':
      return vals.map(eqI);
    case 'lt':
      return [{ lo: -Infinity, loInc: false, hi: v.lo, hiInc: false }];
    case 'lte':
      return [v.point ? { lo: -Infinity, loInc: false, hi: v.lo, hiInc: true } : { lo: -Infinity, loInc: false, hi: v.hi, hiInc: false }];
    case 'gt':
      return [v.point ? { lo: v.lo, loInc: false, hi: Infinity, hiInc: false } : { lo: v.hi, loInc: true, hi: Infinity, hiInc: false }];
    case 'gte':
      return [{ lo: v.lo, loInc: true, hi: Infinity, hiInc: false }];
    default: {
      const b = vals[1] as NumValue;
      return [b.point ? { lo: v.lo, loInc: true, hi: b.lo, hiInc: true } : { lo: v.lo, loInc: true, hi: b.hi, hiInc: false }];
    }
  }
}

function checkParams(root: PMap, accepted: readonly string[], single: boolean): void {
  for (const [name, node] of root.entries) {
    if (!accepted.includes(name)) {
      const p = node.kind === 'leaf' ? node.param : name;
      const known = (LIST_PARAMS as readonly string[]).includes(name);
      bad(
        'unknown_parameter',
        single && known
          ? `${p}: '${name}' does not apply to a single item; accepted here: ${accepted.join(', ')}`
          : `${p}: unknown parameter '${name}'; accepted parameters: ${accepted.join(', ')}`,
        p,
      );
    }
  }
}

/**
 * `max` (limit only, `--max-limit`, 0 = no cap): a limit over it is refused naming it, past 2^53
 * too (found by fuzzing: `limit=9007199254740993` was told "max 9007199254740991" where 1000 was the most).
 */
function nonNegative(node: PNode, name: 'limit' | 'offset', max = 0): number {
  const v = leafValue(node, name);
  const digits = /^[0-9]+$/.test(v);
  const n = digits ? Number(v) : NaN;
  if (max > 0 && n > max)
    bad('invalid_limit', `limit: ${v} is too large: the maximum is ${max}; ask for at most ${max} and page with offset`, name);
  if (!Number.isSafeInteger(n)) {
    if (digits) bad(`invalid_${name}`, `${name}: ${v} is too large (max ${Number.MAX_SAFE_INTEGER})`, name);
    bad(`invalid_${name}`, `${name}: '${v}' is not a non-negative integer; write ${name}=20`, name);
  }
  return n;
}

function keepOf(planner: Planner, root: PMap): string[] | null {
  const fields = root.entries.get('fields');
  const exclude = root.entries.get('exclude');
  if (fields && exclude) {
    bad('conflicting_parameters', 'fields and exclude cannot be combined; use one of them', 'exclude');
  }
  if (fields) return planner.keep(fields, 'fields');
  if (exclude) return planner.keep(exclude, 'exclude');
  return null;
}

/** Validates a list query. Throws ProblemError (400/403) on bad input. */
export function planList(root: PMap, subject: Subject, ctx: QueryContext): ListPlan {
  checkParams(root, LIST_PARAMS, false);
  const planner = new Planner(subject, subject.project);
  const get = (n: string) => root.entries.get(n);
  const whereNode = get('where');
  const relNode = get('whereRelation');
  const where: WhereExpr = whereNode
    ? planner.where(subject.table, whereNode, 'where', true, relNode)
    : relNode
      ? planner.where(subject.table, { kind: 'map', entries: new Map(), param: 'where', next: 0 }, 'where', true, relNode)
      : { and: [], or: [], rel: [] };
  const sortNode = get('sort');
  const sort = sortNode ? planner.sort(sortNode) : null;
  const limitNode = get('limit');
  const limit = limitNode ? nonNegative(limitNode, 'limit', ctx.maxLimit) : null;
  const offsetNode = get('offset');
  const offset = offsetNode ? nonNegative(offsetNode, 'offset') : 0;
  const sem = planner.sem;
  if (offsetNode && !limitNode && sem.offsetNeedsLimit) {
    bad('invalid_offset', `offset: needs limit in this project (dialect elmapi): limit=20&offset=${offset}`, 'offset', {
      kind: 'offset_without_limit',
    });
  }
  const firstNode = get('first');
  const countNode = get('count');
  const first = firstNode ? flag(firstNode, 'first', sem.flagsByPresence) : false;
  const count = countNode ? flag(countNode, 'count', sem.flagsByPresence) : false;
  if (first && count) {
    bad('conflicting_parameters', 'first and count cannot be combined; ask for one of them', 'count');
  }
  const stateNode = get('state');
  const state = stateNode ? planner.state(stateNode) : 'published';
  const localeNode = get('locale');
  const locale = localeNode ? planner.locale(localeNode) : null;
  const tsNode = get('timestamps');
  const timestamps = tsNode ? flag(tsNode, 'timestamps', sem.flagsByPresence) : false;
  const keep = keepOf(planner, root);
  checkScope(state, ctx);
  return { where, sort, limit, offset, first, count, state, locale, timestamps, keep };
}

/** Validates the query of a single item (state, timestamps, fields, exclude). */
export function planItem(root: PMap, subject: Subject, ctx: QueryContext): ItemPlan {
  checkParams(root, ITEM_PARAMS, true);
  const planner = new Planner(subject, subject.project);
  const stateNode = root.entries.get('state');
  const state = stateNode ? planner.state(stateNode) : 'published';
  const tsNode = root.entries.get('timestamps');
  const timestamps = tsNode ? flag(tsNode, 'timestamps', planner.sem.flagsByPresence) : false;
  const keep = keepOf(planner, root);
  checkScope(state, ctx);
  return { state, timestamps, keep };
}

function checkScope(state: State, ctx: QueryContext): void {
  if (state !== 'published' && !ctx.scopes.has('drafts')) {
    throw new ProblemError(
      problem(
        403,
        'drafts_scope_required',
        ctx.noDrafts === undefined
          ? `state=${state}: drafts need a token with the 'drafts' scope; use state=published or a token with scopes [read, drafts]`
          : `state=${state}: ${ctx.noDrafts}`,
        'state',
      ),
    );
  }
}
