// P3's anchor: the engine users would otherwise pick. Nuxt Content v3 and most "content as data"
// tools query SQLite, so the same entries go into an in-memory SQLite database (better-sqlite3),
// with an index on every filtered column, and the same queries run as prepared statements
// (the page, then count(*)), their answers assembled into the same JSON and checked equal to ours.
//
// better-sqlite3 builds from source here (~2–3 minutes), so it is not a dependency of the project:
// it is installed on first use into a cache folder outside the repository and reused.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

// better-sqlite3 12 built against Node 24.19+ headers aborts the process when the GC frees one of
// its objects outside JavaScript (a V8 task between callbacks): `RemoveEnvironmentCleanupHook`,
// Assertion failed: (env) != nullptr (nodejs/node#65446; fixed in better-sqlite3 13, which needs
// Node 22+). Every database and statement the bench makes is kept here until the process ends, so
// none is ever freed by the GC (docs/benchmarks.md#how-it-is-measured).
const kept = [];

// One install per Node ABI: a native module built for Node 20 does not load in Node 24.
export const SQLITE_CACHE = join(process.env.CQA_BENCH_CACHE ?? join(homedir(), '.cache', 'cqa-bench'), `abi${process.versions.modules}`);

/**
 * The better-sqlite3 constructor, installed into SQLITE_CACHE when missing, or `{ skipped }` with
 * the reason when it cannot be had (no network, no compiler).
 */
export function loadSqlite(log) {
  const from = createRequire(join(SQLITE_CACHE, 'package.json'));
  const attempt = () => {
    try {
      // By its path: a bare name would also find another ABI's install in a folder above.
      const Database = from(join(SQLITE_CACHE, 'node_modules', 'better-sqlite3'));
      const probe = new Database(':memory:'); // the native part loads here: a build for another Node fails now
      kept.push(probe);
      probe.close();
      return Database;
    } catch (err) {
      return err;
    }
  };
  let mod = attempt();
  if (!(mod instanceof Error)) return { Database: mod };
  log(`installing better-sqlite3 into ${SQLITE_CACHE} (built from source, ~3 minutes, once) …`);
  mkdirSync(SQLITE_CACHE, { recursive: true });
  // npm 11 runs no install scripts unless allowed; this package's build is its install script.
  // Built against the Node that runs the bench (its headers beside it when it has them, as the
  // registry's node packages do), not the one npm itself runs on.
  const headers = join(dirname(dirname(process.execPath)), 'include', 'node');
  const target = existsSync(headers) ? { npm_config_nodedir: dirname(dirname(headers)) } : { npm_config_target: process.versions.node };
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', SQLITE_CACHE, '--no-save', '--no-audit', '--no-fund', '--foreground-scripts', 'better-sqlite3@12'],
    {
      env: { ...process.env, npm_config_ignore_scripts: 'false', ...target },
      encoding: 'utf8',
      timeout: 15 * 60_000,
    },
  );
  mod =
    npm.status === 0
      ? attempt()
      : new Error(`npm install exited with ${npm.status}: ${(npm.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`);
  if (mod instanceof Error) return { skipped: `better-sqlite3 could not be installed or loaded (${mod.message.split('\n')[0]})` };
  return { Database: mod };
}

/** The queries of bench-query.mjs's QUERY_SET in SQL, in the same order (drafts left out). */
const ORDER_PRICE_DESC = 'price IS NULL, price DESC, id';
export const SQL_QUERIES = [
  { where: 'category = ?', params: ['c7'], order: ORDER_PRICE_DESC },
  {
    where: 'category IN (?, ?, ?) AND price BETWEEN ? AND ?',
    params: ['c1', 'c2', 'c3', 100, 400],
    order: 'released IS NULL, released DESC, id',
  },
  { where: 'price BETWEEN ? AND ?', params: [500, 520], order: 'title IS NULL, title, id' },
  {
    where: 'released >= ? AND released < ? AND stock > ?',
    params: ['2021-03-01', '2021-03-08', 100],
    order: 'stock IS NULL, stock DESC, id',
  },
  { where: 'id IN (?, ?, ?)', params: ['p000010', 'p050000', 'p099999'], order: 'price IS NULL, price, id' },
];

/**
 * Loads the collection's entries into an in-memory database and prepares the queries.
 * `entryJson(e)`: the entry as served (stored as the row's JSON, as a content tool would).
 * Returns `run(k)` → the answer's JSON text, built like ours with `list(items, total, 20, 0)`.
 */
export function sqliteAnchor(Database, col, { entryJson, list }) {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE products (id TEXT PRIMARY KEY, draft INTEGER NOT NULL, title TEXT, category TEXT,
    price REAL, stock INTEGER, released TEXT, json TEXT NOT NULL) WITHOUT ROWID`);
  kept.push(db);
  const insert = db.prepare('INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  kept.push(insert);
  db.transaction(() => {
    for (const e of col.entries) {
      const v = e.record.values;
      insert.run(
        e.record.id,
        e.record.draft ? 1 : 0,
        v.title ?? null,
        v.category ?? null,
        v.price ?? null,
        v.stock ?? null,
        v.released ?? null,
        entryJson(e),
      );
    }
  })();
  for (const c of ['category', 'price', 'stock', 'released']) db.exec(`CREATE INDEX products_${c} ON products (${c})`);
  db.exec('ANALYZE');
  const prepared = SQL_QUERIES.map((q) => ({
    page: db.prepare(`SELECT json FROM products WHERE draft = 0 AND ${q.where} ORDER BY ${q.order} LIMIT 20`).pluck(),
    count: db.prepare(`SELECT count(*) FROM products WHERE draft = 0 AND ${q.where}`).pluck(),
    params: q.params,
  }));
  const versionOf = db.prepare('SELECT sqlite_version()').pluck();
  kept.push(prepared, versionOf);
  return {
    run(k) {
      const p = prepared[k];
      return list(p.page.all(...p.params), p.count.get(...p.params), 20, 0);
    },
    close: () => db.close(),
    version: versionOf.get(),
  };
}

export const sqliteCacheExists = () => existsSync(join(SQLITE_CACHE, 'node_modules', 'better-sqlite3'));
