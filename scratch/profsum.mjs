import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const n = +(process.argv[3] ?? 30);
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const self = new Map();
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const parent = new Map();
for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
const key = (x) => `${x.callFrame.functionName || '(anon)'} ${x.callFrame.url.replace(/.*\/(lib|node_modules)\//, '$1/')}:${x.callFrame.lineNumber}`;
const incl = new Map();
let total = 0;
for (const [id, t] of dt) {
  total += t;
  const x = byId.get(id);
  self.set(key(x), (self.get(key(x)) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + t);
  }
}
console.log('total ms', (total / 1000).toFixed(0), 'span', ((p.endTime - p.startTime) / 1000).toFixed(0));
console.log('--- self');
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log((t / 1000).toFixed(1).padStart(8), k);
console.log('--- inclusive');
for (const [k, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log((t / 1000).toFixed(1).padStart(8), k);
