import { readdirSync, lstatSync, openSync, fstatSync, closeSync, readlinkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
const root = process.argv[2];
function walk(stat) {
  const out = []; const folders = [root];
  while (folders.length) { const f = folders.pop(); for (const d of readdirSync(f, { withFileTypes: true })) { const p = join(f, d.name); if (stat) lstatSync(p); if (d.isDirectory()) folders.push(p); else out.push(p); } }
  return out;
}
for (let r = 0; r < 3; r++) {
  let t = performance.now(); const a = walk(false); const t1 = performance.now() - t;
  t = performance.now(); walk(true); const t2 = performance.now() - t;
  t = performance.now(); fg.sync('**/*.{md,markdown,yaml,yml,json}', { cwd: root, absolute: true }); const t3 = performance.now() - t;
  t = performance.now(); for (const p of a) { const fd = openSync(p, 'r'); fstatSync(fd); closeSync(fd); } const t4 = performance.now() - t;
  t = performance.now(); for (const p of a) { const fd = openSync(p, 'r'); readlinkSync('/proc/self/fd/' + fd); closeSync(fd); } const t5 = performance.now() - t;
  t = performance.now(); for (const p of a) readFileSync(p, 'utf8'); const t6 = performance.now() - t;
  console.log(`walk ${t1.toFixed(0)} walk+lstat ${t2.toFixed(0)} fg ${t3.toFixed(0)} open+fstat+close ${t4.toFixed(0)} open+readlink+close ${t5.toFixed(0)} readFileSync ${t6.toFixed(0)} n=${a.length}`);
}
