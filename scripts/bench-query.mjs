// P3 (SPEC §6): in-process query evaluation on 100,000 entries — selective eq/in/range + sort +
// limit 20 — against a plain filter-then-sort baseline over the same records.
//
//   npm run build:ts && node --expose-gc scripts/bench-query.mjs [--entries 100000] [--iterations 300] [--rounds 3] [--dialect elmapi] [--no-sqlite] [--json]
//
// `--dialect elmapi`: the same data and queries in a project of the elmapi dialect (text compared
// case- and accent-folded, bare arrays; sort items get their direction, which that dialect requires).
//
// Importable too: `import { runP3 } from './bench-query.mjs'` → { value, goal, unit, pass, detail, ... }.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { queryEntries } from '../lib/core/query/index.js';
import { createSnapshot } from '../lib/core/snapshot/create.js';
import { mulberry32 } from './generate-content.mjs';
import { entryComparator } from '../lib/core/snapshot/order.js';
import { entryJson, listJson } from '../lib/core/snapshot/serialize.js';
import { loadSqlite, sqliteAnchor } from './bench/sqlite-anchor.mjs';

const rng = mulberry32;

const CATEGORIES = Array.from({ length: 50 }, (_, i) => `c${i}`);
const TAGS = ['new', 'sale', 'eco', 'gift', 'bulk', 'rare', 'local', 'b2b'];
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

function field(name, type, extra = {}) {
  return { name, type, required: false, multiple: false, hidden: false, ...extra };
}

export function makeModel(n, seed = 42, dialect = 'cqa') {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const entries = [];
  for (let i = 0; i < n; i++) {
    const id = `p${String(i).padStart(6, '0')}`;
    const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(r() * 1500) * 86_400_000).toISOString();
    const values = {
      title: `${pick(WORDS)} ${pick(WORDS)} ${i}`,
      category: pick(CATEGORIES),
      price: Math.floor(r() * 100_000) / 100,
      stock: Math.floor(r() * 500),
      released: day.slice(0, 10),
      tags: TAGS.filter(() => r() < 0.2),
      active: r() < 0.7,
      body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8),
    };
    if (r() < 0.02) delete values.price;
    entries.push({
      id,
      locale: r() < 0.8 ? 'en' : 'de',
      draft: r() < 0.05,
      created_at: day,
      updated_at: day,
      published_at: day,
      values,
      file: `${id}.md`,
    });
  }
  const collection = {
    slug: 'products',
    name: 'Products',
    body_field: 'body',
    sort: [],
    fields: [
      field('title', 'text'),
      field('category', 'enumeration', { values: CATEGORIES }),
      field('price', 'number'),
      field('stock', 'number'),
      field('released', 'date'),
      field('tags', 'enumeration', { values: TAGS, multiple: true }),
      field('active', 'boolean'),
      field('body', 'markdown'),
    ],
    entries,
  };
  return {
    projects: [
      {
        id: 'bench',
        name: 'Bench',
        description: null,
        default_locale: 'en',
        locales: ['en', 'de'],
        public: true,
        ...(dialect === 'cqa' ? {} : { dialect }),
        tokens: [],
        media: [],
        collections: [collection],
      },
    ],
  };
}

const inRange = (v, lo, hi) => typeof v === 'number' && v >= lo && v <= hi;

/** The queries, each with the equivalent hand-written predicate and sort for the baseline. */
export const QUERY_SET = [
  {
    q: 'where[category]=c7&sort=price:desc&limit=20',
    pred: (e) => e.values.category === 'c7',
    sort: [{ field: 'price', desc: true }],
  },
  {
    q: 'where[category][in]=c1,c2,c3&where[price][between]=100,400&sort=released:desc&limit=20',
    pred: (e) => ['c1', 'c2', 'c3'].includes(e.values.category) && inRange(e.values.price, 100, 400),
    sort: [{ field: 'released', desc: true }],
  },
  {
    q: 'where[price][between]=500,520&sort=title&limit=20',
    pred: (e) => inRange(e.values.price, 500, 520),
    sort: [{ field: 'title', desc: false }],
  },
  {
    q: 'where[released][gte]=2021-03-01&where[released][lt]=2021-03-08&where[stock][gt]=100&sort=stock:desc,id&limit=20',
    pred: (e) => e.values.released >= '2021-03-01' && e.values.released < '2021-03-08' && e.values.stock > 100,
    sort: [
      { field: 'stock', desc: true },
      { field: 'id', desc: false },
    ],
  },
  {
    q: 'where[id][in]=p000010,p050000,p099999&sort=price&limit=20',
    pred: (e) => ['p000010', 'p050000', 'p099999'].includes(e.id),
    sort: [{ field: 'price', desc: false }],
  },
];

/** The plain approach: filter every entry, sort all matches, cut the page, serialise. */
function baseline(col, query, list = listJson) {
  const cmp = entryComparator(query.sort, col.numericIds);
  const matches = col.entries.filter((e) => !e.record.draft && query.pred(e.record));
  matches.sort((a, b) => cmp(a.record, b.record));
  const page = matches.slice(0, 20).map((e) => entryJson(e));
  return list(page, matches.length, 20, 0);
}

/** `sort=title` → `sort=title:asc`: the elmapi dialect wants every direction spelled out. */
function withDirections(q) {
  return q.replace(
    /sort=([^&]*)/,
    (_, items) =>
      `sort=${items
        .split(',')
        .map((i) => (i.includes(':') ? i : `${i}:asc`))
        .join(',')}`,
  );
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function time(fn, iterations) {
  const out = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

export function runP3({ entries = 100_000, iterations = 300, rounds = 3, dialect = 'cqa', sqlite = true, log = () => {} } = {}) {
  const t0 = performance.now();
  const snapshot = createSnapshot(makeModel(entries, 42, dialect));
  const QUERIES = QUERY_SET.map((query) => (dialect === 'cqa' ? query : { ...query, q: withDirections(query.q) }));
  const project = snapshot.projects.get('bench');
  const col = project.collections.get('products');
  log(`snapshot of ${entries} entries built in ${(performance.now() - t0).toFixed(0)} ms`);
  // Each query evaluated anew, as SQLite and the naive baseline do: without `reuse: false` the
  // repeats would be answered from the matches kept for paging (src/core/query/results.ts).
  const ctx = { scopes: new Set(['read']), maxLimit: 1000, reuse: false };

  // Same answers, and warm-up (the engine builds its column/index caches lazily, once).
  const t1 = performance.now();
  for (const query of QUERIES) {
    const r = queryEntries(project, col, query.q, ctx);
    if (!r.ok) throw new Error(`${query.q}: ${JSON.stringify(r.problem)}`);
    const b = baseline(col, query, project.dialect.list);
    if (r.body !== b) throw new Error(`engine and baseline disagree on ${query.q}`);
  }
  log(`first queries (index build) took ${(performance.now() - t1).toFixed(0)} ms`);

  // Engine first, then the baseline, so the baseline's garbage (full filters and sorts of
  // 100,000 entries) is not collected while the engine is being timed. The engine runs in
  // `rounds` rounds (all queries interleaved); p50/p99 are those of the median round, so one
  // round disturbed by another process on the machine does not decide the result.
  const perQuery = QUERIES.map((query) => ({ q: query.q, e: [] }));
  const roundStats = [];
  for (let round = 0; round < rounds; round++) {
    globalThis.gc?.();
    const all = [];
    for (let it = 0; it < iterations; it++) {
      QUERIES.forEach((query, k) => {
        const t = performance.now();
        queryEntries(project, col, query.q, ctx);
        const dt = performance.now() - t;
        all.push(dt);
        perQuery[k].e.push(dt);
      });
    }
    all.sort((x, y) => x - y);
    roundStats.push({ p50: percentile(all, 50), p99: percentile(all, 99) });
  }
  perQuery.forEach((p) => {
    p.e.sort((x, y) => x - y);
    Object.assign(p, { engine_p50: percentile(p.e, 50), engine_p99: percentile(p.e, 99) });
    delete p.e;
  });
  // A client paging through each list (offsets 0…iterations-1): answered from the matches kept
  // for its filter and sort after the first pages (src/core/query/results.ts).
  const paging = { scopes: new Set(['read']), maxLimit: 1000 };
  const paged = [];
  QUERIES.forEach((query, k) => {
    const t = time((i) => queryEntries(project, col, `${query.q}&offset=${i}`, paging), iterations);
    paged.push(...t);
    t.sort((x, y) => x - y);
    Object.assign(perQuery[k], { paged_p50: percentile(t, 50), paged_p99: percentile(t, 99) });
  });
  paged.sort((x, y) => x - y);
  const byP99 = [...roundStats].sort((a, b) => a.p99 - b.p99);
  const median = byP99[Math.floor(byP99.length / 2)];
  const base = [];
  const baseIterations = Math.max(5, Math.floor(iterations / 10));
  QUERIES.forEach((query, k) => {
    const b = time(() => baseline(col, query), baseIterations);
    base.push(...b);
    b.sort((x, y) => x - y);
    Object.assign(perQuery[k], { baseline_p50: percentile(b, 50) });
  });
  base.sort((x, y) => x - y);
  const anchor = sqlite ? sqliteTimes(project, col, QUERIES, perQuery, { iterations, rounds, log }) : { skipped: 'not asked for' };
  const e50 = median.p50;
  const e99 = median.p99;
  const b50 = percentile(base, 50);
  const b99 = percentile(base, 99);
  const ratio = b50 / e50;
  // Against SQLite, per query: our p50 and p99 at most half of its own (when it could be had).
  const worstVsSqlite = anchor.skipped
    ? undefined
    : Math.max(...perQuery.flatMap((p) => [p.cpu_p50 / p.sqlite_p50, p.cpu_p99 / p.sqlite_p99]));
  const pass = ratio >= 10 && e99 <= 2 && (worstVsSqlite === undefined || worstVsSqlite <= 0.5);
  const vsSqlite = anchor.skipped
    ? `; SQLite anchor skipped: ${anchor.skipped}`
    : `; vs SQLite ${anchor.version} in memory (better-sqlite3, prepared statements, page + count(*), an index on every filtered column, answers byte-equal; CPU time per query, blocks taking turns): worst ours/SQLite ${worstVsSqlite.toFixed(2)}× (goal ≤ 0.5×); per query ours vs SQLite p50, p99 in ms: ${perQuery.map((p, k) => `q${k + 1} ${p.cpu_p50.toFixed(3)} vs ${p.sqlite_p50.toFixed(3)}, ${p.cpu_p99.toFixed(3)} vs ${p.sqlite_p99.toFixed(3)} (${(p.cpu_p50 / p.sqlite_p50).toFixed(2)}×/${(p.cpu_p99 / p.sqlite_p99).toFixed(2)}×)`).join('; ')}`;
  return {
    value: Number(ratio.toFixed(1)),
    goal: 10,
    unit: 'ratio',
    pass,
    detail: `${dialect === 'cqa' ? '' : `dialect ${dialect}: `}engine p50 ${e50.toFixed(3)} ms, p99 ${e99.toFixed(3)} ms (goal ≤ 2 ms; median of ${rounds} rounds, p99 per round: ${roundStats.map((r) => r.p99.toFixed(2)).join('/')}); baseline filter-then-sort p50 ${b50.toFixed(2)} ms, p99 ${b99.toFixed(2)} ms; paged through (offsets 0–${iterations - 1}, kept results) p50 ${percentile(paged, 50).toFixed(3)} ms, p99 ${percentile(paged, 99).toFixed(3)} ms; ${entries} entries, ${QUERIES.length} queries${vsSqlite}`,
    engine: { p50: e50, p99: e99, rounds: roundStats },
    paged: { p50: percentile(paged, 50), p99: percentile(paged, 99) },
    baseline: { p50: b50, p99: b99 },
    perQuery,
  };
}

/**
 * The same queries on SQLite (scripts/bench/sqlite-anchor.mjs): answers checked equal to ours,
 * then timed like the engine (rounds of interleaved queries); adds sqlite_p50/p99 to `perQuery`.
 */
function sqliteTimes(project, col, queries, perQuery, { iterations, rounds, log }) {
  if (queries.some((q) => q.q.includes(':asc'))) return { skipped: 'the elmapi dialect is not compared' };
  const got = loadSqlite(log);
  if (got.skipped) {
    log(`P3: ${got.skipped}; the SQLite anchor is skipped`);
    return got;
  }
  const t0 = performance.now();
  const db = sqliteAnchor(got.Database, col, { entryJson, list: project.dialect.list });
  log(`SQLite ${db.version}: ${col.entries.length} rows and indexes in ${(performance.now() - t0).toFixed(0)} ms`);
  const ctx = { scopes: new Set(['read']), maxLimit: 1000, reuse: false };
  try {
    queries.forEach((query, k) => {
      const ours = queryEntries(project, col, query.q, ctx).body;
      if (db.run(k) !== ours)
        throw new Error(
          `P3: SQLite and the engine disagree on ${query.q}:\n  sqlite: ${db.run(k).slice(0, 300)}\n  ours:   ${ours.slice(0, 300)}`,
        );
    });
    // Ours and SQLite take turns by blocks (each block: every query `iterations` times), so each
    // runs with its own data in the CPU caches, as each would in a server of its own; alternating
    // query by query made both 3–4× slower. Each query is timed by wall clock and by the CPU time
    // this process used (process.cpuUsage, µs): on a machine shared with other processes, wall
    // time's tail is how long the scheduler kept us waiting, not the query. The goal uses CPU time.
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const ours = queries.map(() => []);
    const theirs = queries.map(() => []);
    const oursWall = queries.map(() => []);
    const theirsWall = queries.map(() => []);
    const block = (run, cpu, wall) => {
      globalThis.gc?.();
      for (let it = 0; it < iterations; it++) {
        queries.forEach((query, k) => {
          const t = cpuMs();
          const w = performance.now();
          run(query, k);
          wall[k].push(performance.now() - w);
          cpu[k].push(cpuMs() - t);
        });
      }
    };
    for (let round = 0; round < rounds; round++) {
      block((query) => queryEntries(project, col, query.q, ctx), ours, oursWall);
      block((_, k) => db.run(k), theirs, theirsWall);
    }
    queries.forEach((_, k) => {
      const [o, t] = [ours[k].sort((x, y) => x - y), theirs[k].sort((x, y) => x - y)];
      Object.assign(perQuery[k], {
        cpu_p50: percentile(o, 50),
        cpu_p99: percentile(o, 99),
        sqlite_p50: percentile(t, 50),
        sqlite_p99: percentile(t, 99),
      });
      const [ow, tw] = [oursWall[k].sort((x, y) => x - y), theirsWall[k].sort((x, y) => x - y)];
      Object.assign(perQuery[k], {
        wall_p50: percentile(ow, 50),
        wall_p99: percentile(ow, 99),
        sqlite_wall_p50: percentile(tw, 50),
        sqlite_wall_p99: percentile(tw, 99),
      });
    });
  } finally {
    db.close();
  }
  return { version: db.version };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const arg = (name, dflt) => {
    const i = args.indexOf(name);
    return i === -1 ? dflt : Number(args[i + 1]);
  };
  const result = runP3({
    entries: arg('--entries', 100_000),
    iterations: arg('--iterations', 300),
    rounds: arg('--rounds', 3),
    dialect: args.includes('--dialect') ? args[args.indexOf('--dialect') + 1] : 'cqa',
    sqlite: !args.includes('--no-sqlite'),
    log: (s) => console.error(s),
  });
  if (args.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    for (const p of result.perQuery) {
      console.log(
        `${p.engine_p50.toFixed(3).padStart(8)} ms p50 ${p.engine_p99.toFixed(3).padStart(8)} ms p99   baseline ${p.baseline_p50.toFixed(2).padStart(7)} ms${p.sqlite_p50 === undefined ? '' : `   CPU ours ${p.cpu_p50.toFixed(3)} / ${p.cpu_p99.toFixed(3)} ms, sqlite ${p.sqlite_p50.toFixed(3)} / ${p.sqlite_p99.toFixed(3)} ms; wall ours ${p.wall_p50.toFixed(3)} / ${p.wall_p99.toFixed(3)}, sqlite ${p.sqlite_wall_p50.toFixed(3)} / ${p.sqlite_wall_p99.toFixed(3)}`}   ${p.q}`,
      );
    }
    console.log(`P3 ${result.pass ? 'PASS' : 'FAIL'}: ${result.value}× (goal ≥ 10×) — ${result.detail}`);
  }
}
