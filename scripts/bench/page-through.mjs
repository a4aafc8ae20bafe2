// P8's client, in a process of its own (a small, quiet heap: in the benchmark's process, which has
// just read a million files, its own garbage collector showed in the timings). Pages through each
// query (offset 0…pages-1), one request at a time over a kept-alive connection, with the headers
// given, timing each request to its last byte without decompressing it (as autocannon and wrk do).
// The first request of a query builds the columns and indexes it needs: reported apart.
//
//   node scripts/bench/page-through.mjs <base url> <request.json> [<routes out.json>]
//   request.json: { "queries": ["where[…]…", …], "pages": 1000, "headers": { … } }
//
// Prints [{ q, first_ms, p50_ms, p99_ms }, …]. With <routes out.json>, asks every page once more
// (untimed: keeping the bytes while timing made garbage to collect) and writes the answers' bytes by
// path in bare-server.mjs's form, for the floor.
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';

const [base, requestFile, routesFile] = process.argv.slice(2);
const { queries, pages, headers } = JSON.parse(readFileSync(requestFile, 'utf8'));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function fetchRaw(path) {
  return new Promise((resolve, reject) => {
    get(base + path, { headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, encoding: res.headers['content-encoding'] ?? 'identity', body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x, digits) => Number(x.toFixed(digits));
const pathOf = (q, i) => `/api/bench/items?${q}&offset=${i}`;
const out = [];
for (const q of queries) {
  const times = [];
  let first;
  for (let i = 0; i < pages; i++) {
    const t = performance.now();
    const res = await fetchRaw(pathOf(q, i));
    const dt = performance.now() - t;
    if (res.status !== 200) throw new Error(`${q} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    if (i === 0) first = dt;
    else times.push(dt);
  }
  times.sort((a, b) => a - b);
  out.push({ q, first_ms: round(first, 1), p50_ms: round(percentile(times, 50), 3), p99_ms: round(percentile(times, 99), 3) });
}
if (routesFile) {
  const routes = {};
  for (const q of queries) {
    for (let i = 0; i < pages; i++) {
      const { encoding, body } = await fetchRaw(pathOf(q, i));
      routes[pathOf(q, i)] = { [encoding]: body.toString('base64') };
    }
  }
  writeFileSync(routesFile, JSON.stringify(routes));
}
agent.destroy();
console.log(JSON.stringify(out));
