import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const names = process.argv.slice(3);
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const parent = new Map();
for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
let t = p.startTime;
const span = new Map();
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  for (let cur = p.samples[i]; cur !== undefined; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame.functionName;
    if (names.includes(f)) {
      const s = span.get(f) ?? { first: t, last: t, n: 0 };
      s.last = t; s.n += p.timeDeltas[i]; span.set(f, s);
    }
  }
}
for (const f of names) { const s = span.get(f); if (s) console.log(f.padEnd(24), ((s.first - p.startTime) / 1000).toFixed(0).padStart(6), ((s.last - p.startTime) / 1000).toFixed(0).padStart(6), 'busy', (s.n / 1000).toFixed(0)); }
