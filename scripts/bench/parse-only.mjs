// P4 baseline: only find, read and parse the content files (what any build must do at least).
//   node scripts/bench/parse-only.mjs <content dir>
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import matter from 'gray-matter';
import YAML from 'yaml';

const files = fg.sync('**/*.{md,markdown,yaml,yml,json}', { cwd: process.argv[2], absolute: true });
const engines = { yaml: { parse: (s) => YAML.parse(s), stringify: (o) => YAML.stringify(o) } };
let fields = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const data = /\.(md|markdown)$/.test(file) ? matter(text, { engines }).data : file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  fields += Object.keys(data ?? {}).length;
}
console.log(`parsed ${files.length} files, ${fields} fields`);
