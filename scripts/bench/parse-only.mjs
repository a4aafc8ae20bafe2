// P4 baseline: only find, read and parse the content files (what any build must do at least),
// with the build's own parser (lib/node/content/parse.js: the same YAML parser, the same front
// matter split), so that the ratio measures what building adds to parsing and nothing else.
//   node scripts/bench/parse-only.mjs <content dir>
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import fg from 'fast-glob';
import { entryFormat, parseEntry, parseYaml } from '../../lib/node/content/parse.js';

const SETTINGS = new Set(['project.yaml', '_collection.yaml', '_media.yaml']);
const files = fg.sync('**/*.{md,markdown,yaml,yml,json}', { cwd: process.argv[2], absolute: true });
let fields = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const data = SETTINGS.has(basename(file)) ? parseYaml(text).value : parseEntry(entryFormat(file) ?? 'yaml', text).data;
  fields += Object.keys(data ?? {}).length;
}
console.log(`parsed ${files.length} files, ${fields} fields`);
