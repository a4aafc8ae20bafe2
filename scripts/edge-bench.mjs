#!/usr/bin/env node
// How far one edge worker goes: for generated content of 1,000 and 10,000 entries (~1 KiB each),
// the snapshot file's size (raw and gzip), and the docs/edge.md worker in workerd (miniflare):
// start-up, the first request (which loads the snapshot), a later query, and memory — the workerd
// process's RSS growth, and the JS heap that loadSnapshot leaves (measured in a Node child with
// --expose-gc: Workers' 128 MB limit is on the isolate's heap).
//
//   npm run build:ts && node scripts/edge-bench.mjs [1000 10000 …]
//
//   import { runEdgeBench } from './edge-bench.mjs';
//   const rows = await runEdgeBench({ sizes: [1000, 10000] });
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';
import { bundleWorker, ROOT } from './edge-bundle.mjs';
import { generateContent, TOKEN } from './generate-content.mjs';
import { median, rssOf } from './bench/lib.mjs';

const DATA = join(ROOT, 'bench', 'data');
const RUNS = 3;

// docs/edge.md's recipe worker: the snapshot as a text module, loaded at the first request.
const WORKER = `
import { createHandler, loadSnapshot } from 'content-query-api/edge';
import snapshot from './snapshot.json';
let handler;
export default {
  fetch(request) {
    handler ??= createHandler(loadSnapshot(snapshot));
    return handler(request);
  },
};
`;

/** The snapshot file of `entries` generated entries (content generated once into bench/data/). */
async function snapshotOf(entries) {
  const out = join(DATA, `edge-${entries}`);
  const params = JSON.stringify({ entries, seed: 1, format: 'md' });
  const stamp = join(out, '.generate.json');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== params) generateContent({ entries, out, seed: 1, format: 'md' });
  const file = join(out, '..', `edge-${entries}.snapshot.json`);
  execFileSync(process.execPath, [join(ROOT, 'bin', 'cqa.js'), 'build', out, '--snapshot', file], { stdio: 'pipe' });
  return readFileSync(file, 'utf8');
}

/** Pids of workerd processes started by this process (miniflare's child). */
function workerdPids() {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      if (comm === 'workerd' && Number(rest.split(' ')[1]) === process.pid) pids.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return pids;
}

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** One cold worker: start-up, first request (snapshot load), a later query, RSS growth. */
async function coldRun(code, snapshot) {
  const started = performance.now();
  const mf = new Miniflare({
    modules: [
      { type: 'ESModule', path: 'worker.js', contents: code },
      { type: 'Text', path: 'snapshot.json', contents: snapshot },
    ],
    compatibilityDate: '2025-01-01',
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const url = await mf.ready;
    const ready = performance.now() - started;
    const [pid] = workerdPids();
    const rssBefore = pid ? rssOf(pid) : NaN;
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json', 'accept-encoding': 'identity' };
    const first = await timed(async () => (await fetch(new URL('/healthz', url))).text());
    const query = `/api/bench/items?where[category]=garden&where[price][gt]=50&sort=price:desc&limit=20`;
    await (await fetch(new URL(query, url), { headers })).text();
    const later = await timed(async () => {
      const res = await fetch(new URL(query, url), { headers });
      if (res.status !== 200) throw new Error(`${query}: ${res.status}`);
      return res.text();
    });
    const rssAfter = pid ? rssOf(pid) : NaN;
    return { ready, first: first.ms, query: later.ms, rss: rssAfter - rssBefore };
  } finally {
    await mf.dispose();
  }
}

/**
 * JS heap held by the snapshot's text and the loaded snapshot after a full GC, and the heap V8 had
 * to reserve while loading (its high-water mark), in a fresh Node process.
 */
function heapOf(file) {
  const script = `
    import { readFileSync } from 'node:fs';
    import { getHeapStatistics } from 'node:v8';
    import { loadSnapshot } from ${JSON.stringify(join(ROOT, 'lib', 'edge.js'))};
    const used = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
    const before = used();
    const reservedBefore = getHeapStatistics().total_heap_size;
    const text = readFileSync(${JSON.stringify(file)}, 'utf8');
    const t = performance.now();
    const snapshot = loadSnapshot(text);
    const ms = performance.now() - t;
    const reserved = getHeapStatistics().total_heap_size - reservedBefore;
    const after = used();
    console.log(JSON.stringify({ heap: after - before, reserved, ms, paths: snapshot.paths.length, text: text.length }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' }));
}

export async function runEdgeBench({ sizes = [1000, 10000], log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { code } = await bundleWorker(WORKER, { external: ['./snapshot.json'] });
  const rows = [];
  for (const entries of sizes) {
    log(`edge: ${entries} entries …`);
    const snapshot = await snapshotOf(entries);
    const file = join(DATA, `edge-${entries}.snapshot.json`);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await coldRun(code, snapshot));
    const heap = heapOf(file);
    const pick = (k) => Math.round(median(runs.map((r) => r[k])));
    rows.push({
      entries,
      snapshot_bytes: Buffer.byteLength(snapshot),
      snapshot_gzip_bytes: gzipSync(snapshot).length,
      ready_ms: pick('ready'),
      first_request_ms: pick('first'),
      query_ms: Math.round(median(runs.map((r) => r.query)) * 10) / 10,
      workerd_rss_growth_bytes: pick('rss'),
      heap_bytes: heap.heap,
      heap_reserved_while_loading_bytes: heap.reserved,
      node_load_ms: Math.round(heap.ms),
    });
  }
  return rows;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const rows = await runEdgeBench(sizes.length ? { sizes } : {});
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    '\n| entries | snapshot | gzip | workerd start | first request (loads) | later query | workerd RSS growth | JS heap: kept (text + snapshot) | JS heap: reserved while loading |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    console.log(
      `| ${r.entries.toLocaleString('en')} | ${mb(r.snapshot_bytes)} | ${mb(r.snapshot_gzip_bytes)} | ${r.ready_ms} ms | ${r.first_request_ms} ms | ${r.query_ms} ms | ${mb(r.workerd_rss_growth_bytes)} | ${mb(r.heap_bytes)} | ${mb(r.heap_reserved_while_loading_bytes)} |`,
    );
  }
  writeFileSync(join(DATA, 'edge-bench.json'), `${JSON.stringify(rows, null, 2)}\n`);
}
