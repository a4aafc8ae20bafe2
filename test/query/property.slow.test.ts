// Property tests: (a) the indexed engine agrees with a small, obviously-correct reference
// evaluator on random data and random queries; (b) random garbage never throws and only ever
// yields a typed 4xx problem.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryEntries, queryEntry, queryMediaItem, queryMediaList } from '../../src/core/query/index.js';
import type { QueryContext, QueryOutcome } from '../../src/core/query/types.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { CollectionRecord, EntryRecord, FieldValue, SortKey } from '../../src/core/model/model.js';
import { entryComparator, idsAreIntegers, sortEntries } from '../../src/core/snapshot/order.js';
import { drafter, entry, field, itemsCol, model as fixtureModel, productsCol, project as fixtureProject } from './fixture.js';

// ---------------------------------------------------------------------------------------------
// Random data

const DAYS = ['2020-12-31', '2021-01-30', '2021-01-31', '2021-02-01', '2021-02-28', '2021-03-01'];
const TIMES = ['T00:00:00.000Z', 'T12:00:00.000Z', 'T23:59:59.999Z'];
const TEXTS = ['a', 'b', 'B', 'ab', 'é', '😀', 'a_b', '%', 'ﬀ'];
const TAGS = ['x', 'y', 'z', 'X'];
const TARGETS = ['t1', 't2', 't3', 't4', 't5'];

const schema = [
  field('num', 'number'),
  field('cat', 'text'),
  field('tags', 'text', { multiple: true }),
  field('day', 'date'),
  field('at', 'datetime'),
  field('flag', 'boolean'),
  field('rel', 'relation', { multiple: true, collection: 'targets' }),
  field('h', 'text', { hidden: true }),
];

const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant('absent' as const) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: arb },
  );

const valuesArb = fc.record({
  num: maybe(fc.oneof(fc.integer({ min: -3, max: 12 }), fc.constant(9.5), fc.constant(200))),
  cat: maybe(fc.oneof(fc.constantFrom(...TEXTS), fc.constant(''))),
  tags: maybe(fc.subarray(TAGS)),
  day: maybe(fc.constantFrom(...DAYS)),
  at: maybe(fc.tuple(fc.constantFrom(...DAYS), fc.constantFrom(...TIMES)).map(([d, t]) => d + t)),
  flag: maybe(fc.boolean()),
  rel: maybe(fc.subarray(TARGETS)),
  h: fc.constantFrom('s', 't'),
});

const rowArb = fc.record({
  values: valuesArb,
  draft: fc.boolean(),
  locale: fc.constantFrom('en', 'de'),
  created: fc.tuple(fc.constantFrom(...DAYS), fc.constantFrom(...TIMES)).map(([d, t]) => d + t),
});

const DEFAULT_SORTS: SortKey[][] = [[], [{ field: 'num', desc: false }], [{ field: 'cat', desc: true }], [{ field: 'at', desc: true }]];

const dataArb = fc.record({
  rows: fc.array(rowArb, { minLength: 0, maxLength: 120 }),
  numericIds: fc.boolean(),
  defaultSort: fc.constantFrom(...DEFAULT_SORTS),
  targets: fc.array(fc.record({ name: fc.constantFrom('a', 'b'), draft: fc.boolean() }), { minLength: 5, maxLength: 5 }),
});

type Data = typeof dataArb extends fc.Arbitrary<infer T> ? T : never;

function buildModel(data: Data, options: { compact?: boolean } = {}) {
  const entries: EntryRecord[] = data.rows.map((row, k) => {
    const values: Record<string, FieldValue> = {};
    for (const [name, v] of Object.entries(row.values)) if (v !== 'absent') values[name] = v as FieldValue;
    return entry(data.numericIds ? String(k * 7) : `e${k}`, values, {
      draft: row.draft,
      locale: row.locale,
      created_at: row.created,
    });
  });
  const sorted = sortEntries(entries, data.defaultSort);
  const items: CollectionRecord = {
    slug: 'items',
    name: 'Items',
    body_field: 'body',
    sort: data.defaultSort,
    fields: schema,
    entries: sorted,
  };
  const targets: CollectionRecord = {
    slug: 'targets',
    name: 'Targets',
    body_field: 'body',
    sort: [],
    fields: [field('name', 'text')],
    entries: data.targets.map((t, k) => entry(TARGETS[k] as string, { name: t.name }, { draft: t.draft })),
  };
  const snapshot = createSnapshot(
    {
      projects: [{ ...fixtureModel.projects[0]!, id: 'p', media: [], collections: [items, targets] }],
    },
    options,
  );
  const project = snapshot.projects.get('p')!;
  return { project, items: project.collections.get('items')!, records: sorted, targets: targets.entries };
}

// ---------------------------------------------------------------------------------------------
// Random queries (structured, then serialised)

type Op = 'eq' | 'not' | 'like' | 'in' | 'not_in' | 'lt' | 'lte' | 'gt' | 'gte' | 'between' | 'not_between' | 'null' | 'not_null';
interface QClause {
  readonly field: string;
  readonly op: Op;
  readonly values: readonly string[];
  /** leaf: where[f]=v (eq/null/not_null only); csv: where[f][op]=a,b; list: where[f][op][]=a&… */
  readonly form: 'leaf' | 'csv' | 'list';
}

const RANGE: Op[] = ['lt', 'lte', 'gt', 'gte'];
const SETS: Op[] = ['eq', 'not', 'in', 'not_in', 'null', 'not_null'];

const numVal = fc.oneof(fc.integer({ min: -4, max: 13 }).map(String), fc.constantFrom('9.5', '200', '9.0', '1e1'));
const dayVal = fc.constantFrom(...DAYS, '2021-02-15');
const dtVal = fc.oneof(
  dayVal,
  fc.tuple(dayVal, fc.constantFrom(...TIMES, 'T06:00:00.000Z')).map(([d, t]) => d + t),
);

function valueArb(name: string): fc.Arbitrary<string> {
  switch (name) {
    case 'num':
      return numVal;
    case 'cat':
      return fc.constantFrom(...TEXTS, 'c', 'A');
    case 'tags':
      return fc.constantFrom(...TAGS, 'w');
    case 'day':
    case 'at':
    case 'created_at':
      return dtVal;
    case 'flag':
      return fc.constantFrom('true', 'false', '1', '0');
    case 'rel':
      return fc.constantFrom(...TARGETS, 't9');
    case 'locale':
      return fc.constantFrom('en', 'de');
    default:
      return fc.constantFrom('e1', 'e2', '7', '14', '0', 'e10');
  }
}

function opsFor(name: string): Op[] {
  switch (name) {
    case 'flag':
    case 'rel':
      return SETS;
    case 'tags':
      return [...SETS, 'like'];
    case 'cat':
      return [...SETS, 'like', ...RANGE, 'between', 'not_between'];
    default:
      return [...SETS, ...RANGE, 'between', 'not_between'];
  }
}

const likeVal = fc
  .array(fc.constantFrom('a', 'b', 'B', '%', '_', 'é', '😀', 'x', 'X'), { minLength: 0, maxLength: 3 })
  .map((a) => a.join(''));

const clauseArb: fc.Arbitrary<QClause> = fc
  .constantFrom('num', 'cat', 'tags', 'day', 'at', 'flag', 'rel', 'locale', 'id', 'created_at')
  .chain((name) =>
    fc.constantFrom(...opsFor(name)).chain((op): fc.Arbitrary<QClause> => {
      if (op === 'null' || op === 'not_null') return fc.constant({ field: name, op, values: [], form: 'leaf' as const });
      if (op === 'like') return likeVal.map((v) => ({ field: name, op, values: [v], form: 'csv' as const }));
      if (op === 'in' || op === 'not_in') {
        return fc
          .record({
            values: fc.array(valueArb(name), { minLength: 1, maxLength: 3 }),
            form: fc.constantFrom('csv' as const, 'list' as const),
          })
          .map((r) => ({ field: name, op, ...r }));
      }
      if (op === 'between' || op === 'not_between') {
        return fc
          .record({ values: fc.tuple(valueArb(name), valueArb(name)), form: fc.constantFrom('csv' as const, 'list' as const) })
          .map((r) => ({
            field: name,
            op,
            ...r,
          }));
      }
      return fc.record({ v: valueArb(name), leaf: fc.boolean() }).map(({ v, leaf }) => ({
        field: name,
        op,
        values: [v],
        form: op === 'eq' && leaf ? ('leaf' as const) : ('csv' as const),
      }));
    }),
  )
  // id ranges only where ids are comparable either way: fine for both kinds of ids
  .filter((c) => !(c.field === 'cat' && c.op === 'like' && c.values[0] === undefined));

const SORT_FIELDS = ['num', 'cat', 'tags', 'day', 'at', 'flag', 'rel', 'id', 'locale', 'created_at', 'published_at'];

const queryArb = fc.record({
  and: fc.array(clauseArb, { maxLength: 3 }),
  groups: fc.array(fc.array(clauseArb, { minLength: 1, maxLength: 2 }), { maxLength: 2 }),
  or: fc.array(fc.array(clauseArb, { minLength: 1, maxLength: 2 }), { maxLength: 3 }),
  rel: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
  sort: fc.option(fc.array(fc.tuple(fc.constantFrom(...SORT_FIELDS), fc.boolean()), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  limit: fc.option(fc.integer({ min: 0, max: 25 }), { nil: undefined }),
  offset: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
  state: fc.option(fc.constantFrom('published', 'with_draft', 'only_draft'), { nil: undefined }),
  locale: fc.option(fc.constantFrom('en', 'de'), { nil: undefined }),
  mode: fc.constantFrom('list', 'list', 'list', 'count', 'first'),
});
type Query = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

const enc = encodeURIComponent;

function clauseParams(prefix: string, c: QClause): string[] {
  const p = `${prefix}[${c.field}]`;
  if (c.form === 'leaf') return [`${p}=${c.op === 'eq' ? enc(c.values[0] as string) : c.op}`];
  if (c.form === 'list') return c.values.map((v) => `${p}[${c.op}][]=${enc(v)}`);
  if (c.values.length === 0) return [`${p}[${c.op}]`];
  return [`${p}[${c.op}]=${c.values.map(enc).join(',')}`];
}

function serialise(q: Query): string {
  const parts: string[] = [];
  // one field per group/branch at most once per op: the generator may repeat (field, op) — keep
  // the first, since the same scalar key twice is (rightly) a 400.
  q.and.forEach((c, k) => {
    parts.push(...clauseParams(`where[${k + 10}]`, c));
  });
  q.groups.forEach((g, k) => {
    g.forEach((c, j) => {
      parts.push(...clauseParams(`where[${20 + k * 5 + j}]`, c));
    });
  });
  q.or.forEach((g, k) => {
    const seen = new Set<string>();
    for (const c of g) {
      if (seen.has(c.field)) continue;
      seen.add(c.field);
      parts.push(...clauseParams(`where[or][${k}]`, c));
    }
  });
  if (q.rel !== undefined) parts.push(`whereRelation[rel][name]=${q.rel}`);
  if (q.sort) parts.push(`sort=${q.sort.map(([f, d]) => `${f}:${d ? 'desc' : 'asc'}`).join(',')}`);
  if (q.limit !== undefined) parts.push(`limit=${q.limit}`);
  if (q.offset !== undefined) parts.push(`offset=${q.offset}`);
  if (q.state !== undefined) parts.push(`state=${q.state}`);
  if (q.locale !== undefined) parts.push(`locale=${q.locale}`);
  if (q.mode !== 'list') parts.push(q.mode);
  return parts.join('&');
}

/** The or groups as serialised (first clause per field in a group). */
function orGroups(q: Query): QClause[][] {
  return q.or.map((g) => {
    const seen = new Set<string>();
    return g.filter((c) => {
      if (seen.has(c.field)) return false;
      seen.add(c.field);
      return true;
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The reference evaluator: straightforward and slow

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function codePoints(a: string, b: string): number {
  const x = Array.from(a).map((c) => c.codePointAt(0) as number);
  const y = Array.from(b).map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

function likeRef(pattern: string, text: string): boolean {
  let src = '';
  for (const ch of Array.from(pattern.toLowerCase())) {
    src += ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(src, 'su').test(text.toLowerCase());
}

type Where = -1 | 0 | 1; // value before / within / after the query value

function position(name: string, v: unknown, q: string, numericIds: boolean): Where {
  const sign = (n: number): Where => (n < 0 ? -1 : n > 0 ? 1 : 0);
  switch (name) {
    case 'num':
      return sign((v as number) - Number(q));
    case 'day':
    case 'at':
    case 'created_at':
      if (q.length === 10) return sign(codePoints((v as string).slice(0, 10), q));
      return sign(Date.parse(v as string) - Date.parse(q));
    case 'id':
      return numericIds ? sign(Number(v) - Number(q)) : sign(codePoints(v as string, q));
    default:
      return sign(codePoints(v as string, q));
  }
}

function equals(name: string, v: unknown, q: string): boolean {
  switch (name) {
    case 'num':
      return v === Number(q);
    case 'flag':
      return v === (q === 'true' || q === '1');
    case 'day':
    case 'at':
    case 'created_at':
      return position(name, v, q, false) === 0;
    default:
      return v === q;
  }
}

/** The value an answer shows: a relation lists its published targets only. */
function shownValue(rec: EntryRecord, name: string, published: ReadonlySet<string>): unknown {
  if (name === 'id' || name === 'locale' || name === 'created_at' || name === 'published_at') return rec[name];
  const v = rec.values[name];
  return name === 'rel' && Array.isArray(v) ? v.filter((id) => published.has(id as string)) : v;
}

function clauseRef(rec: EntryRecord, c: QClause, numericIds: boolean, published: ReadonlySet<string>): boolean {
  const v = shownValue(rec, c.field, published);
  if (c.op === 'null') return empty(v);
  if (c.op === 'not_null') return !empty(v);
  const negated = c.op === 'not' || c.op === 'not_in' || c.op === 'not_between';
  const op = c.op === 'not' ? 'eq' : c.op === 'not_in' ? 'in' : c.op === 'not_between' ? 'between' : c.op;
  let result: boolean;
  if (empty(v)) result = false;
  else {
    const scalars = Array.isArray(v) ? (v as unknown[]) : [v];
    result = scalars.some((s) => {
      switch (op) {
        case 'eq':
        case 'in':
          return c.values.some((q) => equals(c.field, s, q));
        case 'like':
          return likeRef(c.values[0] as string, s as string);
        case 'lt':
          return position(c.field, s, c.values[0] as string, numericIds) < 0;
        case 'lte':
          return position(c.field, s, c.values[0] as string, numericIds) <= 0;
        case 'gt':
          return position(c.field, s, c.values[0] as string, numericIds) > 0;
        case 'gte':
          return position(c.field, s, c.values[0] as string, numericIds) >= 0;
        default:
          return (
            position(c.field, s, c.values[0] as string, numericIds) >= 0 && position(c.field, s, c.values[1] as string, numericIds) <= 0
          );
      }
    });
  }
  return negated ? !result : result;
}

/** The engine's answer to `q` (query string `raw`) is the reference evaluator's. */
function expectSameAnswer(r: QueryOutcome, ref: ReturnType<typeof reference>, q: Query, raw: string): void {
  if (q.mode === 'first' && ref.first === undefined) {
    expect(r.ok ? 200 : r.problem.status, raw).toBe(404);
    return;
  }
  if (!r.ok) throw new Error(`${raw}: ${JSON.stringify(r.problem)}`);
  const parsed = JSON.parse(r.body);
  if (q.mode === 'count') {
    expect(parsed, raw).toEqual({ count: ref.total });
  } else if (q.mode === 'first') {
    expect(parsed.data.id, raw).toBe(ref.first);
  } else {
    expect(parsed.meta, raw).toEqual({ total: ref.total, limit: q.limit ?? null, offset: q.offset ?? 0 });
    expect(
      parsed.data.map((e: { id: string }) => e.id),
      raw,
    ).toEqual(ref.ids);
  }
}

function reference(data: ReturnType<typeof buildModel>, q: Query): { total: number; ids: string[]; first: string | undefined } {
  const numericIds = idsAreIntegers(data.records);
  const state = q.state ?? 'published';
  const visible = (r: { draft: boolean }) => state === 'with_draft' || (state === 'only_draft') === r.draft;
  const and = [...q.and, ...q.groups.flat()];
  const ors = orGroups(q);
  // relation targets: the published ones, in every state (an answer shows no other)
  const published = new Set(data.targets.filter((t) => !t.draft).map((t) => t.id));
  const relIds = new Set(data.targets.filter((t) => !t.draft && t.values.name === q.rel).map((t) => t.id));
  let matches = data.records.filter((r) => {
    if (!visible(r)) return false;
    if (q.locale !== undefined && r.locale !== q.locale) return false;
    if (q.rel !== undefined && !((r.values.rel as string[] | undefined) ?? []).some((id) => relIds.has(id))) return false;
    const allAnd = and.every((c) => clauseRef(r, c, numericIds, published));
    const anyOr = ors.some((g) => g.every((c) => clauseRef(r, c, numericIds, published)));
    if (ors.length === 0) return allAnd;
    if (and.length === 0) return anyOr;
    return allAnd || anyOr;
  });
  if (q.sort) {
    const keys = q.sort.map(([f, d]) => ({ field: f, desc: d }));
    const shown = (r: EntryRecord): EntryRecord => ({ ...r, values: { ...r.values, rel: shownValue(r, 'rel', published) as FieldValue } });
    matches = matches.map(shown).sort(entryComparator(keys, numericIds));
  }
  const offset = q.offset ?? 0;
  const end = q.limit === undefined ? matches.length : offset + q.limit;
  return { total: matches.length, ids: matches.slice(offset, end).map((r) => r.id), first: matches[offset]?.id };
}

/** With integer ids, an id range needs numbers: the engine must refuse anything else. */
function badIdRange(q: Query, numericIds: boolean): boolean {
  if (!numericIds) return false;
  return [...q.and, ...q.groups.flat(), ...orGroups(q).flat()].some(
    (c) =>
      c.field === 'id' && ['lt', 'lte', 'gt', 'gte', 'between', 'not_between'].includes(c.op) && c.values.some((v) => !/^[0-9]+$/.test(v)),
  );
}

/** A query the engine must refuse: the same scalar key twice. */
function repeatsKey(q: Query): boolean {
  const keys = serialise(q)
    .split('&')
    .map((p) => p.split('=')[0] as string)
    .filter((k) => !k.endsWith('[]'));
  return new Set(keys).size !== keys.length;
}

describe('property: indexed engine = reference evaluator', () => {
  it('random data, random where/sort/limit queries', () => {
    const ctx: QueryContext = { scopes: new Set(['read', 'drafts']), maxLimit: 0 };
    fc.assert(
      fc.property(dataArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), (data, queries) => {
        const built = buildModel(data);
        for (const q of queries) {
          const raw = serialise(q);
          const r = queryEntries(built.project, built.items, raw, ctx);
          if (repeatsKey(q)) {
            expect(r.ok ? 200 : r.problem.code).toBe('duplicate_parameter');
            continue;
          }
          if (badIdRange(q, built.items.numericIds)) {
            expect(r.ok ? 200 : r.problem.code).toBe('invalid_value');
            continue;
          }
          expectSameAnswer(r, reference(built, q), q, raw);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('property: compact snapshot = full snapshot', () => {
  it("what cqa serve holds (values read back from the entries' texts) answers random queries the same", () => {
    const ctx: QueryContext = { scopes: new Set(['read', 'drafts']), maxLimit: 0 };
    fc.assert(
      fc.property(dataArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), (data, queries) => {
        const full = buildModel(data);
        const compact = buildModel(data, { compact: true });
        for (const q of queries) {
          const raw = serialise(q);
          expect(queryEntries(compact.project, compact.items, raw, ctx), raw).toEqual(queryEntries(full.project, full.items, raw, ctx));
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

/** `numRuns` sampled queries on `entries` random rows, each = the reference evaluator (both kinds of ids). */
function agreesAtScale(
  entries: number,
  defaultSort: SortKey[],
  queries: fc.Arbitrary<Query>,
  numRuns: number,
  seeds: readonly number[],
  paging = false,
): void {
  const ctx: QueryContext = { scopes: new Set(['read', 'drafts']), maxLimit: 0 };
  for (const numericIds of [false, true]) {
    const [rowSeed, querySeed] = numericIds ? [seeds[0], seeds[1]] : [seeds[2], seeds[3]];
    const rows = fc.sample(rowArb, { seed: rowSeed, numRuns: entries });
    const targets = fc.sample(fc.record({ name: fc.constantFrom('a', 'b'), draft: fc.boolean() }), { seed: 3, numRuns: 5 });
    const built = buildModel({ rows, numericIds, defaultSort, targets });
    for (const q of fc.sample(queries, { seed: querySeed, numRuns })) {
      if (repeatsKey(q) || badIdRange(q, numericIds)) continue;
      // Each query paged through (a client asking the next pages): from the second page on, the
      // matches kept for its filter and sort answer (src/core/query/results.ts).
      const pages =
        paging && q.mode === 'list'
          ? [0, 1, 2, 7].map((k) => ({ ...q, limit: q.limit ?? 9, offset: (q.offset ?? 0) + k * (q.limit ?? 9) }))
          : [q];
      for (const page of pages) {
        const raw = serialise(page);
        expectSameAnswer(queryEntries(built.project, built.items, raw, ctx), reference(built, page), page, raw);
      }
    }
  }
}

describe('at scale: indexed engine = reference evaluator', () => {
  it('10,000 entries, 200 sampled queries (index, top-k and permutation-walk paths)', () => {
    agreesAtScale(10_000, [{ field: 'num', desc: false }], queryArb, 100, [7, 5, 11, 9]);
  }, 60_000);
});

// Clauses an index answers with many candidates (a tenth of the table or more): with a sort and a
// short page, the engine walks the sort's cached order instead of ordering every match.
const broadClauseArb: fc.Arbitrary<QClause> = fc.oneof(
  fc.constantFrom(...TEXTS).map((v) => ({ field: 'cat', op: 'eq' as const, values: [v], form: 'csv' as const })),
  fc.subarray(TEXTS, { minLength: 2, maxLength: 4 }).map((values) => ({ field: 'cat', op: 'in' as const, values, form: 'csv' as const })),
  fc.tuple(numVal, numVal).map((values) => ({ field: 'num', op: 'between' as const, values, form: 'csv' as const })),
  fc.constantFrom(...TAGS).map((v) => ({ field: 'tags', op: 'eq' as const, values: [v], form: 'csv' as const })),
  dayVal.map((v) => ({ field: 'day', op: 'gte' as const, values: [v], form: 'csv' as const })),
);

const broadQueryArb = fc
  .tuple(
    queryArb,
    fc.array(broadClauseArb, { minLength: 1, maxLength: 2 }),
    fc.array(fc.tuple(fc.constantFrom(...SORT_FIELDS), fc.boolean()), { minLength: 1, maxLength: 2 }),
  )
  .map(([q, and, sort]): Query => ({ ...q, and, groups: [], or: [], rel: undefined, sort }));

describe('at scale: broad matches, short pages (the walk of a sorted order)', () => {
  it('20,000 entries, 150 sampled queries each = reference evaluator', () => {
    agreesAtScale(20_000, [], broadQueryArb, 150, [17, 23, 19, 29]);
  }, 60_000);
});

describe('at scale: paging through a list (kept results)', () => {
  it('10,000 entries, 100 sampled queries, each asked for 4 pages = reference evaluator', () => {
    agreesAtScale(10_000, [{ field: 'num', desc: false }], fc.oneof(queryArb, broadQueryArb), 100, [31, 37, 41, 43], true);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Garbage in: only typed 4xx problems out

const TOKENS = [
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
  '[',
  ']',
  '[]',
  '[or]',
  '[0]',
  '[1]',
  '[price]',
  '[title]',
  '[tags]',
  '[author]',
  '[released]',
  '[starts]',
  '[meta]',
  '[id]',
  '[eq]',
  '[in]',
  '[between]',
  '[like]',
  '[gt]',
  '[null]',
  '=',
  '&',
  '%',
  '%2',
  '%ZZ',
  '%E0%A4',
  '%5B',
  '%5D',
  '%00',
  '+',
  ',',
  ':',
  'desc',
  'asc',
  'null',
  'not_null',
  '__proto__',
  'constructor',
  'prototype',
  '9',
  '10',
  '-1',
  '1e999',
  '2021-01-31',
  'with_draft',
  'only_draft',
  'de',
  'fr',
  'true',
  '😀',
  '\u0000',
  '\uD800',
  'p1',
  'name',
  'country',
  '[name]',
  '[country]',
  '.',
  '..',
  '/',
];

const garbageArb = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 4 })), { maxLength: 24 }).map((a) => a.join('')),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

describe('property: garbage never throws', () => {
  it('random query strings yield an answer or a typed 4xx problem', () => {
    const ctxs: QueryContext[] = [drafter, { scopes: new Set(['read']), maxLimit: 5 }];
    fc.assert(
      fc.property(garbageArb, fc.constantFrom(0, 1), (raw, c) => {
        const ctx = ctxs[c] as QueryContext;
        const outcomes = [
          queryEntries(fixtureProject, productsCol, raw, ctx),
          queryEntries(fixtureProject, itemsCol, raw, ctx),
          queryEntry(fixtureProject, productsCol, 'p1', raw, ctx),
          queryMediaList(fixtureProject, raw, ctx),
          queryMediaItem(fixtureProject, 'a.png', raw, ctx),
        ];
        for (const o of outcomes) {
          if (o.ok) {
            expect(() => JSON.parse(o.body)).not.toThrow();
          } else {
            expect([400, 403, 404]).toContain(o.problem.status);
            expect(o.problem.code).toMatch(/^[a-z_]+$/);
            expect(typeof o.problem.detail).toBe('string');
          }
        }
      }),
      { numRuns: 1000 },
    );
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
