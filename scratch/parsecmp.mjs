import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { entryFormat, parseEntry, parseYaml } from '../lib/node/content/parse.js';
import { runJob, fromOutcome } from '../lib/node/content/file-parser.js';
import { listFiles } from '../lib/node/content/files.js';
import { resolve } from 'node:path';
const root = resolve(process.argv[2]);
const files = (await listFiles(root)).filter((f) => /\.(md|yaml|yml)$/.test(f.rel) && !f.rel.includes('/media/'));
const SETTINGS = new Set(['project.yaml', '_collection.yaml', '_media.yaml']);
const jobs = files.map((f) => ({ ...f, kind: SETTINGS.has(basename(f.rel)) ? 'yaml' : 'entry' }));
for (let r = 0; r < 4; r++) {
  let t = performance.now();
  for (const f of files) { const text = readFileSync(f.abs, 'utf8'); SETTINGS.has(basename(f.abs)) ? parseYaml(text).value : parseEntry(entryFormat(f.abs) ?? 'yaml', text).data; }
  const a = performance.now() - t;
  t = performance.now();
  const outs = jobs.map((j) => runJob(j, false));
  const b = performance.now() - t;
  t = performance.now();
  const s = structuredClone(outs);
  const c = performance.now() - t;
  t = performance.now();
  s.map(fromOutcome);
  const d = performance.now() - t;
  console.log(`baseline ${a.toFixed(0)} runJob ${b.toFixed(0)} clone ${c.toFixed(0)} fromOutcome ${d.toFixed(0)}`);
}
