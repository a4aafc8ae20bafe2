import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const target = process.argv[3];
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const parent = new Map();
for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
const key = (x) => `${x.callFrame.functionName || '(anon)'} ${x.callFrame.url.replace(/.*\/(lib|node_modules)\//, '$1/')}:${x.callFrame.lineNumber}`;
const acc = new Map(); let tot = 0;
for (let i = 0; i < p.samples.length; i++) {
  const chain = [];
  for (let cur = p.samples[i]; cur !== undefined; cur = parent.get(cur)) chain.push(byId.get(cur));
  const idx = chain.findLastIndex((x) => x.callFrame.functionName === target);
  if (idx < 0) continue;
  const t = p.timeDeltas[i] / 1000; tot += t;
  const child = idx === 0 ? '(self)' : key(chain[idx - 1]);
  acc.set(child, (acc.get(child) ?? 0) + t);
}
console.log(target, tot.toFixed(0));
for (const [k, t] of [...acc].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(t.toFixed(1).padStart(8), k);
