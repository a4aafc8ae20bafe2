// P8 (SPEC §6): a million entries, behind `npm run bench -- --scale` (it takes long). Generates the
// entries in a temporary folder (removed afterwards), then measures:
//   - `cqa serve`: process start to listening (the load), RSS after the first queries against the
//     JSON data (json-server's db.json of the same items), and P3's five query shapes over HTTP,
//     p99 of each: a client paging through each list (offsets 0–999, so no answer comes from the
//     answer caches), in a process of its own (page-through.mjs). The floor: the same client
//     asking a bare node:http server for the same URLs, which answers the bytes cqa sent (on this
//     2-core machine a client's own garbage collector and decompression, as `fetch` does them,
//     cost more than the server's whole answer: see docs/benchmarks.md);
//   - `cqa build`: time and peak RSS (VmHWM of its largest process, the load process, read from /proc while it runs).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJsonServerDb, generateContent, TOKEN } from '../generate-content.mjs';
import { CQA, ROOT, round, rssOf, sleep, spawnServer } from './lib.mjs';

const MiB = 2 ** 20;

/** P3's query shapes (scripts/bench-query.mjs), on the generated items' fields. */
export const SCALE_QUERIES = [
  'where[category]=garden&sort=price:desc&limit=20',
  'where[category][in]=books,music,toys&where[price][between]=100,400&sort=published:desc&limit=20',
  'where[price][between]=500,520&sort=title&limit=20',
  'where[published][gte]=2021-03-01&where[published][lt]=2021-03-08&where[stock][gt]=100&sort=stock:desc,id&limit=20',
  'where[id][in]=item-0000010,item-0500000,item-0999999&sort=price&limit=20',
];

const PAGES = 1000;

/** Runs the P8 client (page-through.mjs) against `base`; resolves to its per-query timings. */
function pageThrough(base, request, routesOut) {
  return new Promise((resolve, reject) => {
    const args = [join(ROOT, 'scripts/bench/page-through.mjs'), base, request, ...(routesOut ? [routesOut] : [])];
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`P8 client: ${stderr || err.message}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

/** Peak RSS (VmHWM) of a process, in bytes, or NaN once it is gone. */
function peakOf(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The process and its descendants (the build runs in the load process, a child of the CLI). */
function treeOf(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${all[i]}/task`))
        for (const c of readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8').split(' ')) if (c.trim()) all.push(Number(c));
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** Runs `cqa build`, polling the peak RSS of its processes; resolves to { ms, peak }: the largest process's peak (the load process). */
function timedBuild(dir, out) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CQA, 'build', dir, '--out', out, '--include-private'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let peak = 0;
    let stderr = '';
    const poll = setInterval(() => {
      for (const pid of treeOf(child.pid)) {
        const p = peakOf(pid);
        if (p > peak) peak = p;
      }
    }, 100);
    child.stderr.on('data', (c) => (stderr += c));
    child.once('exit', (code) => {
      clearInterval(poll);
      const ms = performance.now() - started;
      code === 0 ? resolve({ ms, peak }) : reject(new Error(`cqa build exited with ${code}:\n${stderr.slice(-2000)}`));
    });
  });
}

/**
 * `content`: a tree the generator wrote before (kept; its .generate.json gives the entry count), to
 * measure again without generating a million files anew (~10 minutes here).
 */
export async function runP8({ entries = 1_000_000, content, log = () => {} } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'cqa-p8-'));
  const dir = content ?? join(tmp, 'content');
  try {
    if (content) {
      entries = JSON.parse(readFileSync(join(content, '.generate.json'), 'utf8')).entries;
      log(`P8: ${entries} entries in ${dir}`);
    } else {
      log(`P8: generating ${entries} entries in ${dir} …`);
      const info = generateContent({ entries, out: dir, seed: 1, format: 'mixed' });
      log(`  ${info.files} files, ${(info.bytes / MiB).toFixed(0)} MiB in ${(info.ms / 1000).toFixed(0)} s`);
    }
    const db = join(tmp, 'db.json');
    exportJsonServerDb(dir, db);
    const dbBytes = statSync(db).size;
    rmSync(db);

    const started = performance.now();
    const server = await spawnServer([CQA, 'serve', dir, '--port', '0', '--quiet', '--max-limit', '0'], { timeoutMs: 3_600_000 });
    const loadMs = performance.now() - started;
    log(`  cqa serve listening after ${(loadMs / 1000).toFixed(1)} s`);
    const request = join(tmp, 'p8-request.json');
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
    writeFileSync(request, JSON.stringify({ queries: SCALE_QUERIES, pages: PAGES, headers }));
    const routes = join(tmp, 'p8-routes.json');
    let perQuery, rss;
    try {
      perQuery = await pageThrough(server.url, request, routes);
      await sleep(500);
      rss = rssOf(server.child.pid);
    } finally {
      await server.stop();
    }
    const bare = await spawnServer([join(ROOT, 'scripts/bench/bare-server.mjs'), routes]);
    let floor;
    try {
      floor = await pageThrough(bare.url, request);
    } finally {
      await bare.stop();
    }
    perQuery.forEach((p, k) => {
      Object.assign(p, { floor_p50_ms: floor[k].p50_ms, floor_p99_ms: floor[k].p99_ms });
    });
    log(
      `  queries p50/p99 ms (bare floor): ${perQuery.map((p) => `${p.p50_ms}/${p.p99_ms} (${p.floor_p50_ms}/${p.floor_p99_ms})`).join(', ')}`,
    );
    log(`  RSS ${(rss / MiB).toFixed(0)} MiB; building …`);
    const out = join(tmp, 'dist');
    // A failed build is a result too: keep what the server measured.
    const build = await timedBuild(dir, out).catch((err) => ({
      error:
        String(err.message)
          .split('\n')
          .find((l) => /FATAL|Error/.test(l)) ?? 'failed',
    }));
    log(
      build.error
        ? `  cqa build failed: ${build.error}`
        : `  cqa build ${(build.ms / 1000).toFixed(0)} s, peak RSS ${(build.peak / MiB).toFixed(0)} MiB`,
    );

    const ratio = rss / dbBytes;
    const p99 = Math.max(...perQuery.map((p) => p.p99_ms));
    const floorP99 = Math.max(...perQuery.map((p) => p.floor_p99_ms));
    const pass = ratio <= 3 && p99 <= 5 && !build.error;
    const built = build.error
      ? `cqa build failed: ${build.error}`
      : `cqa build ${(build.ms / 1000).toFixed(0)} s, peak RSS ${(build.peak / MiB).toFixed(0)} MiB`;
    return {
      value: round(ratio),
      goal: 3,
      unit: 'ratio',
      pass,
      detail:
        `${entries} entries: cqa serve RSS ${(rss / MiB).toFixed(0)} MiB vs ${(dbBytes / MiB).toFixed(0)} MiB of JSON data (db.json) = ${ratio.toFixed(2)}× (goal ≤ 3×); ` +
        `load (process start to listening) ${(loadMs / 1000).toFixed(1)} s; P3's queries over HTTP, paged through, worst p99 ${p99.toFixed(2)} ms (goal ≤ 5 ms; a bare server's ${floorP99.toFixed(2)} ms with the same client and bytes); ` +
        built,
      load_ms: Math.round(loadMs),
      rss_mib: Math.round(rss / MiB),
      data_mib: Math.round(dbBytes / MiB),
      queries: perQuery,
      ...(build.error
        ? { build_error: build.error }
        : { build_ms: Math.round(build.ms), build_peak_rss_mib: Math.round(build.peak / MiB) }),
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
