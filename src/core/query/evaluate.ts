// Evaluation of a plan over a table: compiles clauses into predicates over typed columns, picks
// the most selective index for candidates, filters, orders (top-k when a limit is given) and
// returns positions. No Node imports.
import { compareCodePoints } from '../snapshot/order.js';
import type { Clause, Cond, Interval, ListPlan, RelationClause, SortSpec, WhereExpr } from './plan.js';
import { Budget, COMPARE_COST, INTERVAL_COST, likeCost, TEST_COST } from './cost.js';
import { problem, ProblemError } from './problems.js';
import type { Result, Walk } from './results.js';
import { EMPTY_RANK, type Table } from './table.js';

type Test = (i: number) => boolean;

interface Candidates {
  readonly pos: Int32Array;
  /** Ascending positions (no duplicates). */
  readonly ordered: boolean;
}

/** A compiled predicate; `est`/`cands` when an index can list its matches. */
interface Node {
  readonly test: Test;
  readonly est?: number;
  readonly cands?: () => Candidates;
  /** With cands: what candidates must still pass (null: the candidates are exactly the matches). */
  readonly residual?: Test | null;
  /** The exact number of matches, when an index knows it without testing. */
  readonly count?: number;
  /** The test as data, `flags[codes[i]] === 1`, for loops over many entries (see keep). */
  readonly flags?: Flags;
  /** With cands: the residual as data. */
  readonly residualFlags?: Flags;
  /** Estimated cost of one `test` (cost.ts units); TEST_COST when not given. */
  readonly unit?: number;
  /** With cands: the estimated cost of one `residual` test. */
  readonly residualUnit?: number;
}

const unitOf = (x: Node): number => x.unit ?? TEST_COST;

interface Flags {
  readonly codes: Int32Array;
  readonly flags: Uint8Array;
}

const TRUE: Node = { test: () => true };

// Scratch memory for one query: position lists are cut from one reusable buffer instead of
// allocating a typed array (an external backing store) each time, which keeps the garbage
// collector out of the hot path. `resetScratch()` starts each runList; lists handed out before it
// stay valid until the next runList (the caller consumes the page at once). When the buffer is
// full a bigger one replaces it — lists cut from the old one keep referencing it.
let scratch = new Int32Array(1 << 16);
let scratchUsed = 0;

function resetScratch(): void {
  scratchUsed = 0;
}

function alloc(len: number): Int32Array {
  if (scratchUsed + len > scratch.length) {
    scratch = new Int32Array(Math.max(scratch.length * 2, len * 2));
    scratchUsed = 0;
  }
  const out = scratch.subarray(scratchUsed, scratchUsed + len);
  scratchUsed += len;
  return out;
}

function copy(a: Int32Array): Int32Array {
  const out = alloc(a.length);
  out.set(a);
  return out;
}

function inIval(v: number, iv: Interval): boolean {
  return (iv.loInc ? v >= iv.lo : v > iv.lo) && (iv.hiInc ? v <= iv.hi : v < iv.hi);
}

function inIvals(v: number, ivals: readonly Interval[]): boolean {
  for (let k = 0; k < ivals.length; k++) if (inIval(v, ivals[k] as Interval)) return true;
  return false;
}

function lowerBound(vals: Float64Array, x: number, inclusive: boolean): number {
  // first index with vals[k] >= x (inclusive) or > x (exclusive)
  let lo = 0;
  let hi = vals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = vals[mid] as number;
    if (inclusive ? v < x : v <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Concatenates position lists. `disjoint`: no position is in two lists (buckets of a
 * single-valued field, non-overlapping ranges) — then the result is left unordered; otherwise it
 * is sorted and de-duplicated.
 */
function union(parts: readonly Int32Array[], orderedSingle: boolean, disjoint: boolean): Candidates {
  if (parts.length === 1) return { pos: parts[0] as Int32Array, ordered: orderedSingle };
  let total = 0;
  for (const p of parts) total += p.length;
  const all = alloc(total);
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  if (disjoint) return { pos: all, ordered: false };
  all.sort();
  let m = 0;
  for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[m++] = all[k] as number;
  return { pos: all.subarray(0, m), ordered: true };
}

const EMPTY_I32 = new Int32Array(0);

function textNode(table: Table, name: string, multiple: boolean, raw: readonly string[], negate: boolean): Node {
  // Compared as the column is: folded when the table's dialect ignores case and accents.
  const f = table.field(name);
  const values = table.folds(f) ? raw.map((v) => table.key(f, v)) : raw;
  const set = new Set(values);
  const one = values.length === 1 ? (values[0] as string) : undefined;
  let test: Test;
  let flags: Flags | undefined;
  if (multiple) {
    const col = table.textMultiKeys(name);
    test = (i) => {
      const l = col[i] as readonly string[];
      for (let k = 0; k < l.length; k++) if (set.has(l[k] as string)) return true;
      return false;
    };
  } else if (f.isId) {
    const col = table.textKeys(name);
    test = one !== undefined ? (i) => col[i] === one : (i) => set.has(col[i] as string);
  } else {
    // Numbers in one array instead of strings spread over the heap: several times faster when a
    // test runs over 100,000s of entries (a residual, a walk), as for broad categories.
    const { codes, of } = table.codes(name);
    const wanted: number[] = [];
    for (const v of set) if (of.has(v)) wanted.push(of.get(v) as number);
    const [c0 = -1] = wanted;
    if (of.size <= 65536) {
      // A flag per value (the last one: empty values); Array.includes cost 4x as much.
      const mask = new Uint8Array(of.size + 1);
      for (const c of wanted) mask[c] = 1;
      test = wanted.length <= 1 ? (i) => codes[i] === c0 : (i) => mask[codes[i] as number] === 1;
      if (!negate) flags = { codes, flags: mask };
    } else {
      const many = new Set(wanted);
      test = wanted.length <= 1 ? (i) => codes[i] === c0 : (i) => many.has(codes[i] as number);
    }
  }
  if (negate) {
    const pos = test;
    return { test: (i) => !pos(i) };
  }
  const hash = table.hash(name);
  const buckets: Int32Array[] = [];
  let est = 0;
  for (const v of set) {
    const b = hash.get(v);
    if (b) {
      buckets.push(b);
      est += b.length;
    }
  }
  return {
    test,
    est,
    residual: null,
    ...(flags ? { flags } : {}),
    ...(!multiple || buckets.length <= 1 ? { count: est } : {}),
    cands: () => (buckets.length === 0 ? { pos: EMPTY_I32, ordered: true } : union(buckets, true, !multiple)),
  };
}

const isPoint = (iv: Interval) => iv.lo === iv.hi && iv.loInc && iv.hiInc;

function numNode(table: Table, name: string, multiple: boolean, ivals: readonly Interval[], negate: boolean): Node {
  const node = numTests(table, name, multiple, ivals, negate);
  // Lists of intervals are walked per value (dates compare as days: not points).
  const unit =
    ivals.length > 1 && !(ivals.length > 4 && !multiple && ivals.every(isPoint)) ? TEST_COST + INTERVAL_COST * ivals.length : TEST_COST;
  return { ...node, unit, ...(node.cands ? { residualUnit: 0 } : {}) };
}

function numTests(table: Table, name: string, multiple: boolean, ivals: readonly Interval[], negate: boolean): Node {
  let test: Test;
  if (multiple) {
    const col = table.numMulti(name);
    test = (i) => {
      const l = col[i] as readonly number[];
      for (let k = 0; k < l.length; k++) if (inIvals(l[k] as number, ivals)) return true;
      return false;
    };
  } else if (ivals.length > 4 && ivals.every(isPoint)) {
    // A long `in` list: one Set look-up per item instead of a walk through every value.
    const col = table.num(name);
    const points = new Set(ivals.map((iv) => iv.lo));
    test = (i) => points.has(col[i] as number);
  } else {
    const col = table.num(name);
    if (ivals.length === 1) {
      const { lo, hi, loInc, hiInc } = ivals[0] as Interval;
      test =
        loInc && hiInc
          ? (i) => {
              const v = col[i] as number;
              return v >= lo && v <= hi;
            }
          : (i) => inIval(col[i] as number, ivals[0] as Interval);
    } else {
      test = (i) => inIvals(col[i] as number, ivals);
    }
  }
  if (negate) {
    const pos = test;
    return { test: (i) => !pos(i) };
  }
  if (multiple) {
    // Points only: the hash index lists entries containing each value.
    if (!ivals.every(isPoint)) return { test };
    const hash = table.hash(name);
    const buckets: Int32Array[] = [];
    let est = 0;
    for (const iv of ivals) {
      const b = hash.get(iv.lo);
      if (b && !buckets.includes(b)) {
        buckets.push(b);
        est += b.length;
      }
    }
    return {
      test,
      est,
      residual: null,
      cands: () => (buckets.length === 0 ? { pos: EMPTY_I32, ordered: true } : union(buckets, true, false)),
    };
  }
  const { perm, vals } = table.sorted(name);
  const ranges: [number, number][] = [];
  let est = 0;
  for (const iv of ivals) {
    const a = iv.lo === -Infinity ? 0 : lowerBound(vals, iv.lo, iv.loInc);
    const b = iv.hi === Infinity ? vals.length : lowerBound(vals, iv.hi, !iv.hiInc);
    if (b > a) {
      ranges.push([a, b]);
      est += b - a;
    }
  }
  return {
    test,
    est,
    residual: null,
    ...(ranges.length <= 1 ? { count: est } : {}),
    cands: () => {
      if (ranges.length === 0) return { pos: EMPTY_I32, ordered: true };
      const parts = ranges.map(([a, b]) => perm.subarray(a, b));
      if (parts.length === 1) return { pos: parts[0] as Int32Array, ordered: false };
      return union(parts, false, false);
    },
  };
}

function compileCond(table: Table, clause: Clause): Node {
  const f = clause.field;
  const cond: Cond = clause.cond;
  switch (cond.t) {
    case 'empty': {
      const col = table.empty(f.name);
      return cond.negate ? { test: (i) => col[i] === 0 } : { test: (i) => col[i] === 1 };
    }
    case 'num':
      // A numeric condition on the id field compares the ids as numbers (integer ids).
      return numNode(table, f.name, f.multiple && !f.isId, cond.ivals, cond.negate);
    case 'text':
      return textNode(table, f.name, f.multiple, cond.values, cond.negate);
    case 'textrange': {
      const { loInc, hiInc, negate } = cond;
      const lo = cond.lo === null ? null : table.key(f, cond.lo);
      const hi = cond.hi === null ? null : table.key(f, cond.hi);
      const inRange = (s: string) => {
        if (lo !== null) {
          const c = compareCodePoints(s, lo);
          if (loInc ? c < 0 : c <= 0) return false;
        }
        if (hi !== null) {
          const c = compareCodePoints(s, hi);
          if (hiInc ? c > 0 : c >= 0) return false;
        }
        return true;
      };
      const col = table.textKeys(f.name);
      const { chars } = table.textSize(f.name);
      const unit = TEST_COST + COMPARE_COST * Math.min(Math.max(lo?.length ?? 0, hi?.length ?? 0), chars / Math.max(1, table.n));
      return negate
        ? { test: (i) => col[i] === undefined || !inRange(col[i] as string), unit }
        : { test: (i) => col[i] !== undefined && inRange(col[i] as string), unit };
    }
    case 'like': {
      const match = cond.match;
      const size = table.textSize(f.name);
      const perItem = Math.max(1, table.n);
      const unit = TEST_COST + likeCost(match.shape, size.values / perItem, size.chars / perItem);
      if (f.multiple) {
        const col = table.lower(f.name) as (readonly string[])[];
        return { test: (i) => (col[i] as readonly string[]).some(match), unit };
      }
      const col = table.lower(f.name) as (string | undefined)[];
      return { test: (i) => col[i] !== undefined && match(col[i] as string), unit };
    }
  }
}

function conj(tests: readonly Test[]): Test {
  if (tests.length === 1) return tests[0] as Test;
  if (tests.length === 2) {
    const [a, b] = tests as [Test, Test];
    return (i) => a(i) && b(i);
  }
  if (tests.length === 3) {
    const [a, b, c] = tests as [Test, Test, Test];
    return (i) => a(i) && b(i) && c(i);
  }
  return (i) => {
    for (let k = 0; k < tests.length; k++) if (!(tests[k] as Test)(i)) return false;
    return true;
  };
}

/** All of `nodes`; candidates from the most selective index, the others as residual tests. */
function and(nodes: readonly Node[]): Node {
  const list = nodes.filter((x) => x !== TRUE);
  if (list.length === 0) return TRUE;
  if (list.length === 1) return list[0] as Node;
  const test = conj(list.map((x) => x.test));
  let best: Node | undefined;
  for (const x of list) if (x.est !== undefined && (best === undefined || x.est < (best.est as number))) best = x;
  const unit = list.reduce((sum, x) => sum + unitOf(x), 0);
  if (!best) return { test, unit };
  const others = list.filter((x) => x !== best);
  const rest = others.map((x) => x.test);
  if (best.residual) rest.unshift(best.residual);
  const only = best.residual === null && others.length === 1 ? others[0]?.flags : undefined;
  const bestResidual = best.residual ? (best.residualUnit ?? unitOf(best)) : 0;
  return {
    test,
    unit,
    est: best.est as number,
    cands: best.cands as () => Candidates,
    residual: rest.length ? conj(rest) : null,
    residualUnit: others.reduce((sum, x) => sum + unitOf(x), bestResidual),
    ...(only ? { residualFlags: only } : {}),
  };
}

/** Any of `nodes`; candidates are the union of theirs when every one has an index. */
function or(nodes: readonly Node[]): Node {
  if (nodes.length === 1) return nodes[0] as Node;
  if (nodes.some((x) => x === TRUE)) return TRUE;
  const tests = nodes.map((x) => x.test);
  const test: Test = (i) => {
    for (let k = 0; k < tests.length; k++) if ((tests[k] as Test)(i)) return true;
    return false;
  };
  const unit = nodes.reduce((sum, x) => sum + unitOf(x), 0);
  if (nodes.some((x) => x.est === undefined)) return { test, unit };
  const est = nodes.reduce((s, x) => s + (x.est as number), 0);
  const exact = nodes.every((x) => x.residual === null);
  return {
    test,
    unit,
    est,
    residual: exact ? null : test,
    residualUnit: exact ? 0 : unit,
    cands: () =>
      union(
        nodes.map((x) => (x.cands as () => Candidates)().pos),
        false,
        false,
      ),
  };
}

function intersect(a: Interval, b: Interval): Interval {
  const lo = Math.max(a.lo, b.lo);
  const hi = Math.min(a.hi, b.hi);
  return {
    lo,
    loInc: (a.lo !== lo || a.loInc) && (b.lo !== lo || b.loInc),
    hi,
    hiInc: (a.hi !== hi || a.hiInc) && (b.hi !== hi || b.hiInc),
  };
}

/**
 * ANDed range clauses on one single-valued numeric field become one range
 * (`released[gte]=a&released[lt]=b` → one index lookup for [a, b)), so the index sees how
 * selective they are together.
 */
function mergeRanges(clauses: readonly Clause[]): Clause[] {
  const out: Clause[] = [];
  const byField = new Map<string, number>();
  for (const c of clauses) {
    const cond = c.cond;
    if (cond.t === 'num' && !cond.negate && cond.ivals.length === 1 && (c.field.isId || !c.field.multiple)) {
      const k = byField.get(c.field.name);
      if (k !== undefined) {
        const prev = out[k] as Clause;
        const iv = intersect((prev.cond as { ivals: readonly Interval[] }).ivals[0] as Interval, cond.ivals[0] as Interval);
        out[k] = { ...prev, cond: { t: 'num', ivals: [iv], negate: false } };
        continue;
      }
      byField.set(c.field.name, out.length);
    }
    out.push(c);
  }
  return out;
}

/** Items of `table` matching `where` and its relation clauses (whose scans spend from `budget`). */
function whereNode(table: Table, where: WhereExpr, budget: Budget): Node {
  const andNode = and(mergeRanges(where.and).map((c) => compileCond(table, c)));
  let expr: Node;
  if (where.or.length === 0) expr = andNode;
  else {
    const groups = where.or.map((g) => and(mergeRanges(g).map((c) => compileCond(table, c))));
    expr = where.and.length === 0 ? or(groups) : or([andNode, ...groups]);
  }
  const rels = where.rel.map((r) => relationNode(table, r, budget));
  return and([expr, ...rels]);
}

function relationNode(table: Table, rel: RelationClause, budget: Budget): Node {
  const ids: string[] = [];
  if (rel.target) {
    // Published targets in every state: an answer shows no other (see shownRefs in table.ts), so
    // the relation column holds no other ids to match.
    const target = rel.target.view('published');
    const node = whereNode(target, rel.where, budget);
    budget.spend(filterCost(target, node));
    for (const i of scan(target, node)) ids.push(target.ids[i] as string);
  }
  if (ids.length === 0 && rel.missIs404) {
    throw new ProblemError(problem(404, 'not_found', `${rel.param}: no related entry matches`, rel.param, { kind: 'relation_no_match' }));
  }
  return textNode(table, rel.field.name, rel.field.multiple, ids, false);
}

/** Positions matching `node`, ascending. */
function scan(table: Table, node: Node): Int32Array {
  const { matches, ordered } = filter(table, node);
  if (!ordered) matches.sort();
  return matches;
}

/** What `filter` will cost (cost.ts units): the candidates and their residual, else a test per item. */
function filterCost(table: Table, node: Node): number {
  const n = table.n;
  if (node === TRUE) return n;
  if (node.cands && (node.est as number) <= n / 4) {
    const residual = node.residual === undefined ? unitOf(node) : node.residual === null ? 0 : (node.residualUnit ?? unitOf(node));
    return (node.est as number) * (1 + residual);
  }
  return n * unitOf(node);
}

function filter(table: Table, node: Node): { matches: Int32Array; ordered: boolean } {
  const n = table.n;
  const test = node.test;
  // An index pays off when it leaves a small part of the table; otherwise scan in order.
  if (node.cands && (node.est as number) <= n / 4) {
    const c = node.cands();
    const pos = c.pos;
    const residual = node.residual === undefined ? test : node.residual;
    if (residual === null) return { matches: copy(pos), ordered: c.ordered };
    const out = alloc(pos.length);
    const m = keep(pos, residual, node.residualFlags, out);
    return { matches: out.subarray(0, m), ordered: c.ordered };
  }
  const out = alloc(n);
  let m = 0;
  if (node === TRUE) {
    for (let i = 0; i < n; i++) out[i] = i;
    return { matches: out, ordered: true };
  }
  for (let i = 0; i < n; i++) if (test(i)) out[m++] = i;
  return { matches: out.subarray(0, m), ordered: true };
}

/**
 * Writes the positions of `pos` that pass `test` to `out`; returns how many. A per-query closure
 * called here is not inlined once queries of several shapes have run (at 140,000 candidates
 * 1.5-2 ms instead of 0.8), so a test given as data gets a loop of its own.
 */
function keep(pos: Int32Array, test: Test, data: Flags | undefined, out: Int32Array): number {
  let m = 0;
  if (data) {
    const { codes, flags } = data;
    for (let k = 0; k < pos.length; k++) {
      const i = pos[k] as number;
      if (flags[codes[i] as number] === 1) out[m++] = i;
    }
  } else {
    for (let k = 0; k < pos.length; k++) {
      const i = pos[k] as number;
      if (test(i)) out[m++] = i;
    }
  }
  return m;
}

function comparator(table: Table, sort: readonly SortSpec[]): (a: number, b: number) => number {
  const idRank = table.idRank();
  const keys = sort.map((s) => ({ rank: table.rank(s.field), desc: s.desc }));
  return (a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const { rank, desc } = keys[k] as { rank: Int32Array; desc: boolean };
      const ra = rank[a] as number;
      const rb = rank[b] as number;
      if (ra !== rb) {
        if (ra === EMPTY_RANK) return 1;
        if (rb === EMPTY_RANK) return -1;
        return desc ? rb - ra : ra - rb;
      }
    }
    return (idRank[a] as number) - (idRank[b] as number);
  };
}

/** The first `k` of `items` in `cmp` order (a bounded max-heap), sorted. */
function topK(items: Int32Array, k: number, cmp: (a: number, b: number) => number): Int32Array {
  const heap = alloc(k);
  let size = 0;
  const siftDown = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let top = at;
      if (l < size && cmp(heap[l] as number, heap[top] as number) > 0) top = l;
      if (r < size && cmp(heap[r] as number, heap[top] as number) > 0) top = r;
      if (top === at) return;
      const t = heap[at] as number;
      heap[at] = heap[top] as number;
      heap[top] = t;
      at = top;
    }
  };
  for (let j = 0; j < items.length; j++) {
    const x = items[j] as number;
    if (size < k) {
      let at = size++;
      heap[at] = x;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (cmp(heap[at] as number, heap[parent] as number) <= 0) break;
        const t = heap[at] as number;
        heap[at] = heap[parent] as number;
        heap[parent] = t;
        at = parent;
      }
    } else if (k > 0 && cmp(x, heap[0] as number) < 0) {
      heap[0] = x;
      siftDown(0);
    }
  }
  return heap.subarray(0, size).sort(cmp);
}

export interface ListResult {
  /** Number of matches before limit/offset. */
  readonly total: number;
  /** The positions to answer with, in order (already cut to offset/limit); valid until the next runList. */
  readonly page: Int32Array;
}

/**
 * Runs a list plan: filter by state, locale and where; order; cut to the page. `key`: the plan's
 * resultKey (results.ts), to answer from the matches kept for it and keep them; null evaluates anew.
 */
export function runList(base: Table, plan: ListPlan, key: string | null = null): ListResult {
  resetScratch();
  const table = base.view(plan.state);
  const { total, page } = runOn(table, plan, key);
  const source = table.source;
  if (source === null || page.length === 0) return { total, page };
  const mapped = alloc(page.length);
  for (let k = 0; k < page.length; k++) mapped[k] = source[page[k] as number] as number;
  return { total, page: mapped };
}

function runOn(table: Table, plan: ListPlan, key: string | null): ListResult {
  const n = table.n;
  const want = plan.count ? 0 : plan.first ? 1 : plan.limit;
  const results = table.results();
  const kept = key === null ? undefined : results.get(key);
  const known = kept?.sorted ? pageOf(table, kept, plan.offset, want, key) : undefined;
  if (known) return known;
  const parts: Node[] = [];
  if (plan.locale !== null && table.fields.get('locale')) {
    parts.push(textNode(table, 'locale', false, [plan.locale], false));
  }
  const budget = new Budget();
  parts.push(whereNode(table, plan.where, budget));
  const node = and(parts);
  const test = node.test;
  let total = kept?.total ?? (node === TRUE ? n : node.count);
  if (plan.count && total !== undefined) return { total, page: EMPTY_I32 };
  const indexed = node.cands !== undefined && (node.est as number) <= n / 4;
  // Without a selective index a page may take two passes: a count, then a walk or a filter.
  budget.spend(filterCost(table, node) * (indexed || want === null ? 1 : 2));
  let matches: Int32Array | undefined;
  let ordered = true;
  if (indexed || want === null) {
    ({ matches, ordered } = filter(table, node));
    total = matches.length;
  } else if (total === undefined) {
    // No selective index, and only a page (or a count) is wanted: count with one pass that
    // allocates nothing, then walk an order (positions, or the cached permutation of the sort)
    // until the page is full. The count is kept: the next asking skips this pass.
    total = 0;
    for (let i = 0; i < n; i++) if (test(i)) total++;
    if (key !== null) results.set(key, { total, sorted: null, found: 0 });
  }
  if (plan.count) return { total, page: EMPTY_I32 };
  const end = want === null ? total : Math.min(total, plan.offset + want);
  // Many matches (category=garden: 100,000 of a million) and a short page: walking the sort's
  // cached order costs about end·n/total tests, a top-k over the matches about total comparisons.
  // A walk's result is kept as far as it went: the next page goes on from there.
  let sort: string | null | undefined;
  if (plan.sort === null) sort = matches ? undefined : null;
  else if (end < total && total * total > 4 * end * n) {
    sort = sortKey(plan.sort);
    table.order(sort, comparator(table, plan.sort)); // cached for the walk
  }
  if (sort !== undefined)
    return pageOf(table, { total, sorted: EMPTY_I32, found: 0, walk: { sort, test, next: 0 } }, plan.offset, want, key) as ListResult;
  if (plan.offset >= end) return { total, page: EMPTY_I32 };
  matches ??= filter(table, node).matches;
  // From its second asking, every match is ordered and kept when they fit.
  const all = key !== null && results.admit(key) && results.fits(total);
  const stop = all ? total : end;
  let sorted: Int32Array;
  if (plan.sort === null) {
    if (ordered) sorted = matches;
    else if (stop < total && stop <= 4096) sorted = topK(matches, stop, (a, b) => a - b);
    else sorted = copy(matches).sort();
  } else {
    const cmp = comparator(table, plan.sort);
    sorted = stop < total && stop <= total / 4 ? topK(matches, stop, cmp) : copy(matches).sort(cmp);
  }
  if (!all) return { total, page: sorted.subarray(plan.offset, end) };
  return pageOf(table, { total, sorted: sorted.slice(0, total), found: total }, plan.offset, want, key) as ListResult;
}

/**
 * The page `[offset, offset + want)` of a result, walking on first if it has not got that far. A
 * new result, or one that grew, is kept under `key` (when there is one). Undefined when its walk
 * cannot go on (the table let the order go).
 */
function pageOf(table: Table, r: Result, offset: number, want: number | null, key: string | null): ListResult | undefined {
  const total = r.total;
  const end = want === null ? total : Math.min(total, offset + want);
  if (offset >= end) return { total, page: EMPTY_I32 };
  if (r.found < end || r.bytes === undefined) {
    if (r.walk && !walkOn(table, r, r.walk, end)) return undefined;
    if (key !== null) table.results().set(key, r);
  }
  return { total, page: (r.sorted as Int32Array).subarray(offset, end) };
}

/** Walks on until `end` matches are found (there are that many), into a grown array of its own. */
function walkOn(table: Table, r: Result, w: Walk, end: number): boolean {
  const order = w.sort === null ? null : table.cachedOrder(w.sort);
  if (order === undefined) return false;
  let out = r.sorted as Int32Array;
  if (out.length < end) {
    out = new Int32Array(Math.min(r.total, Math.max(end, 2 * out.length)));
    out.set((r.sorted as Int32Array).subarray(0, r.found));
    r.sorted = out;
  }
  const { n } = table;
  const test = w.test;
  let m = r.found;
  let k = w.next;
  for (; k < n && m < end; k++) {
    const i = order === null ? k : (order[k] as number);
    if (test(i)) out[m++] = i;
  }
  r.found = m;
  w.next = k;
  return true;
}

function sortKey(sort: readonly SortSpec[]): string {
  return sort.map((s) => `${s.field}:${s.desc ? 'desc' : 'asc'}`).join(',');
}
